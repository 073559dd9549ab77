import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";

/*
 * Runs the built binary as a user would. `npm test` builds dist/ before vitest runs;
 * run `npm run build` first when running this file alone.
 */

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = join(root, "bin", "loopgate.js");
const dir = mkdtempSync(join(tmpdir(), "loopgate-feedback-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function loopgate(args: readonly string[], input?: string | Buffer) {
  const result = spawnSync(process.execPath, [bin, "feedback", ...args], {
    cwd: root,
    input: input ?? "",
    encoding: "utf8",
    timeout: 30_000,
  });
  if (result.error !== undefined) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const VITEST_LOG = [
  " RUN  v4.1.12 /work/project",
  ...Array.from({ length: 3000 }, (_, index) => ` ✓ src/ok-${index}.test.ts > works (1ms)`),
  " FAIL  src/cart.test.ts > cart > total > sums prices",
  "AssertionError: expected 9 to be 8.9 // Object.is equality",
  "",
  "- Expected",
  "+ Received",
  "",
  "- 8.9",
  "+ 9",
  "",
  " ❯ src/cart.test.ts:9:23",
  ...Array.from({ length: 3000 }, (_, index) => ` ✓ src/more-${index}.test.ts > works (1ms)`),
  " Test Files  1 failed | 6000 passed (6001)",
  "",
].join("\n");

interface Printed {
  feedback: {
    summary: string;
    actionable_items: string[];
    priority: string;
    failures: {
      test: string | null;
      file: string | null;
      line: number | null;
      expected: string | null;
      received: string | null;
      message: string;
    }[];
    runner: string | null;
  };
}

describe("loopgate feedback (built binary)", () => {
  const file = join(dir, "vitest.log");
  writeFileSync(file, VITEST_LOG);

  it("prints YAML feedback for a log FILE, with the buried failure's facts", () => {
    const result = loopgate([file]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    const { feedback } = parse(result.stdout) as Printed;
    expect(Object.keys(feedback)).toEqual([
      "summary",
      "actionable_items",
      "priority",
      "failures",
      "runner",
    ]);
    expect(feedback.summary).toContain("want 8.9, got 9");
    expect(feedback.priority).toBe("high");
    expect(feedback.failures[0]).toMatchObject({
      file: "src/cart.test.ts",
      line: 9,
      expected: "8.9",
      received: "9",
    });
  });

  it("prints the same keys as JSON from standard input, with - or no FILE", () => {
    const fromFile = JSON.parse(loopgate([file, "--json"]).stdout) as Printed;
    for (const args of [["-", "--json"], ["--json"]]) {
      const result = loopgate(args, VITEST_LOG);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(fromFile);
    }
  });

  it("fits summary and items into --max-length", () => {
    const { feedback } = JSON.parse(
      loopgate([file, "--json", "--max-length", "80"]).stdout,
    ) as Printed;
    const length =
      [...feedback.summary].length +
      feedback.actionable_items.reduce((sum, item) => sum + [...item].length, 0);
    expect(length).toBeLessThanOrEqual(80);
  });

  it("redacts credentials in the log", () => {
    const log = `Error: request failed with Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789\n`;
    const result = loopgate(["--json"], log);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("abcdefghijklmnopqrstuvwxyz0123456789");
    expect(result.stdout).toContain("[REDACTED:");
  });

  it("reads hostile bytes (NUL, invalid UTF-8, a 2 MB line) without error", () => {
    const bytes = Buffer.concat([
      Buffer.from("x".repeat(2 * 1024 * 1024)),
      Buffer.from([0x00, 0xff, 0xfe, 0x0a]),
      Buffer.from("Error: something broke\n"),
    ]);
    const result = loopgate(["--json"], bytes);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Printed).feedback.summary).toContain("something broke");
  });

  it("reads a review with --kind review", () => {
    const result = loopgate(
      ["--kind", "review", "--json"],
      "issue (blocking): src/a.ts:3 leaks the key\n",
    );
    expect(result.code).toBe(0);
    const { feedback } = JSON.parse(result.stdout) as Printed;
    expect(feedback).toMatchObject({ priority: "high", failures: [], runner: null });
    expect(feedback.summary).toBe("Review rejected: 1 point (1 high)");
    expect(feedback.actionable_items[0]).toContain("leaks the key");
  });

  it("writes paths under --root DIR (default: the current directory) relative to it", () => {
    const project = mkdtempSync(join(dir, "project-"));
    const log = [
      "  1) cart",
      "       sums prices:",
      "     AssertionError: expected 3 to equal 4",
      `      at Context.<anonymous> (${project}/cart.spec.js:6:12)`,
      "",
    ].join("\n");
    const printed = (args: readonly string[]): Printed =>
      JSON.parse(loopgate(["--json", ...args], log).stdout) as Printed;
    expect(printed(["--root", project]).feedback.failures[0]?.file).toBe("cart.spec.js");
    expect(printed([]).feedback.failures[0]?.file).toBe(`${project}/cart.spec.js`);
    const inProject = spawnSync(process.execPath, [bin, "feedback", "--json"], {
      cwd: project,
      input: log,
      encoding: "utf8",
    });
    expect((JSON.parse(inProject.stdout) as Printed).feedback.failures[0]?.file).toBe(
      "cart.spec.js",
    );
  });

  it("reads --report files first and the log for what they lack, or the reports alone", () => {
    const report = join(dir, "junit.xml");
    writeFileSync(
      report,
      `<testsuite name="cart" tests="2" failures="1"><testcase name="sums prices" file="test/cart.test.js" line="4"><failure message="expected 3 to equal 4">AssertionError: expected 3 to equal 4</failure></testcase></testsuite>`,
    );
    const log = "Error: Cannot find module './missing'\n    at test/boot.test.js:1:1\n";
    const both = JSON.parse(loopgate(["--report", report, "--json"], log).stdout) as Printed;
    expect(both.feedback.failures.map((failure) => failure.test)).toEqual([
      "cart > sums prices",
      null,
    ]);
    expect(both.feedback.failures[1]?.message).toContain("Cannot find module './missing'");
    const alone = loopgate(["--report", report, "--json"]);
    expect(alone.code).toBe(0);
    expect((JSON.parse(alone.stdout) as Printed).feedback.failures[0]?.line).toBe(4);
    const missing = loopgate(["--report", join(dir, "nope.xml")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("nope.xml: cannot read the report (ENOENT)");
  });

  it("forces the general extractor with --runner generic", () => {
    const result = loopgate([file, "--runner", "generic", "--json"]);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Printed).feedback.runner).toBe("generic");
  });

  it.each([
    [["--max-length", "0"], '--max-length must be an integer >= 1, got "0"'],
    [["--max-length", "1.5"], '--max-length must be an integer >= 1, got "1.5"'],
    [["--max-length", "ten"], '--max-length must be an integer >= 1, got "ten"'],
    [["--kind", "lint"], '--kind must be test or review, got "lint"'],
    [["--runner", "nope"], 'unknown --runner "nope" (known: jest, vitest'],
    [["--root", "/no/such/dir"], '--root must be a directory, got "/no/such/dir"'],
    [["--unknown"], "--unknown"],
    [["a", "b"], 'unexpected argument "b"'],
  ])("exits 2 on invalid arguments %j, naming them, with nothing on stdout", (args, message) => {
    const result = loopgate(args, "Error: x\n");
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("spends a tight cap on what fixes: a shared kind of check said once, a cause's tests named", () => {
    const thrown = (test: string, line: number): string[] => [
      ` FAIL  test/cart.test.ts > cart > ${test}`,
      "TypeError: items.push is not a function",
      " ❯ addItem src/cart.ts:5:11",
      ` ❯ test/cart.test.ts:${line}:5`,
      "",
    ];
    const checked = (test: string, line: number, expected: string, received: string): string[] => [
      ` FAIL  test/price.test.ts > price > ${test}`,
      `AssertionError: expected ${received} to be ${expected} // Object.is equality`,
      ` ❯ test/price.test.ts:${line}:20`,
      "",
    ];
    const log = [
      ...thrown("adds an item", 8),
      ...thrown("removes an item", 14),
      ...checked("rounds down", 4, "2", "3"),
      ...checked("rounds up", 9, "5", "4"),
      ...checked("rounds half up", 14, "3", "2"),
      " Test Files  2 failed (2)",
      "      Tests  5 failed (5)",
    ].join("\n");
    const logFile = join(dir, "tight.log");
    writeFileSync(logFile, log);
    const result = loopgate([logFile, "--max-length", "380", "--json"]);
    expect(result.code).toBe(0);
    const { feedback } = JSON.parse(result.stdout) as Printed;
    // The kind the three price checks share is in the summary once; their items need not repeat
    // it (a kind only two failures share stays in their items).
    expect(feedback.summary).toContain("3 with expected … to be … // Object.is equality");
    const items = feedback.actionable_items.join("\n");
    expect(items).not.toContain("// Object.is equality");
    // The thrown error's one cause names both tests it broke, at the error's place.
    expect(items).toContain("src/cart.ts:5 (from test/cart.test.ts:8) cart > adds an item");
    expect(items).toContain("cart > removes an item");
    expect(items.match(/TypeError: items\.push is not a function/g)).toHaveLength(1);
  });

  it("exits 2 naming a FILE it cannot read", () => {
    const result = loopgate([join(dir, "missing.log")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("missing.log: cannot read the file (ENOENT)");
    expect(result.stdout).toBe("");
  });

  it("prints help with an example", () => {
    const result = loopgate(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: loopgate feedback [FILE|-]");
    expect(result.stdout).toContain("Example:");
  });
});
