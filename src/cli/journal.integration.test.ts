import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild, ROOT } from "../runner/test-support/built-cli.js";
import { flipBytes } from "../runner/test-support/damage.js";
import { fixtureProject, type Fixture } from "../runner/test-support/fixture-project.js";

// The journal's own safety through the built CLI: a foreign, empty, missing, damaged, read-only
// or tampered journal is named in one line with its exit code, never used, never changed.

beforeAll(requireBuild);

type Result = ReturnType<typeof cli>;

/** Exit `code`, nothing on stdout, and one `error:` line on stderr matching `line`. */
function expectRefused(result: Result, code: number, line: RegExp) {
  expect({ status: result.status, stdout: result.stdout }).toEqual({ status: code, stdout: "" });
  expect(result.stderr).toMatch(/^error: [^\n]*\n$/);
  expect(result.stderr).toMatch(line);
}

/** Every command that opens a journal, reading or writing, on `db`. */
function everyCommand(fixture: Fixture, db: string): string[][] {
  return [
    ["status"],
    ["history"],
    ["export", "--jsonl"],
    ["explain", "task-1"],
    ["diff", "task-1"],
    ["doctor"],
    ["run", fixture.taskFile, "--quiet"],
    ["resume", "--quiet"],
    ["answer", "task-1", "--text", "go on"],
  ].map((args) => [...args, "--db", db]);
}

/** A finished run of the fixture project (quick tasks) in its journal. */
function runTo(fixture: Fixture, ...more: string[]): Result {
  return cli(["run", fixture.taskFile, "--db", fixture.db, "--quiet", ...more]);
}

describe("a journal that is not loopgate's (built CLI)", () => {
  it("refuses another application's SQLite database in every command, and leaves it as it was", () => {
    const fixture = fixtureProject();
    const app = join(fixture.dir, "app.db");
    const db = new Database(app);
    db.exec(
      "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users VALUES (1, 'ann');",
    );
    db.close();
    const before = readFileSync(app);
    for (const args of everyCommand(fixture, app)) {
      expectRefused(
        cli(args),
        2,
        /app\.db is an SQLite database but not a loopgate journal \(its tables are "users"\)/,
      );
    }
    expect(readFileSync(app).equals(before)).toBe(true);
    // Still in its own journal mode: no write-ahead log was switched on or left beside it.
    expect(readdirSync(fixture.dir).filter((name) => name.startsWith("app.db"))).toEqual([
      "app.db",
    ]);
  });

  it("refuses an empty file, unless loopgate makes the journal itself", () => {
    const fixture = fixtureProject({ tasks: ["quick"] });
    const empty = join(fixture.dir, "empty.db");
    writeFileSync(empty, "");
    for (const args of everyCommand(fixture, empty)) {
      expectRefused(cli(args), 2, /empty\.db is an empty file, not a loopgate journal/);
    }
    expect(readFileSync(empty, "utf8")).toBe("");
    expect(runTo(fixture).status).toBe(0);
  });

  it("reading commands on a missing journal say so and create nothing", () => {
    const fixture = fixtureProject();
    const missing = join(fixture.dir, "nothing", "journal.db");
    for (const args of [
      ["status"],
      ["history"],
      ["export", "--jsonl"],
      ["explain", "task-1"],
      ["diff", "task-1"],
      ["doctor"],
    ]) {
      expectRefused(
        cli([...args, "--db", missing]),
        2,
        /^error: no journal at .*nothing\/journal\.db/,
      );
      // Nor the default one, .loopgate/journal.db in the current directory.
      expectRefused(
        cli(args, {}, fixture.dir),
        2,
        /no journal found: no \.loopgate\/journal\.db in /,
      );
    }
    expect(existsSync(join(fixture.dir, "nothing"))).toBe(false);
    expect(existsSync(join(fixture.dir, ".loopgate"))).toBe(false);
  });
});

describe("a damaged journal (built CLI)", () => {
  /** Two finished runs of one task each; run 1's last decision has ten flipped bytes. */
  function damaged() {
    const fixture = fixtureProject({ passFrom: 2, tasks: ["first"] });
    expect(runTo(fixture).status).toBe(0);
    const second = fixture.write(
      "second.yaml",
      readFileSync(fixture.taskFile, "utf8").replace("id: first", "id: second"),
    );
    expect(cli(["run", second, "--db", fixture.db, "--quiet"]).status).toBe(0);
    const events = cli(["export", "--jsonl", "--db", fixture.db]).stdout.trim().split("\n");
    flipBytes(fixture.db, String.raw`[\"first\",2,\"decision\"`);
    return { fixture, events };
  }

  it("names the damaged event, and keeps every other run readable (status --all, history, export: exit 5)", () => {
    const { fixture, events } = damaged();
    const db = ["--db", fixture.db];
    const named =
      /^error: run 1 is damaged: event \d+ \(decision-recorded of task "first"\): it does not match its checksum \(skipped\)\n$/;
    // Plain status reads the latest run only: the damage in run 1 is not in what it shows.
    expect(cli(["status", ...db])).toMatchObject({ status: 0, stderr: "" });
    const status = cli(["status", "--all", ...db]);
    expect(status.status).toBe(5);
    expect(status.stderr).toMatch(named);
    expect(status.stdout).toMatch(/^2 .*second:proceeded/m);
    expect(status.stdout).not.toMatch(/first:/);
    const exported = cli(["export", "--jsonl", ...db]);
    expect(exported.status).toBe(5);
    expect(exported.stderr).toMatch(named);
    expect(exported.stdout.trim().split("\n")).toHaveLength(events.length - 1);
    // A task's history reads the runs that have its events only, through the task index.
    expect(cli(["history", "second", ...db])).toMatchObject({ status: 0, stderr: "" });
    // Run 3 runs "first" again: looking for it in every run, history and explain skip the
    // damaged run 1 and say so.
    expect(runTo(fixture, "--new").status).toBe(0);
    const history = cli(["history", "first", ...db]);
    expect(history.status).toBe(5);
    expect(history.stderr).toMatch(named);
    expect(history.stdout).toMatch(/^run 3 /m);
    expect(history.stdout).not.toMatch(/^run 1 /m);
    expect(cli(["history", "--run", "2", ...db]).status).toBe(0);
    const explain = cli(["explain", "first", ...db]);
    expect(explain.status).toBe(5);
    expect(explain.stdout).toMatch(/^first attempt 2 \(run 3\): proceed/);
  });

  it("refuses, with one line naming it, to show, explain or resume the damaged run; doctor names it", () => {
    const { fixture } = damaged();
    const db = ["--db", fixture.db];
    const named =
      /^error: run 1 is damaged: event \d+ \(decision-recorded of task "first"\): it does not match its checksum\n$/;
    for (const args of [
      ["history", "--run", "1"],
      ["explain", "first"],
      ["resume", "--run", "1", "--quiet"],
    ]) {
      const result = cli([...args, ...db]);
      expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 5, stdout: "" });
      expect(result.stderr).toMatch(named);
    }
    const doctor = cli(["doctor", ...db]);
    expect(doctor.status).toBe(5);
    expect(doctor.stdout).toMatch(/^integrity ok /m);
    expect(doctor.stdout).toMatch(
      /^damaged {3}run 1 is damaged: event \d+ \(decision-recorded of task "first"\)/m,
    );
    expect(doctor.stdout).toMatch(/^state {5}damaged/m);
    expect(JSON.parse(cli(["doctor", "--json", ...db]).stdout)).toMatchObject({
      healthy: false,
      runs: 2,
      schema_version: "3",
    });
  });

  it("refuses to write to a journal failing SQLite's integrity check, and leaves it as it was", () => {
    const fixture = fixtureProject({ tasks: ["quick"] });
    expect(runTo(fixture).status).toBe(0);
    const probe = new Database(fixture.db, { readonly: true });
    const page = probe
      .prepare("SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' LIMIT 1")
      .pluck()
      .get() as number;
    probe.close();
    const bytes = readFileSync(fixture.db);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0x7f, (page - 1) * pageSize, (page - 1) * pageSize + 12);
    writeFileSync(fixture.db, bytes);
    for (const args of [
      ["run", fixture.taskFile, "--quiet"],
      ["resume", "--quiet"],
    ]) {
      expectRefused(
        cli([...args, "--db", fixture.db]),
        5,
        /fails SQLite's integrity check \(.*\); nothing was written to it/,
      );
    }
    expect(readFileSync(fixture.db).equals(bytes)).toBe(true);
    const doctor = cli(["doctor", "--db", fixture.db]);
    expect(doctor.status).toBe(5);
    expect(doctor.stdout).not.toMatch(/^integrity ok/m);
  });
});

describe("a read-only journal (built CLI)", () => {
  it("is read by status, history, export, explain and doctor, and refused by run in one line", () => {
    const fixture = fixtureProject({ passFrom: 2 });
    expect(runTo(fixture).status).toBe(0);
    // As root, permissions do not bind: read as nobody, for whom the directory is read-only.
    const asRoot = process.getuid?.() === 0;
    for (const dir of [fixture.dir, join(fixture.dir, ".loopgate")])
      chmodSync(dir, asRoot ? 0o755 : 0o555);
    chmodSync(fixture.db, asRoot ? 0o644 : 0o444);
    const before = readdirSync(join(fixture.dir, ".loopgate")).sort();
    const reader = (args: readonly string[]) =>
      spawnSync(process.execPath, [join(ROOT, "bin/loopgate.js"), ...args, "--db", fixture.db], {
        cwd: fixture.dir,
        env: { ...process.env, NO_COLOR: "1" },
        encoding: "utf8",
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
    try {
      for (const args of [
        ["status"],
        ["history", "task-1"],
        ["export", "--jsonl"],
        ["explain", "task-1"],
        ["doctor"],
      ]) {
        const result = reader(args);
        expect({ args, status: result.status, stderr: result.stderr }).toEqual({
          args,
          status: 0,
          stderr: "",
        });
        expect(result.stdout).toMatch(/task-1|healthy/);
      }
      expectRefused(
        reader(["run", fixture.taskFile, "--quiet"]),
        2,
        /journal\.db cannot be written here \(EACCES on .*\): run, resume and answer write to the journal/,
      );
      expect(readdirSync(join(fixture.dir, ".loopgate")).sort()).toEqual(before);
    } finally {
      for (const dir of [fixture.dir, join(fixture.dir, ".loopgate")]) chmodSync(dir, 0o755);
    }
  });
});

describe("a journal changed under the runner (built CLI)", () => {
  // Found when the step's start is journaled, or once it ended, whichever comes first.
  it.each([
    [
      "truncates",
      ': > "$J"',
      // The size check, or a read of the runner's racing the step's truncation: both name it.
      /journal\.db (shrank from \d+ to 0 bytes|cannot be read back \(.* is an empty file, .*\)) while task-1's (test step|step-started)/,
    ],
    ["deletes", 'rm -f "$J"', /journal\.db was removed while task-1's (test step|step-started)/],
    [
      "replaces",
      'cp "$J" "$J.copy" && mv "$J.copy" "$J"',
      /journal\.db was replaced while task-1's (test step|step-started)/,
    ],
    [
      "truncates the write-ahead log of",
      ': > "$J-wal"',
      // A cut made while the runner journals the step's start is regrown by SQLite's own write.
      /write-ahead log .*journal\.db-wal (shrank|lost its header)/,
    ],
    [
      // From its first byte: frames further in may hold only pages later frames supersede, which
      // SQLite never reads again, so whether such damage shows depended on the timing (a CI run
      // under load went on through three attempts with nothing lost). The header always shows.
      "overwrites the write-ahead log of",
      'dd if=/dev/urandom of="$J-wal" bs=4096 count=2 conv=notrunc 2>/dev/null',
      /journal\.db.* while task-1's (test step|step-started)/,
    ],
  ])("stops the run when a step %s the journal (exit 5, one line)", (_what, damage, line) => {
    const fixture = fixtureProject();
    mkdirSync(join(fixture.dir, ".loopgate"), { recursive: true });
    const taskFile = fixture.write(
      "tamper.yaml",
      `steps:\n  generate: { command: "echo writing" }\n  test: { command: ${JSON.stringify(`J='${fixture.db}'; ${damage}; exit 1`)} }\ntasks:\n  - { id: task-1, prompt: p }\n`,
    );
    const result = cli(["run", taskFile, "--db", fixture.db, "--quiet"]);
    expectRefused(result, 5, line);
    expect(result.stderr).toMatch(/the run stops and writes nothing more to it/);
  });
});
