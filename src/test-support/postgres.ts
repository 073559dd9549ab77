import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { inject } from "vitest";
import {
  findPostgresBinaries,
  startPostgresServer,
  type PostgresBinaries,
  type PostgresServer,
} from "./postgres-server.js";

/** How long a test file waits for another file to start the run's server. */
const START_WAIT_MS = 60_000;

/**
 * Whether this machine can run the PostgreSQL tests: `skip` names why not. In CI (CI=true) the
 * binaries must be there (.ci/run installs them), so their absence fails instead of skipping.
 */
export function postgresAvailability(
  binaries: PostgresBinaries = findPostgresBinaries(),
  env: NodeJS.ProcessEnv = process.env,
): { readonly skip: false } | { readonly skip: string } {
  if (binaries.found) return { skip: false };
  if (env.CI === "true") throw new Error(`CI=true: ${binaries.reason}`);
  return { skip: binaries.reason };
}

/** The run's server: started by the first test file that asks, waited for by the others. */
async function runServer(): Promise<PostgresServer> {
  const dir = inject("postgresDir");
  const binaries = findPostgresBinaries();
  if (!binaries.found) throw new Error(binaries.reason);
  const started = join(dir, "server.json");
  const failed = join(dir, "failed.txt");
  let first = true;
  try {
    mkdirSync(join(dir, "starting"));
  } catch {
    first = false;
  }
  if (first) {
    try {
      return await startPostgresServer(binaries.binDir, dir);
    } catch (error) {
      writeFileSync(failed, String(error));
      throw error;
    }
  }
  for (const deadline = Date.now() + START_WAIT_MS; Date.now() < deadline;) {
    if (existsSync(started)) return JSON.parse(readFileSync(started, "utf8")) as PostgresServer;
    if (existsSync(failed)) throw new Error(readFileSync(failed, "utf8"));
    await sleep(50);
  }
  throw new Error(`the test PostgreSQL server did not start within ${START_WAIT_MS} ms`);
}

/** The URL of a database on the server `server` answers, by name. */
export function databaseUrl(server: string, database: string): string {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A new, empty database on the run's throwaway server, for one test file (files run in parallel
 * and must not see each other's rows); the server stops when the run ends.
 */
export async function freshDatabase(): Promise<string> {
  const server = await runServer();
  const name = `loopgate_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return databaseUrl(server.url, name);
}
