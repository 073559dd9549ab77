import { LoopgateError } from "../core/errors.js";

/** Why a journal cannot be used, read or written. */
export type JournalErrorCode =
  /** A reading command found no journal at the path: it never creates one. */
  | "JOURNAL_MISSING"
  /** The path holds something else: an empty file, another program's file or SQLite database. */
  | "JOURNAL_FOREIGN"
  /** A journal of a schema this loopgate does not read. */
  | "JOURNAL_VERSION"
  /** The journal cannot be read, or written by a command that writes (a read-only file or mount). */
  | "JOURNAL_ACCESS"
  /** The journal fails SQLite's integrity check, or a run or event in it cannot be read back. */
  | "JOURNAL_DAMAGED"
  /** The journal's files were removed, replaced, shrunk or damaged while a run wrote to it. */
  | "JOURNAL_CHANGED";

/** Exit code of a journal that is damaged or changed under the runner (docs/runner.md). */
export const EXIT_JOURNAL_DAMAGED = 5;

/**
 * A journal loopgate must not use as it is. Nothing was written to it: the checks come before
 * any write. The CLI prints the message as one `error:` line and exits with `exitCode`.
 */
export class JournalError extends LoopgateError {
  constructor(
    override readonly code: JournalErrorCode,
    message: string,
  ) {
    super(code, message);
    this.name = "JournalError";
  }

  /** 5 when the journal is damaged or changed, 2 (bad input) when it is the wrong file. */
  get exitCode(): number {
    return this.code === "JOURNAL_DAMAGED" || this.code === "JOURNAL_CHANGED"
      ? EXIT_JOURNAL_DAMAGED
      : 2;
  }

  /** True for a JournalError, even one from another copy of the package. */
  static isJournalError(value: unknown): value is JournalError {
    return LoopgateError.is(value) && value.code.startsWith("JOURNAL_") && "exitCode" in value;
  }
}
