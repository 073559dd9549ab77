import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * Runs the built binary as a user would. `npm test` builds dist/ before vitest runs;
 * run `npm run build` first when running this file alone.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = join(root, "bin", "loopgate.js");

interface Result {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function loopgate(args: readonly string[], input?: string): Result {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    input: input ?? "",
    encoding: "utf8",
    timeout: 30_000,
  });
  if (result.error !== undefined) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const seed = (name: string) => join("examples", "seed", name);
const seedText = (name: string) => readFileSync(join(root, seed(name)), "utf8");

interface Retry {
  decision: {
    action: string;
    task_id: string;
    iteration: number;
    reason: string;
    fired: string[];
    feedback: { summary: string; actionable_items: string[]; priority: string };
  };
}

/** SPEC §3's seed example: attempt 2 of 3 failed its test, so retry attempt 3 with feedback. */
function expectSeedRetry(result: Result, decoded: unknown) {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  const { decision } = decoded as Retry;
  expect(decision).toMatchObject({
    action: "retry",
    task_id: "task-003",
    iteration: 3,
    reason: "TEST_FAILED",
    fired: [],
    feedback: { priority: "high" },
  });
  expect(decision.feedback.summary).toContain("userId");
  expect(
    decision.feedback.actionable_items.some((item) => item.includes("src/auth/login.test.ts")),
  ).toBe(true);
}

let folder = "";
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "loopgate-cli-"));
});
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe("the built CLI", () => {
  it("is built (npm run build) before this test runs", () => {
    expect(
      existsSync(join(root, "dist", "cli.cjs")),
      "dist/cli.cjs is missing: run npm run build",
    ).toBe(true);
  });

  it("--version prints the package's version", () => {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      version: string;
    };
    expect(loopgate(["--version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("--help and decide --help exit 0 and print on stdout", () => {
    const overview = loopgate(["--help"]);
    expect(overview.code).toBe(0);
    expect(overview.stdout).toContain("Usage: loopgate <command>");
    const help = loopgate(["decide", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Example:");
  });

  it("decide FILE: the seed's retry", () => {
    const result = loopgate(["decide", seed("iteration-check.yaml")]);
    expectSeedRetry(result, parse(result.stdout));
    expect(result.stdout).toMatch(/^decision:\n {2}action: retry\n/);
  });

  it("decide - reads standard input", () => {
    const result = loopgate(["decide", "-"], seedText("iteration-check.yaml"));
    expectSeedRetry(result, parse(result.stdout));
  });

  it("decide with no FILE reads standard input", () => {
    const result = loopgate(["decide"], seedText("iteration-check.yaml"));
    expectSeedRetry(result, parse(result.stdout));
  });

  it("decide --json prints JSON with the same keys", () => {
    const json = loopgate(["decide", "--json", seed("iteration-check.yaml")]);
    const decoded: unknown = JSON.parse(json.stdout);
    expectSeedRetry(json, decoded);
    expect(decoded).toEqual(parse(loopgate(["decide", seed("iteration-check.yaml")]).stdout));
  });

  it("decide reads a JSON document from standard input", () => {
    const document = JSON.stringify(parse(seedText("iteration-check.yaml")));
    const result = loopgate(["decide", "-", "--json"], document);
    expectSeedRetry(result, JSON.parse(result.stdout));
  });

  it("verdict FILE: SPEC §2's example, the budget decides", () => {
    const result = loopgate(["verdict", seed("verdict.yaml")]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    const { verdict } = parse(result.stdout) as {
      verdict: {
        stop: boolean;
        condition: string;
        fired: string[];
        reasons: Record<string, string>;
      };
    };
    expect(verdict).toMatchObject({
      stop: true,
      condition: "BUDGET_EXHAUSTED",
      fired: ["BUDGET_EXHAUSTED", "MAX_ITERATIONS"],
    });
    expect(Object.keys(verdict.reasons)).toEqual(["BUDGET_EXHAUSTED", "MAX_ITERATIONS"]);
    expect(verdict.reasons["BUDGET_EXHAUSTED"]).toContain("budget_cap 4");
    expect(verdict.reasons["MAX_ITERATIONS"]).toContain("max_iterations 3");
  });

  it("verdict reads standard input too", () => {
    const result = loopgate(["verdict", "--json"], seedText("verdict.yaml"));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(
      parse(loopgate(["verdict", seed("verdict.yaml")]).stdout),
    );
  });

  it("decide --config: the config file's settings apply where the document is silent", () => {
    const input = join(folder, "input.yaml");
    writeFileSync(
      input,
      "iteration_check:\n  task_id: task-9\n  current_iteration: 2\n  test_result: {status: fail, output: boom}\n  review_result: {status: pending}\n",
    );
    const config = join(folder, "config.yaml");
    writeFileSync(config, "iteration_control:\n  max_iterations: 2\n");
    const without = parse(loopgate(["decide", input]).stdout) as Retry;
    expect(without.decision).toMatchObject({ action: "retry", iteration: 3 });
    const result = loopgate(["decide", input, "--config", config]);
    expect(result.code).toBe(0);
    expect(parse(result.stdout)).toMatchObject({
      decision: {
        action: "escalate",
        reason: "MAX_ITERATIONS",
        iteration: 2,
        fired: ["MAX_ITERATIONS"],
      },
    });
  });

  it("decide: a misspelt budget_cap is an error, not an uncapped budget", () => {
    const input = [
      "stop_conditions:",
      "  budget_capp: 4",
      "iteration_check:",
      "  task_id: task-003",
      "  current_iteration: 1",
      "  spend: 10",
      "  test_result: {status: fail}",
      "  review_result: {status: pending}",
      "",
    ].join("\n");
    expect(loopgate(["decide", "-"], input)).toEqual({
      code: 2,
      stdout: "",
      stderr: 'error: stop_conditions: unknown key "budget_capp" (did you mean "budget_cap"?)\n',
    });
  });

  it("a missing file exits 2 with one line", () => {
    expect(loopgate(["decide", "no/such/file.yaml"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: no/such/file.yaml: cannot read the file (ENOENT)\n",
    });
  });

  it("an unknown command and an unknown flag exit 2 with one line", () => {
    const command = loopgate(["decied"]);
    expect(command).toEqual({
      code: 2,
      stdout: "",
      stderr: 'error: unknown command "decied" (see loopgate --help)\n',
    });
    const flag = loopgate(["verdict", "--yaml", seed("verdict.yaml")]);
    expect(flag.code).toBe(2);
    expect(flag.stdout).toBe("");
    expect(flag.stderr).toMatch(/^error: verdict: Unknown option '--yaml'[^\n]*\n$/);
  });

  it("empty standard input exits 2", () => {
    expect(loopgate(["verdict", "-"], "")).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: stdin: the document is empty\n",
    });
  });

  it("decide: the seed's escalation after attempt 3 of 3", () => {
    const result = loopgate(["decide", seed("escalation.yaml")]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    const { decision } = parse(result.stdout) as {
      decision: {
        action: string;
        iteration: number;
        reason: string;
        fired: string[];
        context: { attempts_summary: string; pattern_detected: string | null; diff?: string };
        question: string;
      };
    };
    expect(decision).toMatchObject({
      action: "escalate",
      task_id: "task-003",
      iteration: 3,
      reason: "MAX_ITERATIONS",
      fired: ["MAX_ITERATIONS"],
    });
    const lines = decision.context.attempts_summary.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    lines.forEach((line, index) => expect(line).toMatch(new RegExp(`^Iteration ${index + 1}: `)));
    expect(decision.question).toMatch(/^1\. /m);
    expect(decision.question).toMatch(/^2\. /m);
    expect(decision.context.diff).toContain("src/auth/login.ts");
  });
});
