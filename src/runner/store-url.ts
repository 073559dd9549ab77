import { LoopgateError } from "../core/errors.js";

/** Where a run's journal lives: today's SQLite file, or a PostgreSQL database the DBOS driver uses. */
export type Store =
  /** `path` absent: the journal `--db` / `LOOPGATE_DB` / the walk up from here finds. */
  | { readonly kind: "sqlite"; readonly path?: string }
  | { readonly kind: "postgres"; readonly url: string };

/** A URL scheme at the start of a value: two letters or more, so that `C:` reads as no scheme. */
const SCHEME = /^([a-z][a-z\d+.-]+):/i;

/** `url` as it may be printed: the password, if any, masked. */
export function printableStoreUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ":***@");
  }
}

/** A usage error about the store `from` names (`--store` or `LOOPGATE_STORE`). */
function badStore(from: string, value: string, why: string): LoopgateError {
  return new LoopgateError(
    "INVALID_USAGE",
    `${from} ${JSON.stringify(printableStoreUrl(value))}: ${why} (give a journal path, sqlite:PATH or postgres://USER@HOST:PORT/DATABASE)`,
  );
}

/** A `postgres://` or `postgresql://` URL checked: a host and a database name. */
function postgresStore(from: string, value: string): Store {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badStore(from, value, "not a valid URL");
  }
  if (url.hostname === "") throw badStore(from, value, "names no host");
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (database === "" || database.includes("/")) {
    throw badStore(from, value, "names no database (…/DATABASE at the end)");
  }
  return { kind: "postgres", url: value };
}

/**
 * Reads a store given as `--store` or `LOOPGATE_STORE` (`from` names which): a path or a
 * `sqlite:PATH` URL (`sqlite:///abs/path` too) is a SQLite journal, a `postgres://` or
 * `postgresql://` URL a PostgreSQL database; anything else (another scheme, nothing) is a usage
 * error naming the value, its password masked.
 */
export function parseStore(from: string, value: string): Store {
  if (value.trim() === "") throw badStore(from, value, "is empty");
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: "sqlite", path: value };
  if (scheme === "postgres" || scheme === "postgresql") return postgresStore(from, value);
  if (scheme === "sqlite") {
    const rest = value.slice("sqlite:".length);
    const path = rest.startsWith("//") ? rest.slice(2) : rest;
    if (path === "") throw badStore(from, value, "names no file");
    return { kind: "sqlite", path };
  }
  throw badStore(from, value, `unknown store scheme "${scheme}:"`);
}

/**
 * The store a command uses: `--store`, else `--db` (a SQLite path, as before), else
 * `LOOPGATE_STORE`, else the SQLite journal found as always. `--store` and `--db` together are a
 * usage error: they say the same thing.
 */
export function storeOf(
  command: string,
  store: string | undefined,
  db: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Store {
  if (store !== undefined && db !== undefined) {
    throw new LoopgateError(
      "INVALID_USAGE",
      `${command}: give --store or --db, not both (--db PATH is --store PATH)`,
    );
  }
  if (store !== undefined) return parseStore("--store", store);
  if (db !== undefined) return { kind: "sqlite", path: db };
  const fromEnv = env.LOOPGATE_STORE;
  if (fromEnv !== undefined && fromEnv !== "") return parseStore("LOOPGATE_STORE", fromEnv);
  return { kind: "sqlite" };
}

/** The commands that read `--store` and `LOOPGATE_STORE` so far; the others read `--db` only. */
const STORE_COMMANDS: ReadonlySet<string> = new Set([
  "db",
  "run",
  "worker",
  "status",
  "history",
  "explain",
  "export",
  "answer",
  "resume",
  "cancel",
  "logs",
  "diff",
  "doctor",
  "restore",
]);

/**
 * Refuses `LOOPGATE_STORE` for a command that does not read it yet, rather than let it use
 * another journal than the one the variable names.
 */
export function refuseUnreadStore(command: string, env: NodeJS.ProcessEnv = process.env): void {
  const value = env.LOOPGATE_STORE;
  if (value === undefined || value === "" || STORE_COMMANDS.has(command)) return;
  throw new LoopgateError(
    "INVALID_USAGE",
    `${command} does not read LOOPGATE_STORE yet (only ${[...STORE_COMMANDS].join(", ")} do; see docs/distributed.md): unset it and give --db PATH or LOOPGATE_DB`,
  );
}
