import pg from "pg";
import { LoopgateError } from "../../core/errors.js";
import { printableStoreUrl } from "../store-url.js";

/** How long a connection attempt may take: an unreachable host must not hang a command. */
const CONNECT_TIMEOUT_MS = 10_000;

/** PostgreSQL's code for a database that does not exist. */
const NO_SUCH_DATABASE = "3D000";

/** The error a command stops on when the server cannot be used: bad input, one line, exit 2. */
function unreachable(url: string, error: unknown): LoopgateError {
  const why = error instanceof Error ? error.message : String(error);
  return new LoopgateError(
    "INVALID_USAGE",
    `cannot connect to PostgreSQL at ${printableStoreUrl(url)}: ${why || (error as { code?: string }).code}`,
  );
}

/** Whether `error` is PostgreSQL saying the database does not exist. */
export function isMissingDatabase(error: unknown): boolean {
  return (error as { code?: unknown }).code === NO_SUCH_DATABASE;
}

/** A connected client of `url`; a server that cannot be reached or refuses is a usage error. */
export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An 'error' event nobody listens to would end the process; a query in flight rejects anyway.
  client.on("error", () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    if (isMissingDatabase(error)) throw error;
    throw unreachable(url, error);
  }
}

/**
 * A connected client of `url`, creating its database first when the server has none of that
 * name (through the server's `postgres` database). Whether it was created is returned.
 */
export async function connectCreating(
  url: string,
): Promise<{ client: pg.Client; created: boolean }> {
  try {
    return { client: await connect(url), created: false };
  } catch (error) {
    if (!isMissingDatabase(error)) throw error;
  }
  const admin = new URL(url);
  const database = decodeURIComponent(admin.pathname.slice(1));
  admin.pathname = "/postgres";
  const client = await connect(admin.toString());
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  } catch (error) {
    // Another migrate made it meanwhile.
    if ((error as { code?: unknown }).code !== "42P04") throw unreachable(url, error);
  } finally {
    await client.end();
  }
  return { client: await connect(url), created: true };
}
