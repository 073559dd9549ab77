import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Failure } from "../core/feedback/feedback.js";

/*
 * `loopgate feedback --json` on outputs of real projects (fixtures/real-world/), run as a user
 * would: each case checks one parser rule of issue 8's item 3 on the failures the CLI prints.
 * `npm test` builds dist/ first; run `npm run build` before running this file alone.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = join(root, "bin", "loopgate.js");

/** The failures `loopgate feedback --json --root ROOT` prints for a real-world case's output. */
function failuresOf(folder: string, projectRoot: string): Failure[] {
  const output = join(root, "fixtures", "real-world", folder, "output.txt");
  // The project's checkout, which --root must name, as it was where the output was made; the
  // project's code is never in the repository, so a fresh clone has only the empty directory.
  mkdirSync(projectRoot, { recursive: true });
  const result = spawnSync(
    process.execPath,
    [bin, "feedback", "--json", "--root", projectRoot, output],
    { cwd: root, encoding: "utf8", timeout: 30_000 },
  );
  if (result.error !== undefined) throw result.error;
  expect(result.status).toBe(0);
  const printed = JSON.parse(result.stdout) as { feedback: { failures: Failure[] } };
  return printed.feedback.failures;
}

describe("loopgate feedback on real projects' outputs", () => {
  it("uvu: names as printed, a helper's assertion at the test's call (dequal)", () => {
    expect(failuresOf("uvu/dequal-date-map", "/tmp/rw/dequal")[0]).toMatchObject({
      test: 'Date  "Dates"',
      file: "test/index.js",
      line: 123,
    });
  });

  it("jest: an assertion in the spec's own helper is placed at the test's call (dayjs)", () => {
    const failures = failuresOf("jest/dayjs-ms-parse", "/tmp/rw/dayjs");
    const dst = failures.filter((failure) => failure.test?.startsWith("DST edge cases") ?? false);
    expect(dst.map((failure) => failure.line)).toEqual([486, 545]);
  });

  it("junit5: values keep JUnit's angle brackets (commons-cli)", () => {
    const failures = failuresOf("junit5/commons-cli-parser-slips", "/tmp/rw/other/commons-cli");
    expect(failures).toContainEqual(
      expect.objectContaining({ line: 203, expected: "<bar>", received: "<=bar>" }),
    );
  });

  it("node-tap: diff lines keep their trailing comma (ini)", () => {
    expect(failuresOf("node-tap/ini-true-string-tap", "/tmp/rw/ini")[0]).toMatchObject({
      expected: '"isTrue": true,',
      received: '"isTrue": "true",',
    });
  });

  it("tape: the operator when the error only repeats the assertion's name (object-inspect)", () => {
    expect(
      failuresOf("tape/object-inspect-indent-plural", "/tmp/rw/object-inspect")[0],
    ).toMatchObject({
      test: "two deep object with indent > two",
      message: "operator: equal",
    });
  });

  it("vitest: a compile error is placed where oxc points, for every file it broke (knitwork)", () => {
    const failures = failuresOf("vitest/knitwork-syntax-error", "/tmp/rw/knitwork");
    expect(failures).toHaveLength(4);
    for (const failure of failures) {
      expect(failure).toMatchObject({
        file: "src/string.ts",
        line: 13,
        message: "[PARSE_ERROR] Expected `,` or `)` but found `}`",
      });
    }
  });

  it("cargo: rustc's types in their backticks, a label naming code after the header (semver)", () => {
    const failures = failuresOf("cargo/semver-compile-errors", root);
    expect(failures[0]).toMatchObject({ expected: "`u64`", received: "`Option<u64>`" });
    expect(failures[2]?.message).toContain("argument #3 of type `u64` is missing");
  });

  it("go-test: `expected A, but got B` after what was checked, each check its own (go-humanize)", () => {
    const failures = failuresOf("go-test/go-humanize-bytes-base", root);
    expect(failures).toContainEqual(
      expect.objectContaining({ line: 14, expected: "'999 PB'", received: "'887 PB'" }),
    );
  });
});
