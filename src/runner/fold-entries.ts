import { LoopgateError } from "../core/errors.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import type { LoopPlan } from "../core/loop/loop-plan.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { replay } from "../core/loop/replay.js";

/** One event to fold, with its place in the journal. */
export interface FoldEntry {
  readonly seq: number;
  readonly event: LoopEvent;
}

/** The folded state, or the first event (by `seq`) that does not fit the loop, and why. */
export type FoldResult =
  | { readonly ok: true; readonly state: LoopState }
  | { readonly ok: false; readonly seq: number; readonly message: string };

/**
 * The state folding journal `entries` in order from the loop's start reaches: the core's
 * `replay`, O(events) however many tasks the run has, with a refused event named by its `seq`
 * rather than thrown. `visit` sees each entry with the state after it, during the call only.
 */
export function foldEntries<Entry extends FoldEntry>(
  plan: LoopPlan,
  entries: readonly Entry[],
  visit?: (entry: Entry, state: LoopState) => void,
): FoldResult {
  // The entries replay has folded: the one it refuses is the next.
  let folded = 0;
  try {
    const state = replay(
      plan,
      entries.map((entry) => entry.event),
      (after) => {
        visit?.(entries[folded] as Entry, after);
        folded += 1;
      },
    );
    return { ok: true, state };
  } catch (error) {
    const refused = entries[folded];
    if (!LoopgateError.is(error) || error.code !== "INVALID_EVENT" || refused === undefined) {
      throw error;
    }
    return { ok: false, seq: refused.seq, message: error.message };
  }
}
