// Benchmarks reading documents just under the input limit, after `npm run build` (run it as
// `node bench/documents.mjs`): each shape at 16 MiB less a little (and the YAML ones just under
// the token limit) is written to a file and read by `loopgate verdict` in its own process, whose
// peak RSS and time are measured; the baseline is the same process on the seed's small verdict
// document, so the figures are what a document adds. Targets: every shape refused or read in
// bounded memory (peak RSS under BOUND_MB, whatever the shape) and time.
// Writes bench/out/documents.json. No dependencies.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { Buffer } from "node:buffer";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "loopgate.js");
const LIMIT = 16 * 1024 * 1024;
const SIZE = LIMIT - 1024;
/** The memory a document may cost at most: the 50 MB YAML list of the issue took 4.4 GB. */
const BOUND_MB = 640;
const dir = await mkdtemp(join(tmpdir(), "loopgate-bench-documents-"));

const verdict = "counters: {iteration: 1}\npolicy: {max_iterations: 3}\n";
const fill = (unit, size) => unit.repeat(Math.floor(size / unit.length));
const SHAPES = [
  ["baseline: the seed-sized verdict document", verdict],
  [
    "JSON list of numbers",
    `{"policy": {"max_iterations": 3}, "counters": {"iteration": 1, "scores": [${fill("1,", SIZE - 90)}1]}}`,
  ],
  ["JSON list of objects", `[${fill('{"a":1},', SIZE - 10)}{}]`],
  [
    "JSON mapping of many keys",
    `{${Array.from({ length: Math.floor(SIZE / 18) }, (_, i) => `"k${i}":${i}`).join(",")}}`,
  ],
  ["JSON string", `{"counters": {"iteration": 1}, "note": "${fill("x", SIZE - 60)}"}`],
  ["YAML list (refused: over the token limit)", fill("- 1\n", SIZE)],
  ["YAML flow list that is not JSON (refused: tokens)", `[${fill("a,", SIZE - 4)}a]`],
  [
    "YAML list just under the token limit",
    `counters:\n  iteration: 1\n  signatures:\n${fill("   - a\n", 7 * 165_000)}policy: {max_iterations: 3}\n`,
  ],
  [
    "YAML mapping of 80,000 keys",
    `counters:\n${Array.from({ length: 80_000 }, (_, i) => `  k${i}: ${i}`).join("\n")}\n`,
  ],
  ["YAML block scalar", `${verdict}note: |\n${fill(`  ${"x".repeat(78)}\n`, SIZE - 80)}`],
];

const rows = [];
for (const [name, text] of SHAPES) {
  const file = join(dir, `${rows.length}.yaml`);
  await writeFile(file, text);
  const started = performance.now();
  // Node reports its own peak RSS on exit: the child prints it to fd 3.
  const run = spawnSync(
    process.execPath,
    [
      "-e",
      `process.on("exit", () => require("fs").writeSync(3, String(process.resourceUsage().maxRSS))); require(${JSON.stringify(join(root, "dist", "cli.cjs"))})`,
      bin,
      "verdict",
      file,
    ],
    { encoding: "utf8", stdio: ["ignore", "ignore", "pipe", "pipe"], timeout: 600_000 },
  );
  const ms = performance.now() - started;
  const rssMb = Number(run.output[3]) / 1024;
  rows.push({
    name,
    bytes: Buffer.byteLength(text),
    ms: Math.round(ms),
    rssMb: Math.round(rssMb),
    exit: run.status,
    error: run.stderr.trim().slice(0, 90),
  });
}
const [base] = rows;
console.log(
  "shape                                              MB      ms     RSS MB  × base  exit",
);
for (const row of rows) {
  console.log(
    `${row.name.padEnd(50)} ${(row.bytes / 1048576).toFixed(1).padStart(5)} ${String(row.ms).padStart(7)} ${String(row.rssMb).padStart(9)} ${(row.rssMb / base.rssMb).toFixed(1).padStart(7)}  ${row.exit}`,
  );
}
const bounded = rows.every((row) => row.rssMb <= BOUND_MB);
for (const row of rows) if (row.error !== "") console.log(`${row.name}: ${row.error}`);
console.log(`\npeak RSS of every shape under ${BOUND_MB} MB: ${bounded ? "yes" : "NO"}`);
await mkdir(join(root, "bench", "out"), { recursive: true });
await writeFile(
  join(root, "bench", "out", "documents.json"),
  `${JSON.stringify({ rows, bounded }, null, 2)}\n`,
);
