import type { Journal } from "./journal.js";
import { isDamage, loadRun } from "./load-run.js";

/**
 * Gives every run journaled before task summaries were kept (schema version 3) its summaries,
 * folded from its events, once: the first command that writes to an upgraded journal does it.
 * A damaged run is left without, so status folds it and names the damage; a rebuild cut off is
 * finished by the next command that writes, as the journal notes it until it is done.
 */
export function rebuildSummaries(journal: Journal): void {
  if (!journal.summariesMissing) return;
  for (const runId of journal.runIds()) {
    if (journal.taskBriefs(runId) !== undefined) continue;
    try {
      journal.writeSummaries(runId, () => loadRun(journal, runId).state);
    } catch (error) {
      if (!isDamage(error)) throw error;
    }
  }
  journal.summariesRebuilt();
}
