import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild, ROOT } from "../../runner/test-support/built-cli.js";

// `loopgate feedback` on real outputs, as a user runs it (issue 8, items 2, 3 and 5): a
// CodeRabbit review's points with their places, mypy's last finding with its code, and a run's
// JUnit XML report read alone giving what its console gives (PHPUnit, Maven Surefire, the JUnit
// console launcher).

beforeAll(requireBuild);

/** The printed feedback, as far as these tests read it. */
type Printed = {
  feedback: {
    summary: string;
    actionable_items: string[];
    failures: Record<"test" | "file" | "line" | "expected" | "received" | "rule", unknown>[];
  };
};

const fixture = (path: string): string => join(ROOT, "fixtures", path);
const REPORTS = join(ROOT, "src/core/feedback/reports/test-fixtures");

function feedback(args: readonly string[]): Printed["feedback"] {
  const result = cli(["feedback", "--json", ...args]);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return (JSON.parse(result.stdout) as Printed).feedback;
}

/** The facts of each failure, sorted by name, as the two readings should agree on them. */
const facts = (printed: Printed["feedback"]) =>
  printed.failures
    .map(({ test, file, line, expected, received }) => ({ test, file, line, expected, received }))
    .sort((a, b) => String(a.test).localeCompare(String(b.test)));

describe("loopgate feedback on real outputs (built binary)", () => {
  it("names four CodeRabbit points with their places rather than two long paths' worth", () => {
    const printed = feedback([
      "--kind",
      "review",
      fixture("reviews/real-world/coderabbit/runanywhere-531-inline.json"),
    ]);
    expect(printed.summary).toBe("Review rejected: 7 points (2 medium, 5 low)");
    const places = printed.actionable_items.map((item) => /^\S+/.exec(item)?.[0]);
    expect(places).toEqual([
      expect.stringMatching(/RagViewModel\.kt:93$/),
      "sdk/runanywhere-commons/src/features/rag/rag_backend.cpp:180",
      "sdk/runanywhere-commons/tests/test_rag_e2e.cpp:78",
      "sdk/shared/proto-ts/src/convenience/rag_convenience.ts:75",
      "+3",
    ]);
    expect(printed.actionable_items[2]).toContain("Guard against negative tellg() result");
  });

  it("keeps mypy's error code on its last finding, before mypy's closing notices", () => {
    const printed = feedback([fixture("reviews/real-world/lint/mypy-tomli.txt")]);
    expect(printed.failures.at(-1)).toMatchObject({
      file: "tests/test_misc.py",
      line: 80,
      rule: "arg-type",
    });
    const review = feedback([
      "--kind",
      "review",
      fixture("reviews/real-world/lint/mypy-tomli.txt"),
    ]);
    expect(review.actionable_items.at(-1)).toMatch(/^tests\/test_misc\.py:80 arg-type: /);
  });

  it.each([
    [
      "PHPUnit",
      "real-world/phpunit/doctrine-inflector-offset-classify/output.txt",
      "real-world/phpunit/doctrine-inflector-offset-classify/report.junit.xml",
      "/tmp/rw/other/inflector",
    ],
    ["Maven Surefire", "surefire-cart.txt", "surefire-cart.xml", "/tmp/sf"],
    ["JUnit console launcher", "launcher-cart.txt", "launcher-cart.xml", "/tmp/sf"],
  ])("reads a %s JUnit XML report alone as well as its console", (_, log, report, root) => {
    const at = (file: string): string =>
      file.startsWith("real-world/") ? fixture(file) : join(REPORTS, file);
    // The checkout the report was made in, which --root must name; a fresh clone has none.
    mkdirSync(root, { recursive: true });
    const fromConsole = feedback(["--root", root, at(log)]);
    const fromReport = feedback(["--root", root, "--report", at(report)]);
    expect(fromReport.failures.length).toBeGreaterThan(5);
    expect(facts(fromReport)).toEqual(facts(fromConsole));
  });
});
