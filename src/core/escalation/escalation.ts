/** What a human needs to decide in seconds: the story of the attempts, the pattern, the diff. */
export interface EscalationContext {
  readonly attemptsSummary: string;
  readonly patternDetected: string | null;
  /** The latest known diff, only when `escalation_includes_diff` is on. */
  readonly diff?: string;
}

/** What picking an option does to the task: another attempt, or give it up. */
export type OptionAction = "continue" | "abort";

/**
 * One way forward, answerable by a program: `id` is the number of the question's matching
 * line (`"2"` for `2. …`), `guidance` is what the next attempt is told when it is picked.
 */
export interface EscalationOption {
  readonly id: string;
  readonly label: string;
  readonly action: OptionAction;
  readonly guidance: string;
}

/** The escalation part of a decision: context, a question with numbered options, the same options structured. */
export interface Escalation {
  readonly context: EscalationContext;
  readonly question: string;
  readonly options: readonly EscalationOption[];
}
