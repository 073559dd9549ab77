import { redact } from "../../core/redaction/redaction.js";

/** How a notification names the store a run lives in, so a receiver can answer its pauses. */
export interface StoreName {
  /** The notification's `journal` field: a SQLite journal's path, or a redacted store URL. */
  readonly journal: string;
  /** The `loopgate answer` option that names the store, e.g. `--db "runs.db"`. */
  readonly answerOption: string;
}

/** A SQLite journal, named by its path. */
export function sqliteStoreName(path: string): StoreName {
  return { journal: path, answerOption: `--db ${JSON.stringify(path)}` };
}

/**
 * A PostgreSQL store, named by its URL with its credentials redacted: a notification never
 * carries the password, so the receiver puts its own credentials back into `--store`.
 */
export function postgresStoreName(url: string): StoreName {
  const named = redact(url);
  return { journal: named, answerOption: `--store ${JSON.stringify(named)}` };
}
