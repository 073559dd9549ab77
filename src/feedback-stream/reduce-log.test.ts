import { once } from "node:events";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { logFeedback, openLog } from "./log-feedback.js";
import { DEFAULT_LIMITS } from "./log-reducer.js";
import { reduceLog } from "./reduce-log.js";

const dir = mkdtempSync(join(tmpdir(), "loopgate-reduce-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bytes in chunks of `size`, as a file or a pipe delivers them. */
async function* chunks(data: Uint8Array | string, size = 65_536): AsyncGenerator<Uint8Array> {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  for (let start = 0; start < bytes.length; start += size)
    yield bytes.subarray(start, start + size);
}

const feedbackOf = (data: Uint8Array | string, chunkSize?: number) =>
  logFeedback(chunks(data, chunkSize), { kind: "test", maxLength: 500 });

const BURIED = [
  " FAIL  src/billing/invoice.test.ts > invoice > totals line items",
  "AssertionError: expected 118 to be 117 // Object.is equality",
  "",
  "- Expected",
  "+ Received",
  "",
  "- 117",
  "+ 118",
  "",
  " ❯ src/billing/invoice.test.ts:42:19",
].join("\n");

describe("reduceLog", () => {
  it("finds a failure buried in a 50 MB log, keeping a bounded reduction", async () => {
    const file = join(dir, "big.log");
    const out = createWriteStream(file);
    const block = Array.from(
      { length: 2000 },
      (_, index) => ` ✓ src/module-${index}.test.ts > feature ${index} > works (3 ms)`,
    ).join("\n");
    const blocks = Math.ceil((50 * 1024 * 1024) / block.length);
    for (let index = 0; index < blocks; index += 1) {
      if (index === Math.floor(blocks / 2)) out.write(`${BURIED}\n`);
      if (!out.write(`${block}\n`)) await once(out, "drain");
    }
    out.end(" Test Files  1 failed | 2000 passed\n");
    await once(out, "finish");

    const { feedback, reduction } = await logFeedback(openLog(file), {
      kind: "test",
      maxLength: 500,
    });
    expect(feedback.failures).toHaveLength(1);
    expect(feedback.failures[0]).toMatchObject({
      file: "src/billing/invoice.test.ts",
      line: 42,
      expected: "117",
      received: "118",
    });
    expect(feedback.summary).toContain("want 117, got 118");
    expect(reduction.lines).toBeGreaterThan(700_000);
    expect(reduction.text.length).toBeLessThan(DEFAULT_LIMITS.budget);
    expect(reduction.keptLines).toBeLessThan(1000);
    expect(reduction.droppedLines).toBe(reduction.lines - reduction.keptLines);
  });

  it("reads a 10 MB single line without error, cut to 4,000 characters", async () => {
    const line = "y".repeat(10 * 1024 * 1024);
    const reduction = await reduceLog(chunks(`${line}\nError: after the long line\n`, 1 << 20));
    expect(reduction.lines).toBe(2);
    expect(reduction.cutLines).toBe(1);
    expect(reduction.text).toBe(`${"y".repeat(4000)}\nError: after the long line`);
  });

  it("reads an ANSI storm and escape codes split across chunks as plain text", async () => {
    const storm = "\x1b[31m\x1b[1m\x1b[0m".repeat(500_000);
    const log = `${storm}\n\x1b[31mFAIL\x1b[39m src/a.test.ts\n\x1b]8;;http://x\x07link\x1b]8;;\x07\n\x1b[`;
    const reduction = await reduceLog(chunks(log, 1001));
    expect(reduction.text).toBe("\nFAIL src/a.test.ts\nlink\n");
    expect(reduction.lines).toBe(4);
  });

  it("replaces invalid UTF-8 and drops NUL bytes, keeping characters split across chunks", async () => {
    const bytes = Buffer.concat([
      Buffer.from("Error: caf"),
      Buffer.from([0xc3, 0xa9, 0xff, 0xfe, 0x00, 0xc3]),
      Buffer.from("\nok 😀\n"),
    ]);
    for (const size of [1, 2, 3, 64]) {
      const reduction = await reduceLog(chunks(bytes, size));
      expect(reduction.text).toBe("Error: café\uFFFD\uFFFD\uFFFD\nok 😀");
    }
  });

  it("reads deeply nested brackets and a bare `[` as lines without blowing up", async () => {
    const nested = `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`;
    const asJson = await reduceLog(chunks(nested, 1 << 16));
    expect(asJson.json).toBe(true);
    expect(asJson.text).toHaveLength(2_000_000);
    const feedback = await feedbackOf(nested);
    expect(feedback.feedback.summary.length).toBeLessThanOrEqual(500);
    const prose = await reduceLog(chunks("[INFO] building\nError: nope\n"));
    expect(prose.json).toBe(false);
  });

  it("keeps a JSON reporter's document whole, even on one huge line", async () => {
    const tests = Array.from({ length: 20_000 }, (_, index) => ({ title: `t${index}`, ok: true }));
    const report = JSON.stringify({ numFailedTests: 1, tests, failure: "Expected 1 Received 2" });
    expect(report.length).toBeGreaterThan(4000);
    const reduction = await reduceLog(chunks(`  ${report}\n`, 4096));
    expect(reduction.json).toBe(true);
    expect(JSON.parse(reduction.text)).toMatchObject({ numFailedTests: 1 });
  });

  it("keeps one over-long JSON line whole among other output (jest --json 2>&1)", async () => {
    const tests = Array.from({ length: 5000 }, (_, index) => ({ title: `t${index}`, ok: true }));
    const report = JSON.stringify({ numFailedTestSuites: 1, tests });
    const noise = Array.from({ length: 3000 }, (_, index) => `  ✓ case ${index}`).join("\n");
    const log = `> jest --json\n${noise}\n${report}\r\n${noise}\nTests: 1 failed\n`;
    for (const size of [1000, 1 << 20]) {
      const reduction = await reduceLog(chunks(log, size));
      const line = reduction.text.split("\n").find((text) => text.startsWith("{"));
      expect(JSON.parse(line!)).toMatchObject({ numFailedTestSuites: 1 });
      expect(reduction.text.endsWith("Tests: 1 failed")).toBe(true);
      expect(reduction.keptLines).toBeLessThan(400);
    }
    const capped = await reduceLog(chunks(log, 1000), { maxJsonLength: 10_000 });
    expect(capped.text.split("\n").every((text) => text.length <= 4000)).toBe(true);
  });

  it("keeps a pretty-printed JSON report whole after console noise (mocha --reporter json)", async () => {
    const noise = Array.from({ length: 5000 }, (_, index) => `noise ${index}: GET /health 200`);
    const tests = Array.from({ length: 500 }, (_, index) => ({ title: `t${index}`, err: {} }));
    const report = JSON.stringify(
      { stats: { failures: 1 }, tests, failures: [{ err: { name: "AssertionError" } }] },
      null,
      2,
    );
    const log = `${noise.join("\n")}\n${report}\n`;
    const reduction = await reduceLog(chunks(log, 4096));
    const start = reduction.text.indexOf("\n{\n") + 1;
    expect(JSON.parse(reduction.text.slice(start))).toMatchObject({ stats: { failures: 1 } });
    const capped = await reduceLog(chunks(log, 4096), { maxJsonLength: 1000 });
    expect(capped.text.length).toBeLessThan(report.length);
    expect(capped.lines).toBe(reduction.lines);
  });

  it("reads a JSON document longer than the cap as lines", async () => {
    const report = JSON.stringify({ filler: "z".repeat(100_000), failure: "Error: boom" });
    const reduction = await reduceLog(chunks(report, 4096), { maxJsonLength: 50_000 });
    expect(reduction.json).toBe(false);
    expect(reduction.text).toHaveLength(4000);
  });

  it("reads JSON lines (go test -json) as lines, keeping the failing events", async () => {
    const event = (action: string, test: string, output?: string) =>
      JSON.stringify({ Action: action, Package: "example.com/m", Test: test, Output: output });
    const lines = [
      event("run", "TestA"),
      ...Array.from({ length: 5000 }, (_, index) => event("pass", `TestOk${index}`)),
      event("output", "TestA", "    sum_test.go:9: Sum(2, 2) = 5, want 4\n"),
      event("output", "TestA", "--- FAIL: TestA (0.00s)\n"),
      event("fail", "TestA"),
    ];
    const reduction = await reduceLog(chunks(`${lines.join("\n")}\n`, 1000));
    expect(reduction.json).toBe(false);
    expect(reduction.text).toContain("sum_test.go:9: Sum(2, 2) = 5, want 4");
    expect(reduction.text).toContain('"Action":"fail"');
    expect(reduction.keptLines).toBeLessThan(500);
  });

  it("reads empty and blank input as nothing", async () => {
    expect(await reduceLog(chunks(""))).toMatchObject({ text: "", lines: 0, json: false });
    expect((await reduceLog(chunks(" \n\n"))).text.trim()).toBe("");
  });

  it("gives the same feedback as the pure core on a small log", async () => {
    const { feedback } = await feedbackOf(`noise\n${BURIED}\nmore noise\n`, 5);
    expect(feedback.summary).toBe("Test failed: want 117, got 118");
    expect(feedback.priority).toBe("high");
  });
});

describe("logFeedback --kind review", () => {
  it("reads a review whole and reports no failures", async () => {
    const { feedback } = await logFeedback(
      chunks("issue (blocking): src/auth.ts:12 the token is never checked\nnit: typo\n", 3),
      { kind: "review", maxLength: 500 },
    );
    expect(feedback.priority).toBe("high");
    expect(feedback.summary).toBe("Review rejected: 2 points (1 high, 1 low)");
    expect(feedback.actionableItems[0]).toContain("token is never checked");
    expect(feedback).toMatchObject({ failures: [], runner: null });
  });
});
