import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { stringify } from "yaml";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { fixtureProject, type Fixture } from "../test-support/fixture-project.js";
import { describeOnBothStores } from "./test-support/both-stores.js";

// The runner's behaviours a user of either store relies on, told on both through the built CLI
// and compared once both have run (as in store-behaviour.test.ts): `--concurrency N` within one
// process with paused tasks freeing their places, a task file's secrets kept out of what the
// store keeps, the notifications of a pause and a finish, `hook` (SQLite only), and a store that
// cannot be opened refused with one line.

const dir = mkdtempSync(join(tmpdir(), "loopgate-runner-stores-"));
const journal = join(dir, "journal.db");
const TOKEN = "ghp_4bX9qLm2Rt7Wz0Kc5Vn8Yp3Hd6Js1Fa2Ge4Q";

let together: Fixture;
let secrets: Fixture;
let notified: Fixture;
let damaged: Fixture;

/** The most steps the trace lines `lines` show running at once. */
function mostAtOnce(lines: readonly string[]): number {
  let running = 0;
  let most = 0;
  for (const line of lines) {
    running += line.endsWith(" start") ? 1 : -1;
    most = Math.max(most, running);
  }
  return most;
}

/** Everything the store keeps, as text: the journal file's bytes, or loopgate's PostgreSQL rows. */
async function keptText(flags: readonly string[]): Promise<string> {
  const [flag, where = ""] = flags;
  if (flag === "--db") {
    const wal = `${where}-wal`;
    return readFileSync(where, "latin1") + (existsSync(wal) ? readFileSync(wal, "latin1") : "");
  }
  const db = new pg.Client({ connectionString: where });
  await db.connect();
  try {
    const rows = await db.query<{ kept: string }>(
      "SELECT (SELECT string_agg(r::text, '') FROM loopgate.runs r) || (SELECT string_agg(e::text, '') FROM loopgate.events e) AS kept",
    );
    return rows.rows[0]?.kept ?? "";
  } finally {
    await db.end();
  }
}

beforeAll(() => {
  requireBuild();
  together = fixtureProject({ passFrom: 4, tasks: ["a", "b", "quick"], meet: 2 });
  secrets = fixtureProject();
  secrets.write(
    "loopgate.yaml",
    stringify({
      iteration_control: { max_iterations: 1 },
      steps: {
        // The step prints the token it got whole; the test passes from the second attempt.
        generate: { command: 'echo "token $API_TOKEN"', env: { API_TOKEN: TOKEN } },
        test: {
          command: `echo "using ${TOKEN}"; [ "$LOOPGATE_ITERATION" -ge 2 ] && [ "$API_TOKEN" = "${TOKEN}" ]`,
          env: { API_TOKEN: TOKEN },
        },
      },
      tasks: [{ id: "t", prompt: `use the token ${TOKEN} to call the API` }],
    }),
  );
  notified = fixtureProject({ passFrom: 2, tasks: ["n"] });
  const keep = [
    "sh",
    "-c",
    'cp "$LOOPGATE_NOTIFICATION_FILE" "got-$LOOPGATE_NOTIFICATION_EVENT.json"',
  ];
  notified.write(
    "loopgate.yaml",
    stringify({
      iteration_control: { max_iterations: 1 },
      steps: {
        generate: { command: "echo generated" },
        test: { command: '[ "$LOOPGATE_ITERATION" -ge 2 ]' },
      },
      on_pause: { command: keep },
      on_finish: { command: keep },
      tasks: [{ id: "n", prompt: "do n" }],
    }),
  );
  damaged = fixtureProject({ passFrom: 1, tasks: ["d"] });
});

afterAll(() => {
  for (const fixture of [together, secrets, notified, damaged]) {
    rmSync(fixture.dir, { recursive: true, force: true });
  }
  rmSync(dir, { recursive: true, force: true });
});

describeOnBothStores(
  "the runner's behaviours on both stores",
  journal,
  12,
  ({ name, flags, run, keep }) => {
    it("runs --concurrency 2 steps at once in one process, and the places paused tasks free let the others run (run 1)", () => {
      const before = together.trace().length;
      rmSync(join(together.dir, "met-a"), { force: true });
      rmSync(join(together.dir, "met-b"), { force: true });
      rmSync(join(together.dir, "met-quick"), { force: true });
      const first = run(together, "concurrency run", [
        "run",
        together.taskFile,
        "--concurrency",
        "2",
        "--quiet",
      ]);
      expect(first.status, first.stderr).toBe(3);
      // a and b pause at their third attempt; quick runs in the place the first to pause freed.
      expect(first.stdout).toMatch(/^a +awaiting-answer +3 /m);
      expect(first.stdout).toMatch(/^b +awaiting-answer +3 /m);
      expect(first.stdout).toMatch(/^quick +proceeded +1 /m);
      const answers = together.write(
        "answers.yaml",
        "answers:\n  a: {text: go on}\n  b: {text: use a number}\n",
      );
      const resumed = run(together, "concurrency resume", [
        "resume",
        "--run",
        "1",
        "--answers",
        answers,
        "--quiet",
      ]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/^a +proceeded +4 /m);
      expect(resumed.stdout).toMatch(/^b +proceeded +4 /m);
      const lines = together.trace().slice(before);
      // The first generate steps of two tasks met (each waited for the other to begin), and
      // never more than two steps ran at once, in the run and in its resume alike.
      expect(mostAtOnce(lines)).toBe(2);
      // The run's history interleaves its tasks as their steps happened to end; a task's own
      // story does not depend on that.
      const explained = run(together, "concurrency explain", ["explain", "a", "--run", "1"]);
      expect(explained.status, explained.stderr).toBe(0);
    });

    it("keeps a task file's secrets out of everything the store keeps and prints, while the steps get them whole (run 2)", async () => {
      const first = run(secrets, "secrets run", ["run", secrets.taskFile, "--quiet"]);
      expect(first.status, first.stderr).toBe(3);
      expect(run(secrets, "secrets answer", ["answer", "t", "--text", "go on"]).status).toBe(0);
      const resumed = run(secrets, "secrets resume", ["resume", "--run", "2", "--quiet"]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/^t +proceeded +2 /m);
      // What is kept of these is compared; the export differs by store in pids and times.
      const printed = ["status", "history", "logs t"].map((command) => {
        const done = run(secrets, `secrets ${command}`, [...command.split(" "), "--run", "2"]);
        expect(done.status, done.stderr).toBe(0);
        return done.stdout;
      });
      printed.push(cli(["export", "--jsonl", "--run", "2", ...flags()], {}, secrets.dir).stdout);
      const kept = await keptText(flags());
      for (const text of [...printed, kept]) expect(text).not.toContain(TOKEN.slice(4, 20));
      expect(kept).toContain("[REDACTED:github_token]");
      // The step printed the token it got: its log holds it redacted, so it reached it whole.
      expect(printed[2]).toContain("token [REDACTED:github_token]");
    });

    it("tells on_pause and on_finish of the pause and the finish on both stores, answer_with naming the store (run 3)", () => {
      const got = (event: string) => join(notified.dir, `got-${event}.json`);
      rmSync(got("pause"), { force: true });
      rmSync(got("finish"), { force: true });
      const first = run(notified, "notified run", ["run", notified.taskFile, "--quiet"]);
      expect(first.status, first.stderr).toBe(3);
      expect(first.stderr).not.toContain("warning:");
      // Told before the run exits, not left to a later process.
      expect(existsSync(got("pause")), first.stderr).toBe(true);
      expect(run(notified, "notified answer", ["answer", "n", "--approve"]).status).toBe(0);
      const resumed = run(notified, "notified resume", ["resume", "--run", "3", "--quiet"]);
      expect(resumed.status, resumed.stderr).toBe(0);
      const pause = JSON.parse(readFileSync(got("pause"), "utf8")) as Record<string, unknown>;
      expect(pause).toMatchObject({ event: "pause", run: 3, task_id: "n", iteration: 1 });
      expect(String(pause.answer_with)).toContain(
        `loopgate answer n ${name === "postgres" ? "--store" : "--db"} `,
      );
      expect(existsSync(got("finish")), resumed.stderr).toBe(true);
      const finish = JSON.parse(readFileSync(got("finish"), "utf8")) as Record<string, unknown>;
      expect(finish).toMatchObject({ event: "finish", run: 3, status: "finished" });
    });

    it("hook keeps its sessions in a SQLite journal only: LOOPGATE_STORE is refused with one line", () => {
      const store = flags()[1] ?? "";
      const refused = cli(["hook"], { LOOPGATE_STORE: store }, damaged.dir, "{}");
      expect([refused.status, refused.stdout]).toEqual([2, ""]);
      expect(refused.stderr).toMatch(/^error: hook does not read LOOPGATE_STORE yet .*\n$/);
      keep("hook refused", refused.stderr);
    });

    it("refuses a store it cannot open with exit 2 and one line, writing nothing", () => {
      const before = run(damaged, "damaged status before", ["status", "--all"]);
      expect(before.status, before.stderr).toBe(0);
      // SQLite: a file that is not a database; PostgreSQL: a server nobody listens on, and a URL
      // without a database.
      const bad = damaged.write("not-a-journal.db", "not a database\n");
      const unopenable =
        name === "sqlite"
          ? [["--db", bad]]
          : [
              ["--store", "postgres://loopgate@127.0.0.1:1/loopgate"],
              ["--store", "postgres://loopgate@127.0.0.1:1"],
            ];
      for (const store of unopenable) {
        for (const command of [
          ["run", damaged.taskFile, "--quiet"],
          ["answer", "d", "--approve"],
        ]) {
          const done = cli([...command, ...store], {}, damaged.dir);
          expect([done.status, done.stdout], done.stderr).toEqual([2, ""]);
          expect(done.stderr).toMatch(/^error: [^\n]+\n$/);
        }
      }
      expect(readFileSync(bad, "utf8")).toBe("not a database\n");
      expect(run(damaged, "damaged status after", ["status", "--all"]).masked).toBe(before.masked);
    });
  },
);
