import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collectReports, MAX_REPORT_FILES } from "./test-reports.js";

/** A step directory with `files` (path → text) written now. */
function stepDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-test-reports-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("collectReports", () => {
  it("reads every fresh file a glob matches, in path order, paths under the step made relative", () => {
    const dir = stepDir({
      "target/surefire-reports/TEST-b.xml": "<b/>",
      "target/surefire-reports/TEST-a.xml": "<a/>",
      "target/surefire-reports/other.txt": "no",
    });
    writeFileSync(join(dir, "junit.xml"), `<testcase file="${dir}/src/a.test.ts"/>`);
    const start = Date.now() - 5_000;
    expect(
      collectReports(["target/surefire-reports/TEST-*.xml", "junit.xml"], dir, start, 1 << 20),
    ).toEqual({
      reports: ["<a/>", "<b/>", '<testcase file="src/a.test.ts"/>'],
      notes: [],
    });
  });

  it("leaves out a report older than the step, and says a pattern matched nothing", () => {
    const dir = stepDir({ "old.xml": "<old/>" });
    const start = Date.now();
    utimesSync(join(dir, "old.xml"), new Date(start - 60_000), new Date(start - 60_000));
    expect(collectReports(["old.xml", "missing/*.json"], dir, start, 1 << 20)).toEqual({
      reports: [],
      notes: [
        "loopgate: no report matching old.xml was written by this step (1 older than the step)",
        "loopgate: no report matching missing/*.json was written by this step",
      ],
    });
  });

  it("keeps reports whole: one that would pass the limit is left out and named", () => {
    const dir = stepDir({ "a.xml": "x".repeat(600), "b.xml": "y".repeat(600), "c.xml": "z" });
    const { reports, notes } = collectReports(["*.xml"], dir, Date.now() - 5_000, 1_000);
    expect(reports).toEqual(["x".repeat(600), "z"]);
    expect(notes).toEqual([
      "loopgate: report b.xml left out: 600 bytes would pass output_limit_bytes (1000)",
    ]);
  });

  it("reads a file two patterns match once, and at most MAX_REPORT_FILES files", () => {
    const files = Object.fromEntries(
      Array.from({ length: MAX_REPORT_FILES + 1 }, (_, i) => [
        `r/${String(i).padStart(3, "0")}.xml`,
        "<r/>",
      ]),
    );
    const dir = stepDir(files);
    const { reports, notes } = collectReports(
      ["r/000.xml", "r/*.xml"],
      dir,
      Date.now() - 5_000,
      1 << 20,
    );
    expect(reports).toHaveLength(MAX_REPORT_FILES);
    expect(notes).toEqual([
      `loopgate: report r/${String(MAX_REPORT_FILES).padStart(3, "0")}.xml left out: more than ${MAX_REPORT_FILES} reports`,
    ]);
  });

  it("says nothing of a pattern whose only matches an earlier pattern already read", () => {
    const dir = stepDir({ "reports/a.xml": "<a/>" });
    expect(
      collectReports(["reports/*.xml", "reports/a.xml"], dir, Date.now() - 5_000, 1 << 20),
    ).toEqual({ reports: ["<a/>"], notes: [] });
  });

  it("redacts a secret in a report before it is handed on", () => {
    const token = `ghp_${"A1b2C3d4E5".repeat(4).slice(0, 36)}`;
    const dir = stepDir({ "junit.xml": `<failure message="token ${token} rejected"/>` });
    const [report] = collectReports(["junit.xml"], dir, Date.now() - 5_000, 1 << 20).reports;
    expect(report).toContain("rejected");
    expect(report).not.toContain(token.slice(4, 20));
  });
});
