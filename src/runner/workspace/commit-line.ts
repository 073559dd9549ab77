import type { LoopEvent } from "../../core/loop/loop-event.js";

/** `commit 1a2b3c4d5e6f on loopgate/a (+3 −1 vs attempt 1)`: an attempt's commit for `history`; null for other events. */
export function commitLine(event: LoopEvent): string | null {
  if (event.type !== "step-finished" || event.outcome.step !== "generate") return null;
  const commit = event.outcome.commit;
  if (commit === undefined) return null;
  const on = commit.branch === undefined ? "" : ` on ${commit.branch}`;
  if (!commit.committed) return `no change: commit ${commit.head.slice(0, 12)}${on} as before`;
  let added = 0;
  let removed = 0;
  for (const line of commit.diffFromPrevious.split("\n")) {
    if (line.startsWith("+") && !line.startsWith("+++")) added += 1;
    else if (line.startsWith("-") && !line.startsWith("---")) removed += 1;
  }
  return `commit ${commit.head.slice(0, 12)}${on} (+${added} −${removed} since the previous attempt)`;
}
