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
  it("sums spend and tokens over the lines and keeps the last diff", async () => {
    const file = report(
      '{"spend": 0.5, "tokens": 100}\n\n{"spend": 1, "diff": "a"}\n{"tokens": 5, "diff": "b"}\n',
    );
    expect(await readReport(file)).toEqual({ spend: 1.5, tokens: 105, diff: "b" });
  });

  it("reads an empty report as free", async () => {
    expect(await readReport(report(""))).toEqual({ spend: 0, tokens: 0 });
  });

  it("refuses a misspelled key or a line that is not JSON, naming the line", async () => {
    const misspelled = report('{"spend": 1}\n{"spnd": 2}\n');
    await expect(readReport(misspelled)).rejects.toThrow(
      `${misspelled}:2: document: unknown key "spnd" (did you mean "spend"?)`,
    );
    const broken = report("spend=1\n");
    await expect(readReport(broken)).rejects.toThrow(
      `${broken}:1: expected one JSON object per line`,
    );
    await expect(readReport(report('{"spend": -1}\n'))).rejects.toThrow(
      "spend: expected a finite number >= 0",
    );
  });
});
