import { existsSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "../../runner/test-support/built-cli.js";
import { fixtureProject } from "../../runner/test-support/fixture-project.js";
import { databaseUrl, freshDatabase, postgresAvailability } from "../../test-support/postgres.js";

beforeAll(requireBuild);

/** A loopback port nobody listens on (it was free a moment ago). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        resolve(typeof address === "object" && address !== null ? address.port : 1),
      );
    });
  });
}

describe("--store on SQLite, and refusals", () => {
  it("creates a SQLite journal named by sqlite:PATH, and again changes nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopgate-db-"));
    const first = cli(["db", "migrate", "--store", "sqlite:j.db"], {}, dir);
    expect(first.stderr).toBe("");
    expect(first.stdout).toBe(
      `migrated SQLite journal ${join(dir, "j.db")} (schema version 3 found)\n`,
    );
    expect(first.status).toBe(0);
    const again = cli(["db", "migrate"], { LOOPGATE_STORE: join(dir, "j.db") }, dir);
    expect([again.status, again.stdout]).toEqual([0, first.stdout]);
  });

  it("runs a task file on a SQLite journal named by --store or LOOPGATE_STORE; commands that do not read it yet refuse it", () => {
    const fixture = fixtureProject({ passFrom: 1 });
    const ran = cli(
      ["run", fixture.taskFile, "--store", "sqlite:j.db", "--quiet"],
      {},
      fixture.dir,
    );
    expect([ran.status, ran.stderr]).toEqual([0, ""]);
    expect(ran.stdout).toMatch(/^task-1 +proceeded +1 /m);
    expect(existsSync(join(fixture.dir, "j.db"))).toBe(true);
    const again = cli(
      ["run", fixture.taskFile, "--new", "--quiet"],
      { LOOPGATE_STORE: "j.db" },
      fixture.dir,
    );
    expect(again.status).toBe(0);
    const listed = cli(["status", "--db", "j.db", "--all", "--json"], {}, fixture.dir);
    expect((JSON.parse(listed.stdout) as { runs: unknown[] }).runs).toHaveLength(2);
    const fromEnv = cli(["status", "--all", "--json"], { LOOPGATE_STORE: "j.db" }, fixture.dir);
    expect(fromEnv.stdout).toBe(listed.stdout);
    const refused = cli(["hook", "stop"], { LOOPGATE_STORE: "j.db" }, fixture.dir);
    expect([refused.status, refused.stdout]).toEqual([2, ""]);
    expect(refused.stderr).toMatch(
      /^error: hook does not read LOOPGATE_STORE yet \(only db, run, worker, status, history, explain, export, answer, resume, cancel, logs, diff, doctor, restore do;/,
    );
  });

  it("refuses a store it cannot use with one error line and writes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loopgate-db-"));
    const port = await closedPort();
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [
        ["--store", "mysql://u@h/db"],
        {},
        /^error: --store "mysql:\/\/u@h\/db": unknown store scheme "mysql:"/,
      ],
      [
        [],
        { LOOPGATE_STORE: "postgres://h" },
        /^error: LOOPGATE_STORE "postgres:\/\/h": names no database/,
      ],
      [
        ["--store", "a.db", "--db", "b.db"],
        {},
        /^error: db migrate: give --store or --db, not both/,
      ],
      [
        ["--store", `postgres://loopgate:hunter2@127.0.0.1:${port}/db`],
        {},
        new RegExp(
          `^error: cannot connect to PostgreSQL at postgres://.*@127\\.0\\.0\\.1:${port}/db: connect ECONNREFUSED`,
        ),
      ],
    ];
    for (const [args, env, message] of cases) {
      const ran = cli(["db", "migrate", ...args], env, dir);
      expect(ran.stderr).toMatch(message);
      expect(ran.stderr).not.toContain("hunter2");
      expect(ran.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect([ran.status, ran.stdout]).toEqual([2, ""]);
    }
    expect(existsSync(join(dir, "a.db")) || existsSync(join(dir, ".loopgate"))).toBe(false);
    const unknown = cli(["db", "upgrade"], {}, dir);
    expect([unknown.status, unknown.stderr]).toEqual([
      2,
      'error: db: unknown action "upgrade": the actions are migrate and upgrade-paused (see loopgate db --help)\n',
    ]);
    const onSqlite = cli(["db", "upgrade-paused", "--store", join(dir, "b.db")], {}, dir);
    expect([onSqlite.status, onSqlite.stderr]).toEqual([
      2,
      "error: db upgrade-paused: a SQLite journal has no workflow versions: it needs --store postgres://…\n",
    ]);
    expect(existsSync(join(dir, "b.db"))).toBe(false);
  });
});

const availability = postgresAvailability();

describe.skipIf(availability.skip !== false)(
  `loopgate db migrate on PostgreSQL${availability.skip === false ? "" : ` (skipped: ${availability.skip})`}`,
  () => {
    it("creates the database, DBOS's system schema and loopgate's tables, then finds them up to date", async () => {
      const url = databaseUrl(await freshDatabase(), `migrated_${process.pid}`);
      const first = cli(["db", "migrate", "--store", url]);
      expect(first.stderr).toBe("");
      expect(first.stdout).toBe(
        `migrated ${url}: database created, DBOS system schema ready, loopgate schema version 2 (was 0)\n`,
      );
      expect(first.status).toBe(0);
      const again = cli(["db", "migrate"], { LOOPGATE_STORE: url });
      expect(again.stdout).toBe(
        `migrated ${url}: DBOS system schema ready, loopgate schema version 2 (up to date)\n`,
      );
      expect(again.status).toBe(0);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const tables = await client.query<{ name: string }>(
          "SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema IN ('loopgate', 'dbos') ORDER BY 1",
        );
        const names = tables.rows.map((row) => row.name);
        expect(names.filter((name) => name.startsWith("loopgate."))).toEqual([
          "loopgate.events",
          "loopgate.runs",
          "loopgate.schema_version",
          "loopgate.workers",
        ]);
        expect(names).toContain("dbos.workflow_status");
        const version = await client.query("SELECT version FROM loopgate.schema_version");
        expect(version.rows).toEqual([{ version: 2 }]);
      } finally {
        await client.end();
      }
    });
  },
);
