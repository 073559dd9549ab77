import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readReportLines } from "./report-lines.js";

const dir = mkdtempSync(join(tmpdir(), "loopgate-report-lines-"));
let files = 0;

/** Every value the reader hands on for a file of these lines, or the error it threw. */
function read(text: string, limit = 1 << 20): { values: unknown[] } | { error: string } {
  const file = join(dir, `${files++}.jsonl`);
  writeFileSync(file, text);
  const values: unknown[] = [];
  try {
    readReportLines(file, limit, (value) => values.push(value));
    return { values };
  } catch (error) {
    return { error: (error as Error).message.slice(file.length) };
  }
}

/** Strings as UTF-8 keeps them: a lone surrogate becomes U+FFFD, as it does in the journal. */
function wellFormed(value: unknown): unknown {
  if (typeof value === "string") return Buffer.from(value, "utf8").toString("utf8");
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [wellFormed(key), wellFormed(inner)]),
    );
  }
  return value;
}

/** What JSON.parse makes of a line, or undefined when it refuses it. */
function parsed(line: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(line) as unknown };
  } catch {
    return undefined;
  }
}

const objectArb = fc.dictionary(
  fc.string({ maxLength: 12, unit: "binary" }),
  fc.jsonValue({ maxDepth: 2, stringUnit: "binary" }),
  {
    maxKeys: 8,
  },
);

/** Puts JSON whitespace between the tokens of a one-line JSON text, never inside strings. */
function spaced(text: string, spaces: readonly string[]): string {
  let out = "";
  let inString = false;
  let escaped = false;
  let turn = 0;
  for (const char of text) {
    out += char;
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    if (!inString && (char === "," || char === ":" || char === "{" || char === "[")) {
      out += spaces[turn++ % spaces.length] ?? "";
    }
  }
  return out;
}

describe("readReportLines", () => {
  it("reads any JSON object line as JSON.parse does, whitespace and escapes included", () => {
    fc.assert(
      fc.property(
        fc.array(objectArb, { maxLength: 4 }),
        fc.array(fc.constantFrom("", " ", "\t", "\r", "  ")),
        (objects, spaces) => {
          const text = objects.map((object) => spaced(JSON.stringify(object), spaces)).join("\n");
          expect(read(text)).toEqual({
            values: objects.map((object) => wellFormed(JSON.parse(JSON.stringify(object)))),
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads the same wherever the reads of 64 KiB fall in a line", () => {
    fc.assert(
      fc.property(objectArb, fc.integer({ min: 65_480, max: 65_540 }), (object, padding) => {
        const line = JSON.stringify({ padding: "p".repeat(padding), ...object });
        expect(read(line)).toEqual({ values: [wellFormed(JSON.parse(line))] });
      }),
      { numRuns: 60 },
    );
  });

  it("refuses a line that is not JSON as such, even when it also gives a key twice", () => {
    expect(read('{"a": 1, "a" 2}')).toEqual({ error: ":1: expected one JSON object per line" });
    expect(read('{"a": 1, "a": 2}')).toEqual({
      error: ":1: a: given twice in one line (only one value may count)",
    });
  });

  it("accepts a line only where JSON.parse does, and refuses every line it refuses", () => {
    const lineArb = fc.oneof(
      fc.string({ maxLength: 40 }),
      // Valid lines with one character dropped, doubled or replaced.
      fc
        .tuple(
          objectArb,
          fc.nat(),
          fc.constantFrom("", '"', "\\", "{", "}", ",", ":", "x", "1", "\u0001", "\t"),
        )
        .map(([object, at, char]) => {
          const text = JSON.stringify(object);
          const cut = at % (text.length + 1);
          return text.slice(0, cut) + char + text.slice(cut + (char === "x" ? 0 : 1));
        }),
    );
    fc.assert(
      fc.property(lineArb, (raw) => {
        const line = raw.replace(/\n/g, " ");
        const got = read(line);
        // A blank line is skipped, not refused.
        if (/^[ \t\r]*$/.test(line)) {
          expect(got).toEqual({ values: [] });
          return;
        }
        const expected = parsed(line);
        if ("values" in got) {
          expect(expected).toBeDefined();
          if (got.values.length > 0) expect(got.values).toEqual([wellFormed(expected?.value)]);
        } else if (!got.error.includes("given twice")) {
          expect(got.error).toBe(":1: expected one JSON object per line");
        }
        if (expected === undefined)
          expect(got).toEqual({ error: ":1: expected one JSON object per line" });
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses a key given twice, naming the line and the key", () => {
    expect(read('{"spend": 1}\n\n{"diff": "a", "tokens": 2, "tokens": 3}')).toEqual({
      error: ":3: tokens: given twice in one line (only one value may count)",
    });
    expect(read('{"a b": 1, "a b": 2}')).toEqual({
      error: ':1: "a b": given twice in one line (only one value may count)',
    });
  });
});

describe("readReportLines on hostile lines", () => {
  /** A one-line report whose diff is `unit` repeated to `bytes`. */
  function hostile(unit: string, bytes: number): string {
    const file = join(dir, `${files++}.jsonl`);
    writeFileSync(file, `{"diff": "${unit.repeat(Math.ceil(bytes / unit.length))}"}\n`);
    return file;
  }

  /** The fastest read of each file, reads interleaved after a warm-up, so load hits both alike. */
  function fastest(...paths: string[]): number[] {
    const best = paths.map(() => Number.POSITIVE_INFINITY);
    readReportLines(paths[0] ?? "", 1 << 20, () => undefined);
    for (let run = 0; run < 3; run++) {
      paths.forEach((path, index) => {
        const started = performance.now();
        readReportLines(path, 1 << 20, () => undefined);
        best[index] = Math.min(best[index] ?? 0, performance.now() - started);
      });
    }
    return best;
  }

  it.each([
    ["an escape every few bytes", "ab\\n", 1],
    ["\\u escapes and surrogate pairs", "\\u00e9\\ud83d\\ude00", 1],
    ["plain text", "x", 4],
  ])(
    "reads %s in linear time: ten times the bytes within 25 times the time",
    (_shape, unit, megabytes) => {
      const [small = 0, large = 0] = fastest(
        hostile(unit, megabytes << 20),
        hostile(unit, (10 * megabytes) << 20),
      );
      expect(large / small).toBeLessThan(25);
    },
  );

  it("refuses a control byte anywhere in a long string, found four bytes at a time", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 0x1f }),
        (at, control) => {
          const text = "y".repeat(5000);
          const line = `{"diff": "${text.slice(0, at)}${String.fromCharCode(control)}${text.slice(at)}"}`;
          expect(read(line)).toEqual({ error: ":1: expected one JSON object per line" });
        },
      ),
      { numRuns: 100 },
    );
    expect(read(`{"diff": "${"y".repeat(5000)}"}`)).toEqual({
      values: [{ diff: "y".repeat(5000) }],
    });
  });
});
