import { spawn } from "node:child_process";
import { once } from "node:events";
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

  it("reads a report the step never made as free", () => {
    const file = join(dir, "test-0.report.jsonl");
    expect(readReport(file)).toEqual({ spend: 0, tokens: 0 });
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

  it("tells a step reporting its cost under another name what the name is", () => {
    const cost = report('{"cost": 0.5}\n');
    expect(() => readReport(cost)).toThrow(
      `${cost}:1: document: unknown key "cost" (did you mean "spend"?)`,
    );
  });

  it("refuses a key given twice in a line, which would count once", () => {
    const twice = report('{"spend": 1}\n{"spend": 0, "spend": 5}\n');
    expect(() => readReport(twice)).toThrow(
      `${twice}:2: spend: given twice in one line (only one value may count)`,
    );
  });

  it("refuses a sum that is no longer a finite number, naming the line and the field", () => {
    const huge = report('{"spend": 1e308}\n{"tokens": 1}\n{"spend": 1e308}\n');
    expect(() => readReport(huge)).toThrow(
      `${huge}:3: spend: the report's spend adds up to more than a number can hold (1e+308 + 1e+308)`,
    );
  });

  it("keeps the head and tail of a long diff, cut-marked, within the limit", () => {
    const diff = `${"a".repeat(3000)}\\n\\"${"é".repeat(3000)}\\u00e9\\ud83d\\ude00${"z".repeat(3000)}`;
    const file = report(`{"diff": "${diff}", "spend": 2}\n`);
    const kept = readReport(file, 1000);
    expect(kept.spend).toBe(2);
    expect(kept.diff?.startsWith("a".repeat(500))).toBe(true);
    expect(kept.diff?.endsWith("z".repeat(500))).toBe(true);
    expect(kept.diff).toMatch(/\n\[… loopgate left out \d+ bytes of diff …\]\n/);
    expect(Buffer.byteLength(kept.diff ?? "")).toBeLessThan(1100);
    // Under the limit, the diff is read whole, escapes decoded as JSON.parse would.
    expect(readReport(file, 1 << 20).diff).toBe(JSON.parse(`"${diff}"`) as string);
  });

  it("reads a 600 MB diff line in bounded memory, where a string of it could not even be made", async () => {
    // A FIFO: the 600 MB are streamed by another process and never touch the disk.
    const fifo = join(dir, "report.fifo");
    await once(spawn("mkfifo", [fifo]), "exit");
    const writer = spawn(
      "sh",
      [
        "-c",
        `{ printf '{"spend": 1, "diff": "'; head -c 629145600 /dev/zero | tr '\\0' x; printf '"}\\n'; } > '${fifo}'`,
      ],
      { stdio: "ignore" },
    );
    const before = process.memoryUsage().rss;
    const kept = readReport(fifo, 1 << 20);
    await once(writer, "exit");
    expect(kept.spend).toBe(1);
    expect(kept.diff).toMatch(
      /^x{524288}\n\[… loopgate left out 628097024 bytes of diff …\]\nx{524288}$/,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  }, 60_000);
});
