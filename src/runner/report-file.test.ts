import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readReport } from "./report-file.js";

const dir = mkdtempSync(join(tmpdir(), "loopgate-report-"));
function report(text: string): string {
  const file = join(dir, `${Math.random()}.jsonl`);
  writeFileSync(file, text);
  return file;
}

describe("readReport", () => {
  it("sums spend and tokens over the lines and keeps the last diff", () => {
    const file = report(
      '{"spend": 0.5, "tokens": 100}\n\n{"spend": 1, "diff": "a"}\n{"tokens": 5, "diff": "b"}\n',
    );
    expect(readReport(file)).toEqual({ spend: 1.5, tokens: 105, diff: "b" });
  });

  it("reads an empty report as free", () => {
    expect(readReport(report(""))).toEqual({ spend: 0, tokens: 0 });
  });

  it("refuses a misspelled key or a line that is not JSON, naming the line", () => {
    const misspelled = report('{"spend": 1}\n{"spnd": 2}\n');
    expect(() => readReport(misspelled)).toThrow(
      `${misspelled}:2: document: unknown key "spnd" (did you mean "spend"?)`,
    );
    const broken = report("spend=1\n");
    expect(() => readReport(broken)).toThrow(`${broken}:1: expected one JSON object per line`);
    expect(() => readReport(report('{"spend": -1}\n'))).toThrow(
      "spend: expected a finite number >= 0",
    );
  });
});
