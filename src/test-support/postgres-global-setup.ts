import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import {
  findPostgresBinaries,
  stopPostgresServer,
  type PostgresServer,
} from "./postgres-server.js";

declare module "vitest" {
  interface ProvidedContext {
    /** The directory the run's throwaway PostgreSQL server is made in, once a test needs it. */
    postgresDir: string;
  }
}

/**
 * vitest's global setup: only a directory for the run's PostgreSQL server, which the first test
 * that needs it starts (src/test-support/postgres.ts), so a run without such a test pays nothing.
 * The teardown stops the server if one started and removes everything.
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-test-pg-"));
  project.provide("postgresDir", dir);
  return () => {
    const started = join(dir, "server.json");
    const binaries = findPostgresBinaries();
    if (existsSync(started) && binaries.found) {
      const server = JSON.parse(readFileSync(started, "utf8")) as PostgresServer;
      stopPostgresServer(binaries.binDir, server.dataDir);
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
