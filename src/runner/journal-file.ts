import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import Database from "better-sqlite3";
import { JournalError } from "./journal-error.js";

/** The first bytes of every SQLite database file. */
const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");

/** The file's status, or undefined when nothing is there. */
function statOf(path: string): Stats | undefined {
  return statSync(path, { throwIfNoEntry: false });
}

/** The first `length` bytes of a file (fewer when it is shorter). */
function headOf(path: string, length: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(length);
    return head.subarray(0, readSync(fd, head, 0, length, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether a journal file is at `path`, checked before SQLite opens it: false when nothing is
 * there; a JOURNAL_FOREIGN error for a directory, an empty file or a file that is not an SQLite
 * database, which SQLite would otherwise take for a new database and write to.
 */
export function journalFileExists(path: string): boolean {
  const stats = statOf(path);
  if (stats === undefined) return false;
  if (!stats.isFile()) {
    throw new JournalError("JOURNAL_FOREIGN", `${path} is not a file, so not a loopgate journal`);
  }
  if (stats.size === 0) {
    throw new JournalError(
      "JOURNAL_FOREIGN",
      `${path} is an empty file, not a loopgate journal (remove it, or give --db a new path)`,
    );
  }
  if (!headOf(path, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    throw new JournalError(
      "JOURNAL_FOREIGN",
      `${path} is not an SQLite database, so not a journal`,
    );
  }
  return true;
}

/**
 * Creates a journal at `path`, whole or not at all: the database is initialized under a
 * temporary name beside it and linked into place, so nobody ever sees a half-made journal (an
 * empty file at the path is refused). When another runner created it first, theirs is kept.
 * A `.loopgate/` directory gets a `.gitignore` of `*`, unless it has one.
 */
export function createJournalFile(path: string, initialize: (db: Database.Database) => void): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  // loopgate's own directory keeps itself out of the user's repository.
  if (basename(dir) === ".loopgate") {
    try {
      writeFileSync(join(dir, ".gitignore"), "*\n", { flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  const temporary = `${path}.new-${process.pid}`;
  // Left by a loopgate of the same pid that died creating it.
  rmSync(temporary, { force: true });
  const db = new Database(temporary);
  try {
    db.transaction(() => initialize(db)).immediate();
  } finally {
    db.close();
  }
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Bytes 18 and 19 of an SQLite header: 2 and 2 in WAL mode, 1 and 1 for a rollback journal. */
const FILE_FORMAT_OFFSET = 18;

/**
 * The journal copied into memory, for a directory loopgate may not write: SQLite reads a WAL
 * database only where it can create the shared-memory file beside it. The copy is marked as a
 * rollback-journal database so SQLite reads it without one. Refused when the write-ahead log
 * holds events not yet in the file, which such a copy would silently leave out.
 */
export function journalInMemory(path: string): Database.Database {
  const wal = statOf(`${path}-wal`);
  if (wal !== undefined && wal.size > 0) {
    throw new JournalError(
      "JOURNAL_ACCESS",
      `${path}: its write-ahead log ${path}-wal holds events, and SQLite cannot read them in a directory it may not write; copy the journal, -wal file included, somewhere writable`,
    );
  }
  const image = readFileSync(path);
  image[FILE_FORMAT_OFFSET] = 1;
  image[FILE_FORMAT_OFFSET + 1] = 1;
  return new Database(image, { readonly: true });
}

/** Identity and size of one of the journal's files, to notice it being removed, replaced or shrunk. */
export interface FileMark {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  /**
   * Changes with every write to the file, whoever writes. Not the ctime, which a mere reader
   * changes: SQLite run as root (a container's `loopgate status` beside a run) fchowns the
   * write-ahead log it opens to the database's owner, and every such read would send the writer
   * to check the whole journal afresh after each step.
   */
  readonly mtimeMs: number;
}

/** The marks of a journal's database file and its write-ahead log (undefined: not there). */
export interface JournalMarks {
  readonly db: FileMark | undefined;
  readonly wal: FileMark | undefined;
}

function markOf(path: string): FileMark | undefined {
  const stats = statOf(path);
  return stats === undefined
    ? undefined
    : { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
}

/** The journal's files as they are now. */
export function journalMarks(path: string): JournalMarks {
  return { db: markOf(path), wal: markOf(`${path}-wal`) };
}

/** The first bytes of a write-ahead log's header (big-endian 0x377f0682 or 0x377f0683). */
const WAL_MAGICS = [Buffer.from("377f0682", "hex"), Buffer.from("377f0683", "hex")];

/** Whether the file at `path` begins with one of `magics` (of 4 bytes); undefined when it is gone. */
function beginsWith(path: string, magics: readonly Buffer[]): boolean | undefined {
  try {
    const head = headOf(path, 4);
    return magics.some((magic) => head.equals(magic));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

const same = (a: FileMark | undefined, b: FileMark | undefined) =>
  a?.size === b?.size && a?.mtimeMs === b?.mtimeMs;

/** What happened to one file between two marks that no SQLite writer does; undefined if nothing. */
function damageTo(name: string, before: FileMark | undefined, now: FileMark | undefined) {
  if (before === undefined) return undefined;
  if (now === undefined) return `${name} was removed`;
  if (now.dev !== before.dev || now.ino !== before.ino) return `${name} was replaced`;
  if (now.size < before.size) return `${name} shrank from ${before.size} to ${now.size} bytes`;
  return undefined;
}

/**
 * A write-ahead log cut while SQLite wrote it: SQLite's next frames land where they would have,
 * past the cut, so the size shows nothing, but the header before them reads as zeros. Read only
 * after a write. (Not the database file: closing a descriptor of it would drop SQLite's locks.)
 */
function headerLost(
  name: string,
  wal: string,
  before: FileMark | undefined,
  now: FileMark | undefined,
) {
  if (before === undefined || now === undefined || now.size === 0 || same(before, now)) {
    return undefined;
  }
  const headed = beginsWith(wal, WAL_MAGICS);
  if (headed === undefined) return `${name} was removed`;
  return headed ? undefined : `${name} lost its header (cut while written to, or overwritten)`;
}

/**
 * How the journal's files changed between two marks: `broken` names a change no SQLite writer
 * makes (a file removed, replaced, shrunk, or a log without its header, cut and written again:
 * loopgate never truncates its files while it has them open); `written` says someone else
 * wrote to them since (another runner, or a step).
 */
export function compareMarks(
  path: string,
  before: JournalMarks,
  now: JournalMarks,
): { readonly broken: string | undefined; readonly written: boolean } {
  const wal = `${path}-wal`;
  const name = `its write-ahead log ${wal}`;
  const broken =
    damageTo(path, before.db, now.db) ??
    damageTo(name, before.wal, now.wal) ??
    headerLost(name, wal, before.wal, now.wal);
  return { broken, written: !same(before.db, now.db) || !same(before.wal, now.wal) };
}
