import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SpawnSyncReturns } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "../runner/test-support/built-cli.js";
import { DEFAULT_MAX_INPUT_BYTES } from "./input-limit.js";

let folder = "";
beforeAll(() => {
  requireBuild();
  folder = mkdtempSync(join(tmpdir(), "loopgate-limit-"));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

/** Exit 2, nothing on stdout, one `error:` line on stderr matching `line`. */
function expectRefused(run: SpawnSyncReturns<string>, line: RegExp) {
  expect(run.status).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr.split("\n")).toHaveLength(2);
  expect(run.stderr).toMatch(line);
}

const VERDICT = "counters: {iteration: 1}\npolicy: {max_iterations: 3}\n";
const TASKS = `steps:\n  generate: {command: [node, -e, "0"]}\ntasks:\n  - {id: t1, prompt: hi}\n`;

describe("documents over --max-input-bytes are refused before they are parsed", () => {
  it("refuses a file from its size, naming the file, its size and the limit", () => {
    const path = file("verdict.yaml", `${VERDICT}# ${"x".repeat(200)}\n`);
    const run = cli(["verdict", path, "--max-input-bytes", "100"]);
    expectRefused(
      run,
      /^error: .*verdict\.yaml: the document is \d+ bytes, over the limit of 100 bytes \(--max-input-bytes\)\n$/,
    );
  });

  it("reads a document of exactly the limit", () => {
    const path = file("exact.yaml", VERDICT);
    const run = cli(["verdict", path, "--max-input-bytes", String(Buffer.byteLength(VERDICT))]);
    expect(run.status).toBe(0);
  });

  it("refuses standard input once it passes the limit, without reading it all", () => {
    const run = cli(["verdict", "--max-input-bytes", "64"], {}, undefined, VERDICT.repeat(10));
    expectRefused(run, /^error: stdin: the document is over the limit of 64 bytes/);
  });

  it(`refuses a document over ${DEFAULT_MAX_INPUT_BYTES} bytes (16 MiB) by default`, () => {
    const path = file("huge.yaml", `${VERDICT}#${"x".repeat(DEFAULT_MAX_INPUT_BYTES)}\n`);
    expectRefused(cli(["verdict", path]), /over the limit of 16777216 bytes/);
    expectRefused(cli(["decide", path]), /over the limit of 16777216 bytes/);
  });

  it("applies to decide's --config file", () => {
    const config = file(
      "config.yaml",
      `iteration_control: {max_iterations: 3}\n#${"x".repeat(300)}\n`,
    );
    const run = cli(
      ["decide", "--config", config, "--max-input-bytes", "200"],
      {},
      undefined,
      "{}",
    );
    expectRefused(run, /config\.yaml: the document is \d+ bytes, over the limit of 200 bytes/);
  });

  it("applies to run's task file and answers file, and leaves no journal behind", () => {
    const db = join(folder, "journal.db");
    const tasks = file("tasks.yaml", `${TASKS}#${"x".repeat(300)}\n`);
    expectRefused(
      cli(["run", tasks, "--db", db, "--max-input-bytes", "200"]),
      /tasks\.yaml: the document is \d+ bytes, over the limit of 200 bytes/,
    );
    const small = file("small-tasks.yaml", TASKS);
    const answers = file("answers.yaml", `answers: {t1: {option: 1}}\n#${"x".repeat(300)}\n`);
    expectRefused(
      cli(["run", small, "--db", db, "--answers", answers, "--max-input-bytes", "200"]),
      /answers\.yaml: the document is \d+ bytes, over the limit of 200 bytes/,
    );
    expectRefused(
      cli(["resume", "--db", db, "--answers", answers, "--max-input-bytes", "200"]),
      /answers\.yaml: the document is \d+ bytes/,
    );
    expect(existsSync(db)).toBe(false);
  });

  it("refuses a bad answers file before a run is journaled", () => {
    const db = join(folder, "bad-answers.db");
    const tasks = file("tasks-2.yaml", TASKS);
    const answers = file("bad-answers.yaml", "answers: {t1: {option: 0}}\n");
    expectRefused(
      cli(["run", tasks, "--db", db, "--answers", answers]),
      /^error: answers\.t1: expected an answer or a list of answers, got a mapping\n$/,
    );
    expect(existsSync(db)).toBe(false);
  });

  it("applies to a review, a document; a test log is a stream of any size", () => {
    const log = file("big.log", `${"FAIL something went wrong\n".repeat(100)}`);
    expectRefused(
      cli(["feedback", log, "--kind", "review", "--max-input-bytes", "1000"]),
      /big\.log: the document is over the limit of 1000 bytes/,
    );
    expect(cli(["feedback", log, "--max-input-bytes", "1000"]).status).toBe(0);
  });

  it.each(["0", "-1", "1.5", "lots", "1e9", ""])("refuses --max-input-bytes %j", (value) => {
    expectRefused(
      cli(["verdict", `--max-input-bytes=${value}`], {}, undefined, VERDICT),
      /^error: verdict: --max-input-bytes expects a positive integer \(bytes\), got /,
    );
  });
});
