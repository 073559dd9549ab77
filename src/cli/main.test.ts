import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorLine, runMain, type Run } from "./test-support/run-main.js";

const seed = (name: string) =>
  fileURLToPath(new URL(`../../examples/seed/${name}`, import.meta.url));

let folder = "";
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "loopgate-main-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function file(name: string, text: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, text, "utf8");
  return path;
}

/** Exit 2, nothing on stdout, and exactly this one line on stderr. */
function expectUsageError(run: Run, line: string | RegExp) {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  if (typeof line === "string") expect(errorLine(run)).toBe(line);
  else expect(errorLine(run)).toMatch(line);
}

describe("loopgate --help and --version", () => {
  it.each([["--help"], ["-h"], ["help"]])(
    "%s prints the overview on stdout, exit 0",
    async (flag) => {
      const run = await runMain([flag]);
      expect(run).toMatchObject({ code: 0, stderr: "" });
      expect(run.stdout).toMatch(/^loopgate — /);
      expect(run.stdout).toContain("Usage: loopgate <command>");
      for (const command of ["verdict", "decide"])
        expect(run.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
      expect(run.stdout).toContain("Exit codes:");
    },
  );

  it.each([["--version"], ["-v"]])("%s prints a version, exit 0", async (flag) => {
    const run = await runMain([flag]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?\n$/);
  });

  it.each([
    [
      "decide",
      "Usage: loopgate decide [FILE|-] [--config FILE] [--summarizer CMD] [--json]",
      "$ loopgate decide ",
    ],
    ["verdict", "Usage: loopgate verdict [FILE|-] [--json]", "| loopgate verdict"],
  ])("%s --help prints its usage and an example, exit 0", async (command, usage, example) => {
    for (const flag of ["--help", "-h"]) {
      const run = await runMain([command, flag]);
      expect(run).toMatchObject({ code: 0, stderr: "" });
      expect(run.stdout.startsWith(usage)).toBe(true);
      expect(run.stdout).toContain("Example:");
      expect(run.stdout).toContain(example);
      expect(run.stdout).toContain("--json");
      expect(run.stdout).toContain("Exit codes:");
    }
  });

  it("prints a command's help even after other arguments", async () => {
    const run = await runMain(["decide", "whatever.yaml", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: loopgate decide/);
  });
});

describe("invalid arguments: exit 2, one line on stderr, nothing on stdout", () => {
  it("no arguments at all", async () => {
    const run = await runMain([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("error: missing command (see loopgate --help)\n");
  });

  it("an unknown command", async () => {
    expectUsageError(
      await runMain(["frobnicate"]),
      'error: unknown command "frobnicate" (see loopgate --help)',
    );
  });

  it("an unknown command that looks like a flag", async () => {
    expectUsageError(
      await runMain(["--jsn"]),
      'error: unknown command "--jsn" (see loopgate --help)',
    );
  });

  it.each([
    [
      "decide",
      ["--frob"],
      /^error: decide: Unknown option '--frob'.*\(see loopgate decide --help\)$/,
    ],
    [
      "verdict",
      ["--config", "x.yaml"],
      /^error: verdict: Unknown option '--config'.*\(see loopgate verdict --help\)$/,
    ],
    ["verdict", ["-x"], /^error: verdict: Unknown option '-x'/],
    ["decide", ["--config"], /^error: decide: Option '--config <value>' argument missing/],
    ["decide", ["--json=yes"], /^error: decide: Option '--json' does not take an argument/],
    [
      "decide",
      ["a.yaml", "b.yaml"],
      'error: decide: unexpected argument "b.yaml" (see loopgate decide --help)',
    ],
    [
      "verdict",
      ["a.yaml", "-"],
      'error: verdict: unexpected argument "-" (see loopgate verdict --help)',
    ],
  ])("%s %j", async (command, args, line) => {
    expectUsageError(await runMain([command, ...args]), line);
  });

  it("a missing input file", async () => {
    const missing = join(folder, "missing.yaml");
    expectUsageError(
      await runMain(["verdict", missing]),
      `error: ${missing}: cannot read the file (ENOENT)`,
    );
  });

  it("a directory as the input file", async () => {
    expectUsageError(
      await runMain(["decide", folder]),
      `error: ${folder}: cannot read the file (EISDIR)`,
    );
  });

  it("a missing config file, even with a valid input", async () => {
    const missing = join(folder, "no-config.yaml");
    expectUsageError(
      await runMain(["decide", seed("iteration-check.yaml"), "--config", missing]),
      `error: ${missing}: cannot read the file (ENOENT)`,
    );
  });
});

describe("invalid input: exit 2, one line naming the field, nothing on stdout", () => {
  it("a misspelt budget_cap in decide", async () => {
    const path = await file(
      "budget-capp.yaml",
      "stop_conditions:\n  budget_capp: 4\niteration_check:\n  task_id: t\n  current_iteration: 1\n  test_result: {status: fail}\n  review_result: {status: pending}\n",
    );
    expectUsageError(
      await runMain(["decide", path]),
      'error: stop_conditions: unknown key "budget_capp" (did you mean "budget_cap"?)',
    );
  });

  it("a wrong type in verdict, with --json too", async () => {
    const path = await file(
      "string-iteration.json",
      '{"counters": {"iteration": "3"}, "policy": {"max_iterations": 3}}',
    );
    for (const flags of [[], ["--json"]]) {
      expectUsageError(
        await runMain(["verdict", path, ...flags]),
        'error: counters.iteration: expected an integer >= 0, got "3" (a string)',
      );
    }
  });

  it("an empty file", async () => {
    const path = await file("empty.yaml", "\n");
    expectUsageError(await runMain(["verdict", path]), `error: ${path}: the document is empty`);
  });

  it("a syntax error, reported on one line with its position", async () => {
    const path = await file(
      "broken.yaml",
      "counters: {iteration: 1\npolicy: {max_iterations: 3}\n",
    );
    expectUsageError(
      await runMain(["verdict", path]),
      new RegExp(
        `^error: ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not valid YAML or JSON at line 2, column 1: `,
      ),
    );
  });

  it("a malformed config file, named in the message", async () => {
    const config = await file("bad-config.yaml", "iteration_control:\n  feedback_max_len: 100\n");
    expectUsageError(
      await runMain(["decide", seed("iteration-check.yaml"), "--config", config]),
      'error: iteration_control: unknown key "feedback_max_len" (did you mean "feedback_max_length"?)',
    );
  });
});

describe("output", () => {
  it("verdict prints YAML by default", async () => {
    const run = await runMain(["verdict", seed("verdict.yaml")]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(parse(run.stdout)).toEqual({
      verdict: {
        stop: true,
        condition: "BUDGET_EXHAUSTED",
        fired: ["BUDGET_EXHAUSTED", "MAX_ITERATIONS"],
        reasons: {
          BUDGET_EXHAUSTED: "spend 4.2 reached budget_cap 4",
          MAX_ITERATIONS: "iteration 3 reached max_iterations 3",
        },
        headroom: { iterations_left: 0, budget_left: 0 },
      },
    });
  });

  it("verdict states CONTINUE when nothing fired", async () => {
    const run = await runMain(["verdict", seed("verdict-continue.yaml")]);
    expect(run.code).toBe(0);
    expect(parse(run.stdout)).toMatchObject({
      verdict: { stop: false, condition: "CONTINUE", fired: [], reasons: {} },
    });
  });

  it.each([
    ["verdict", "verdict.yaml"],
    ["verdict", "verdict-continue.yaml"],
    ["decide", "iteration-check.yaml"],
    ["decide", "escalation.yaml"],
    ["decide", "proceed.yaml"],
  ])("%s %s: --json prints the same document as YAML", async (command, name) => {
    const yaml = await runMain([command, seed(name)]);
    const json = await runMain([command, "--json", seed(name)]);
    expect(yaml).toMatchObject({ code: 0, stderr: "" });
    expect(json).toMatchObject({ code: 0, stderr: "" });
    expect(json.stdout).toMatch(/^\{\n {2}"/);
    expect(JSON.parse(json.stdout)).toEqual(parse(yaml.stdout));
  });

  it("decide --config: the config's settings apply under the document's own", async () => {
    const input = await file(
      "no-settings.yaml",
      "iteration_check:\n  task_id: t\n  current_iteration: 1\n  test_result: {status: fail, output: boom}\n  review_result: {status: pending}\n",
    );
    const config = await file(
      "no-retry.yaml",
      "iteration_control:\n  auto_retry_on_test_fail: false\n",
    );
    const plain = parse((await runMain(["decide", input])).stdout) as { decision: object };
    expect(plain.decision).toMatchObject({ action: "retry", reason: "TEST_FAILED", iteration: 2 });
    const configured = await runMain(["decide", input, "--config", config]);
    expect(configured).toMatchObject({ code: 0, stderr: "" });
    expect(parse(configured.stdout)).toMatchObject({
      decision: { action: "escalate", reason: "AUTO_RETRY_DISABLED", iteration: 1 },
    });
    const overridden = await file(
      "retry-on.yaml",
      "iteration_control: {auto_retry_on_test_fail: true}\n" +
        "iteration_check:\n  task_id: t\n  current_iteration: 1\n  test_result: {status: fail, output: boom}\n  review_result: {status: pending}\n",
    );
    const run = await runMain(["decide", "--config", config, overridden]);
    expect(parse(run.stdout)).toMatchObject({
      decision: { action: "retry", reason: "TEST_FAILED" },
    });
  });
});
