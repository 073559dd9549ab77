import type { EscalateDecision } from "../core/decision.js";

/** The parts of an escalation a summarizer may rewrite: the story, the pattern, the question. */
export interface EscalationRewrite {
  readonly attemptsSummary: string;
  readonly patternDetected: string | null;
  readonly question: string;
}

/**
 * Rewrites a deterministic escalation (e.g. with a language model): returns the fields it
 * changes, leaves the rest out. `signal` aborts when loopgate stops waiting for it.
 */
export type Summarizer = (
  escalation: EscalateDecision,
  signal: AbortSignal,
) => Promise<Partial<EscalationRewrite>>;
