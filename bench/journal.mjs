// Benchmarks the journal's size after `npm run build` (run it as `node bench/journal.mjs`).
//
// A task whose test step prints 1 MiB of output (different at every attempt) and fails, run
// through the built CLI until it escalates after 1, 10 and 50 attempts, each in its own journal.
// Prints the journal's bytes and bytes per attempt, with two baselines from the same journals:
// the step output itself (1 MiB an attempt) and what schema 1 — every body in full, each decision
// copying every earlier attempt — stores for the same events (the sum of the events exported in
// full). Targets: at most 12 MiB after 10 attempts; bytes per attempt the same at 50 as at 10.
// Also times SQLite's quick_check and integrity_check on the 50-attempt journal, which run and
// resume pay once when they open it. Writes the figures to bench/out/journal.json.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { Buffer } from "node:buffer";

const root = fileURLToPath(new URL("..", import.meta.url));
const MiB = 1024 * 1024;
const ATTEMPTS = [1, 10, 50];
const TARGET_AT_10 = 12 * MiB;

const dir = await mkdtemp(join(tmpdir(), "loopgate-bench-journal-"));
// 1 MiB of test-log lines naming the attempt, so no two attempts print the same output.
const printer = join(dir, "fail.mjs");
await writeFile(
  printer,
  `const line = "FAIL src/login.test.ts attempt " + process.env.LOOPGATE_ITERATION + ": expected 200, received 500\\n";
process.stdout.write(line.repeat(Math.ceil(${MiB} / line.length)).slice(0, ${MiB}));
process.exitCode = 1;
`,
);

const { Journal } = await import(new URL("../dist/runner/journal.js", import.meta.url).href);
const { toWire } = await import(new URL("../dist/wire/codec.js", import.meta.url).href);

/** Runs the task to its escalation after `attempts` attempts; returns the journal's path. */
async function journalAfter(attempts) {
  const taskFile = join(dir, `loopgate-${attempts}.json`);
  await writeFile(
    taskFile,
    JSON.stringify({
      iteration_control: { max_iterations: attempts },
      steps: {
        generate: { command: ["/bin/true"] },
        test: { command: [process.execPath, printer] },
      },
      tasks: [{ id: "bench", prompt: "nothing" }],
    }),
  );
  const db = join(dir, `journal-${attempts}.db`);
  const run = spawnSync(
    process.execPath,
    [join(root, "bin/loopgate.js"), "run", taskFile, "--db", db, "--quiet"],
    { encoding: "utf8" },
  );
  // 3: the task escalated after its last attempt, as it should.
  if (run.status !== 3) throw new Error(`loopgate run exited ${run.status}: ${run.stderr}`);
  return db;
}

/** The journal's bytes on disk, write-ahead log included. */
async function bytesOf(db) {
  const sizes = await Promise.all(
    [db, `${db}-wal`].map((path) =>
      stat(path).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes[0] + sizes[1];
}

/** What schema 1 stored for the same events: each event's full body. */
function fullBodies(db) {
  const journal = Journal.open(db, { readonly: true });
  try {
    return journal
      .events(1)
      .reduce((sum, entry) => sum + Buffer.byteLength(JSON.stringify(toWire(entry.event))), 0);
  } finally {
    journal.close();
  }
}

/** The fastest of three runs of a PRAGMA check on a fresh connection, in ms. */
function timeCheck(db, pragma) {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const journal = Journal.open(db, { readonly: true });
    const started = performance.now();
    journal.db.pragma(pragma);
    best = Math.min(best, performance.now() - started);
    journal.close();
  }
  return +best.toFixed(1);
}

const rows = [];
let last;
for (const attempts of ATTEMPTS) {
  const db = await journalAfter(attempts);
  const bytes = await bytesOf(db);
  const full = fullBodies(db);
  rows.push({ attempts, bytes, per_attempt: Math.round(bytes / attempts), schema_1_bytes: full });
  last = db;
}
const at = (attempts) => rows.find((row) => row.attempts === attempts);
const growth = at(50).per_attempt / at(10).per_attempt;
const figures = {
  output_bytes_per_attempt: MiB,
  rows,
  bytes_at_10_target: TARGET_AT_10,
  per_attempt_50_over_10: +growth.toFixed(3),
  quick_check_ms_at_50: timeCheck(last, "quick_check"),
  integrity_check_ms_at_50: timeCheck(last, "integrity_check"),
};

const mib = (bytes) => `${(bytes / MiB).toFixed(2)} MiB`;
console.log("journal size, a test step printing 1 MiB (different each attempt) and failing");
console.log(
  "  attempts  journal      per attempt  per attempt / output  schema 1 (bodies in full)",
);
for (const row of rows) {
  console.log(
    `  ${String(row.attempts).padEnd(8)}  ${mib(row.bytes).padEnd(11)}  ${mib(row.per_attempt).padEnd(11)}  ${(row.per_attempt / MiB).toFixed(3).padEnd(20)}  ${mib(row.schema_1_bytes)}`,
  );
}
console.log(
  `  after 10 attempts: ${mib(at(10).bytes)} (target <= ${mib(TARGET_AT_10)}) ${at(10).bytes <= TARGET_AT_10 ? "ok" : "OVER TARGET"}`,
);
console.log(
  `  bytes per attempt at 50 / at 10: ${figures.per_attempt_50_over_10}x (target: constant) ${growth <= 1.05 ? "ok" : "GROWING"}`,
);
console.log(
  `  SQLite checks on the 50-attempt journal: quick_check ${figures.quick_check_ms_at_50} ms, integrity_check ${figures.integrity_check_ms_at_50} ms`,
);
await mkdir(new URL("out/", import.meta.url), { recursive: true });
await writeFile(
  new URL("out/journal.json", import.meta.url),
  `${JSON.stringify(figures, null, 2)}\n`,
);
