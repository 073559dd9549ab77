import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild, ROOT } from "../../runner/test-support/built-cli.js";

// `loopgate feedback` spending its 500 characters on what the items do not say (issue 8, item
// 4), on real runs' outputs, as a user runs it.

beforeAll(requireBuild);

/** Summary and items of `loopgate feedback --json` on a real-world fixture. */
function feedback(path: string): { summary: string; items: string[] } {
  const result = cli(["feedback", "--json", join(ROOT, "fixtures/real-world", path)]);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  const printed = JSON.parse(result.stdout) as {
    feedback: { summary: string; actionable_items: string[] };
  };
  return { summary: printed.feedback.summary, items: printed.feedback.actionable_items };
}

describe("loopgate feedback spends the cap on what the items do not say (built binary)", () => {
  it("makes one cause of one line's error that differs only in the literal it quotes", () => {
    const { summary, items } = feedback("unittest/tomli-int-base/output.txt");
    expect(summary).toBe(
      "Test failed: 9 failing tests: ValueError: invalid literal for int() with base 10: '0b001'",
    );
    // Thrown in the library: the test's own frame beside its place.
    expect(items[0]).toMatch(
      /^src\/tomli\/_re\.py:119 \(from tests\/test_data\.py:38\) test_invalid /,
    );
    // The place is written once for the cause, then its tests are named: each subtest after the
    // first of its test by its parameters alone, so all nine fit and none is left to count.
    expect(items.join("\n").match(/:119/g)).toHaveLength(1);
    expect(items[0]?.split("; ")).toHaveLength(9);
    expect(items[0]).toContain("[invalid-bin]; …[trailing-us-oct]; ");
    expect(items.join("\n")).not.toMatch(/\+\d+ more/);
  });

  it("never counts '+0 more' when the items name every failure", () => {
    for (const path of [
      "pytest/marshmallow-integer-string/output.txt",
      "jest/normalizr-polymorphic-id-string/output.txt",
    ]) {
      const { items } = feedback(path);
      expect(items.join("\n")).not.toMatch(/\+0 more/);
    }
  });

  it("leaves one cause's words to its item instead of a summary clause", () => {
    const { summary, items } = feedback("jasmine/fast-xml-parser-attr-numbers/output.txt");
    // Two failures of one cause share "Expected $.rootNode['@_attr1'] = … to equal …": their
    // item says it, the summary does not.
    expect(summary).not.toContain("$.rootNode['@_attr1']");
    expect(summary).toMatch(/^Test failed: 10 failing tests in 3 files/);
    // One pair at two lines (`45` / `'0045'`) is one cause: its item names both places.
    expect(items.join("\n")).toContain("…:976; …:953: want 45, got '0045'");
  });
});
