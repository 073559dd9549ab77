/** A human decision recorded against the loop: it stops the loop whatever else holds. */
export interface Approval {
  readonly decision: "approve" | "reject";
  readonly by?: string;
  readonly note?: string;
}

/** What the caller measured about the loop so far (SPEC §2 `counters`); the core never measures. */
export interface Counters {
  /** Completed passes, 0 before the first one. */
  readonly iteration: number;
  /** Cumulative spend in any unit; absent means 0. */
  readonly spend?: number;
  /** The latest quality score, or null when the loop is not scored. */
  readonly score?: number | null;
  readonly approval?: Approval | null;
  /** Score of each pass, oldest first. */
  readonly scores?: readonly number[];
  /** Fingerprint of each pass's outcome, oldest first. */
  readonly signatures?: readonly string[];
  /**
   * Fingerprint of each pass's change (its diff), oldest first; an empty diff has one too
   * (`NO_CHANGE`). Derived by `decide` when every pass's diff is known.
   */
  readonly changes?: readonly string[];
  /** Time spent so far; supplied by the caller because the core has no clock. */
  readonly elapsedMs?: number;
}
