import type { LoopPlan } from "../../core/loop/loop-plan.js";
import type { LoopState } from "../../core/loop/loop-state.js";
import { replay } from "../../core/loop/replay.js";
import type { PostgresJournal } from "./postgres-journal.js";

/**
 * A run's state with every task's events folded at once, every task's place taken: a run on
 * PostgreSQL has no single process holding its places, so each reader folds it whole.
 */
export async function wholeRunState(
  journal: PostgresJournal,
  plan: LoopPlan,
  runId: number,
): Promise<LoopState> {
  const events = (await journal.events(runId)).map((entry) => entry.event);
  return replay({ ...plan, concurrency: plan.tasks.length }, events);
}
