import type { StepMeasure, StepName } from "./step-outcome.js";

/** The pause reason of a task whose step could not be judged: the task file needs fixing. */
export const STEP_ERROR = "STEP_ERROR";

/**
 * A step that could not be judged: it never started (its program or `cwd` is missing), or a
 * review crashed without a verdict. It is the configuration's fault, not the attempt's: it is
 * never decided, never retried, and never reaches the agent as feedback.
 */
export interface StepError extends StepMeasure {
  readonly step: StepName;
  /** One line saying what went wrong and what to fix. */
  readonly message: string;
  /** The end of what the step printed, bounded and redacted by the driver. */
  readonly output: string;
}
