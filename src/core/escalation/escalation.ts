/** What a human needs to decide in seconds: the story of the attempts, the pattern, the diff. */
export interface EscalationContext {
  readonly attemptsSummary: string;
  readonly patternDetected: string | null;
  /** The latest known diff, only when `escalation_includes_diff` is on. */
  readonly diff?: string;
}

/** The escalation part of a decision: context plus a question with numbered options. */
export interface Escalation {
  readonly context: EscalationContext;
  readonly question: string;
}
