import type { EscalationContext } from "../escalation/escalation.js";

/** Room a continue answer grants instead of the task's `on_answer` policy (`answer --extra-…`). */
export interface ExtraRoom {
  /** Attempts added to the iteration cap; at least 1. */
  readonly extraIterations?: number;
  /** Added to `budget_cap` when the task has one. */
  readonly extraBudget?: number;
}

/**
 * An earlier attempt to bring back first (`answer --restore N`, a "Restore attempt N" option):
 * the driver resets the task's git workspace to that attempt's commit (docs/workspaces.md).
 */
export interface RestoreChoice {
  readonly restore?: number;
}

/** What a human can answer to a paused task. */
export type Answer =
  /** Continue with one of the question's numbered options. */
  | ({ readonly kind: "option"; readonly option: number; readonly by?: string } & ExtraRoom &
      RestoreChoice)
  /** Continue with free-text guidance for the next attempt. */
  | ({ readonly kind: "text"; readonly text: string; readonly by?: string } & ExtraRoom &
      RestoreChoice)
  /** Accept the attempt as it is: the approval gate proceeds, even past a failing test. */
  | { readonly kind: "approve"; readonly note?: string; readonly by?: string }
  /** Give up on the task: the approval gate aborts it and the run goes on with the next. */
  | ({ readonly kind: "abort"; readonly note?: string; readonly by?: string } & RestoreChoice);

/** What picking an option does: continue with another attempt, or go through the approval gate. */
export type OptionEffect = "continue" | "approve" | "abort";

/** One numbered option of an escalation question: `2. Number (update implementation)`. */
export interface QuestionOption {
  readonly id: number;
  readonly label: string;
  readonly effect: OptionEffect;
  /** What the next attempt is told when this option is picked (structured options carry it). */
  readonly guidance?: string;
  /** The attempt this option restores first ("Restore attempt 2 and continue"). */
  readonly restore?: number;
}

/** A human's answer with what it answered, as the next generate step receives it. */
export interface GivenAnswer {
  readonly answer: Answer;
  /** The attempt that was paused. */
  readonly iteration: number;
  /** The decision's reason (the condition that paused the task). */
  readonly reason: string;
  readonly question: string;
  /** The chosen option's label, for an option answer. */
  readonly label?: string;
  /** The chosen option's guidance for the next attempt, when the escalation gave one. */
  readonly guidance?: string;
  readonly context?: EscalationContext;
}
