import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SpawnSyncReturns } from "node:child_process";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasUnprintable } from "../core/printable.js";
import { cli, requireBuild } from "../runner/test-support/built-cli.js";

/** Sets the terminal's title (OSC 0), then a C1 CSI, a line rewrite and a bidi override. */
const TITLE = "\u001b]0;pwned\u0007";
const PAYLOAD = `${TITLE}x\u009b31m\u009d0;c1\u0007\r\u001b[2Kfake\u202eevil\u2028`;
const ANSWER = `use numbers ${PAYLOAD}`;
const BY = `mallory${TITLE}`;

let folder = "";
let project = "";
let db = "";
beforeAll(() => {
  requireBuild();
  folder = mkdtempSync(join(tmpdir(), "loopgate-terminal-"));
  // A file name can hold escapes too: `status` and `history` print the task file's path.
  project = join(folder, `project${TITLE}`);
  mkdirSync(project);
  db = join(folder, "journal.db");
  const failing = `process.stdout.write(${JSON.stringify(`FAIL ${PAYLOAD}\nError: ${PAYLOAD}\n`)}); process.exit(1)`;
  writeFileSync(
    join(project, "tasks.json"),
    JSON.stringify({
      iteration_control: { max_iterations: 1 },
      steps: {
        generate: { command: ["node", "-e", "0"] },
        test: { command: ["node", "-e", failing] },
      },
      tasks: [{ id: "t1", prompt: `prompt ${PAYLOAD}` }],
    }),
  );
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Nothing a terminal acts on, in either stream. */
function expectPrintable(run: SpawnSyncReturns<string>) {
  for (const [name, text] of [
    ["stdout", run.stdout],
    ["stderr", run.stderr],
  ] as const) {
    expect(hasUnprintable(text), `${name}: ${JSON.stringify(text.slice(0, 400))}`).toBe(false);
  }
}

describe("what loopgate prints holds no control character or escape sequence", () => {
  it("run: progress, the paused task's question and the summary table", () => {
    const run = cli(["run", join(project, "tasks.json"), "--db", db], {}, folder);
    expect(run.status).toBe(3);
    expectPrintable(run);
  });

  it("answer: the echo of the recorded answer", () => {
    const run = cli(["answer", "t1", "--text", ANSWER, "--by", BY, "--db", db], {}, folder);
    expect(run.status).toBe(0);
    expectPrintable(run);
  });

  it.each(
    [["history"], ["history", "t1"], ["status"], ["explain", "t1"], ["resume", "--quiet"]].map(
      (args) => [args.join(" "), args] as const,
    ),
  )("%s", (_name, args) => {
    const run = cli([...args, "--db", db], {}, folder);
    expect(run.status === 0 || run.status === 3).toBe(true);
    expectPrintable(run);
  });

  it("history shows the answer and who gave it as visible escapes", () => {
    const run = cli(["history", "t1", "--db", db], {}, folder);
    expect(run.stdout).toContain("use numbers \\u001b]0;pwned\\u0007x\\u009b31m");
    expect(run.stdout).toContain("(by mallory\\u001b]0;pwned\\u0007)");
  });

  it.each(
    [
      ["history", "--json"],
      ["status", "--json"],
      ["explain", "t1", "--json"],
      ["export", "--jsonl"],
    ].map((args) => [args.join(" "), args] as const),
  )("%s escapes C1 controls and U+2028 too, and keeps the values", (_name, args) => {
    const run = cli([...args, "--db", db], {}, folder);
    expect(run.status).toBe(0);
    expectPrintable(run);
    const documents =
      args[0] === "export"
        ? run.stdout
            .trimEnd()
            .split("\n")
            .map((line) => JSON.parse(line) as unknown)
        : [JSON.parse(run.stdout) as unknown];
    if (args[0] === "history" || args[0] === "export") {
      expect(JSON.stringify(documents)).toContain(JSON.stringify(ANSWER).slice(1, -1));
    }
  });

  it.each(["yaml", "json"])("decide prints %s that reads back as the same strings", (format) => {
    const document = {
      iteration_check: {
        task_id: "t1",
        current_iteration: 1,
        max_iterations: 1,
        test_result: { status: "pass", output: "" },
        review_result: { status: "pending", feedback: "" },
        approval: { decision: "approve", by: BY, note: ANSWER },
      },
    };
    const run = cli(
      ["decide", ...(format === "json" ? ["--json"] : [])],
      {},
      folder,
      JSON.stringify(document),
    );
    expect(run.status).toBe(0);
    expectPrintable(run);
    const printed = format === "json" ? (JSON.parse(run.stdout) as unknown) : parse(run.stdout);
    expect(JSON.stringify(printed)).toContain(JSON.stringify(BY).slice(1, -1));
  });

  it("an error line quotes a hostile value as visible escapes", () => {
    const run = cli(["verdict"], {}, folder, JSON.stringify({ counters: { iteration: PAYLOAD } }));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^error: counters\.iteration: expected an integer >= 0, got "/);
    expectPrintable(run);
  });

  it("feedback on a log full of escape sequences", () => {
    const run = cli(["feedback"], {}, folder, `FAIL ${PAYLOAD}\nError: ${PAYLOAD}\n`.repeat(3));
    expect(run.status).toBe(0);
    expectPrintable(run);
  });
});
