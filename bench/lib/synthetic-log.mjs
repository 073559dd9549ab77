// A large synthetic test log for the feedback bench: Jest- and Vitest-style lines of many
// passing tests, with a few failures spread through it, and the facts of those failures.
import { Buffer } from "node:buffer";
import { createWriteStream } from "node:fs";
import { once } from "node:events";

/** The failures planted in the log, at these fractions of its size. */
const PLANTED_AT = [0.1, 0.35, 0.6, 0.85, 0.98];

function passingBlock(seed) {
  const lines = [];
  for (let file = 0; file < 20; file += 1) {
    const id = seed * 20 + file;
    lines.push(` PASS  src/module-${id % 997}/feature-${id}.test.ts (${(id % 90) + 5} ms)`);
    lines.push(`  feature ${id}`);
    for (let test = 0; test < 8; test += 1) {
      lines.push(`    ✓ handles case ${test} of feature ${id} (${(id + test) % 17} ms)`);
    }
    if (file % 5 === 0)
      lines.push(`  console.log`, `    processing batch ${id} of ${id * 3} items`);
  }
  return `${lines.join("\n")}\n`;
}

function failureBlock(n) {
  const file = `src/billing/invoice-${n}.test.ts`;
  const expected = 100 + n;
  const received = 101 + n;
  const text = [
    ` FAIL  ${file} > invoice ${n} > totals line items`,
    `AssertionError: expected ${received} to be ${expected} // Object.is equality`,
    ``,
    `- Expected`,
    `+ Received`,
    ``,
    `- ${expected}`,
    `+ ${received}`,
    ``,
    ` ❯ ${file}:${40 + n}:19`,
    `     ${38 + n}|   it("totals line items", () => {`,
    `     ${39 + n}|     const invoice = build(${n});`,
    `     ${40 + n}|     expect(total(invoice)).toBe(${expected});`,
    `       |                            ^`,
    `     ${41 + n}|   });`,
    ``,
  ].join("\n");
  return {
    text: `${text}\n`,
    facts: {
      test: `invoice ${n} > totals line items`,
      file,
      line: 40 + n,
      expected: String(expected),
      received: String(received),
      keyword: "AssertionError",
    },
  };
}

/**
 * Writes a log of about `bytes` bytes to `file` and returns the planted failures' facts.
 * Cheap: blocks of passing tests are generated once per megabyte and written with backpressure.
 */
export async function writeSyntheticLog(file, bytes) {
  const out = createWriteStream(file);
  const facts = [];
  let written = 0;
  let planted = 0;
  let seed = 0;
  let block = "";
  let blockBytes = 0;
  while (written < bytes) {
    if (seed % 50 === 0) {
      block = "";
      for (let i = 0; i < 40; i += 1) block += passingBlock(seed + i);
      blockBytes = Buffer.byteLength(block);
    }
    seed += 1;
    let piece = block;
    if (planted < PLANTED_AT.length && written >= PLANTED_AT[planted] * bytes) {
      const failure = failureBlock(planted + 1);
      facts.push(failure.facts);
      piece = failure.text + block;
      planted += 1;
    }
    written += piece === block ? blockBytes : Buffer.byteLength(piece);
    if (!out.write(piece)) await once(out, "drain");
  }
  const summary = [
    "",
    ` Test Files  ${planted} failed | ${seed * 40 * 20} passed (${seed * 40 * 20 + planted})`,
    `      Tests  ${planted} failed | ${seed * 40 * 160} passed`,
    "",
  ].join("\n");
  out.end(summary);
  await once(out, "finish");
  return { facts, bytes: written + Buffer.byteLength(summary) };
}
