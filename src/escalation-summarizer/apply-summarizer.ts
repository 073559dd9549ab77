import type { EscalateDecision } from "../core/decision.js";
import { redact } from "../core/redaction/redaction.js";
import { toWire } from "../wire/codec.js";
import { decodeRewrite } from "./rewrite-document.js";
import type { EscalationRewrite, Summarizer } from "./summarizer.js";

/** How long a summarizer may take before the deterministic escalation is used, by default. */
export const DEFAULT_SUMMARIZER_TIMEOUT_MS = 30_000;

/** The escalation to print, and why the summarizer's rewrite was not used when it was not. */
export type SummarizerOutcome =
  | { readonly decision: EscalateDecision; readonly rewritten: true }
  | { readonly decision: EscalateDecision; readonly rewritten: false; readonly error: string };

/** Why a rewritten question is refused: it must keep every option's numbered line, so ids still match. */
function missingOption(decision: EscalateDecision, question: string): string | null {
  const lines = new Set(question.split("\n").map((line) => line.trim()));
  const missing = decision.options.find((option) => !lines.has(`${option.id}. ${option.label}`));
  return missing === undefined
    ? null
    : `the question lost option line "${missing.id}. ${missing.label}"`;
}

/** The summarizer's answer, or a rejection once `timeoutMs` has passed (the summarizer is aborted). */
async function withTimeout(
  summarizer: Summarizer,
  decision: EscalateDecision,
  timeoutMs: number,
): Promise<Partial<EscalationRewrite>> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected first: a summarizer that answers as it is aborted must not win the race.
      reject(new Error(`timed out after ${timeoutMs} ms`));
      controller.abort();
    }, timeoutMs);
  });
  try {
    return await Promise.race([summarizer(decision, controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Lets a summarizer rewrite an escalation's summary, pattern and question. Its answer is
 * validated like any input and redacted; when it fails, times out, returns an invalid
 * document or drops an option's line, the deterministic escalation stands and the error says why.
 */
export async function applySummarizer(
  decision: EscalateDecision,
  summarizer: Summarizer,
  timeoutMs: number = DEFAULT_SUMMARIZER_TIMEOUT_MS,
): Promise<SummarizerOutcome> {
  try {
    // A TypeScript summarizer is checked as strictly as a command's JSON: both are outside code.
    const rewrite = decodeRewrite(toWire(await withTimeout(summarizer, decision, timeoutMs)));
    const refused =
      rewrite.question === undefined ? null : missingOption(decision, rewrite.question);
    if (refused !== null) return { decision, rewritten: false, error: refused };
    const context = decision.context;
    return {
      rewritten: true,
      decision: {
        ...decision,
        context: {
          ...context,
          attemptsSummary: redact(rewrite.attemptsSummary ?? context.attemptsSummary),
          patternDetected:
            rewrite.patternDetected === undefined
              ? context.patternDetected
              : rewrite.patternDetected === null
                ? null
                : redact(rewrite.patternDetected),
        },
        question: redact(rewrite.question ?? decision.question),
      },
    };
  } catch (error) {
    return {
      decision,
      rewritten: false,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}
