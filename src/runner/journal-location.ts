import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { DEFAULT_JOURNAL_PATH } from "./journal.js";
import { JournalError } from "./journal-error.js";

/** Where a command's journal is, and what its hints must repeat for the next command to find it. */
export interface JournalLocation {
  readonly path: string;
  /** ` --db PATH` when the next command, run from here, would not find the journal by itself; else "". */
  readonly hint: string;
}

/** The directory holding a default journal (`.loopgate/journal.db`). */
const JOURNAL_DIR = dirname(DEFAULT_JOURNAL_PATH);

/** The first `.loopgate/journal.db` in `start` or a directory above it, as git finds `.git`. */
function walkUp(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const candidate = join(dir, DEFAULT_JOURNAL_PATH);
    // Anything there is the journal this project means: a directory or a foreign file there is
    // refused when it is opened, not passed over for one further up.
    if (statSync(candidate, { throwIfNoEntry: false }) !== undefined) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** `value` quoted for a shell when it needs to be. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The journal a command uses: `--db PATH`, else `LOOPGATE_DB`, else the first
 * `.loopgate/journal.db` walking up from the current directory, then (for `run`) from the task
 * file's directory. Without one, a writing command makes `.loopgate/journal.db` here; a reading
 * command stops with JOURNAL_MISSING and creates nothing.
 */
export function locateJournal(
  db: string | undefined,
  access: "read" | "write",
  from: { readonly cwd?: string; readonly taskFileDir?: string } = {},
): JournalLocation {
  const cwd = from.cwd ?? process.cwd();
  if (db !== undefined) return { path: resolve(cwd, db), hint: ` --db ${shellWord(db)}` };
  const env = process.env.LOOPGATE_DB;
  if (env !== undefined && env !== "") return { path: resolve(cwd, env), hint: "" };
  const here = walkUp(cwd);
  if (here !== undefined) return { path: here, hint: "" };
  const beside = from.taskFileDir === undefined ? undefined : walkUp(from.taskFileDir);
  if (beside !== undefined) return { path: beside, hint: ` --db ${shellWord(beside)}` };
  if (access === "read") {
    throw new JournalError(
      "JOURNAL_MISSING",
      `no journal found: no ${DEFAULT_JOURNAL_PATH} in ${cwd} or any directory above it (give --db PATH or set LOOPGATE_DB; loopgate run makes one)`,
    );
  }
  return { path: join(cwd, DEFAULT_JOURNAL_PATH), hint: "" };
}

/**
 * Where a run's step files live: `runs/<id>/` inside `.loopgate/` for a journal there; for a
 * journal elsewhere (`--db rep.db`) under the system's temporary directory, keyed by the
 * journal's path, so that no folder appears beside a journal the user placed.
 */
export function runFilesDir(journalPath: string, runId: number): string {
  const dir = dirname(journalPath);
  if (basename(dir) === JOURNAL_DIR) return join(dir, "runs", String(runId));
  const key = createHash("sha256").update(resolve(journalPath)).digest("hex").slice(0, 16);
  return join(tmpdir(), `loopgate-${key}`, "runs", String(runId));
}
