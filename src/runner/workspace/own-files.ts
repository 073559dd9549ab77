import { join } from "node:path";

/**
 * loopgate's own files next to a journal: the journal with its SQLite companions, the run
 * directories (step files) and the task worktrees. They are never part of an attempt.
 */
export function ownFiles(journalPath: string, journalDir: string): string[] {
  return [
    journalPath,
    `${journalPath}-wal`,
    `${journalPath}-shm`,
    `${journalPath}-journal`,
    join(journalDir, "runs"),
    join(journalDir, "worktrees"),
  ];
}
