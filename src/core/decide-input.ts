import type { Policy } from "./policy.js";
import type { IterationCheck, IterationControl } from "./iteration-check.js";

/** Stop limits for `decide` (SPEC §3 `stop_conditions`): SPEC §2's policy without the iteration cap. */
export type StopConditions = Omit<Policy, "maxIterations">;

/** A complete, validated `decide` document with defaults resolved. */
export interface DecideInput {
  readonly iterationControl: IterationControl;
  readonly stopConditions: StopConditions;
  readonly iterationCheck: IterationCheck;
}
