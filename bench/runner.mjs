// Benchmarks the loop runner after `npm run build` (run it as `node bench/runner.mjs`).
//
//   a) per-iteration overhead of `loopgate run` on three trivial commands (generate, test,
//      review), against a plain bash loop running the same three commands the same number of
//      times, interleaved in the same invocation; the ratio's target is <= 1.3x. A third contender,
//      a bare Node script spawning the same commands as the runner does, shows the floor Node's
//      own spawn sets, so the runner's share of the overhead can be told from Node's;
//   b) journal appends per second (one transaction per event, as the runner writes them).
// Prints a table and writes the figures to bench/out/runner.json. No dependencies.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { nodeSpawnerSource } from "./lib/node-spawner.mjs";
import { interleavedWallTimes, median } from "./lib/stats.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const ITERATIONS = Number(process.env.LOOPGATE_BENCH_ITERATIONS ?? 30);
const RUNS = Number(process.env.LOOPGATE_BENCH_RUNS ?? 7);
const APPENDS = Number(process.env.LOOPGATE_BENCH_APPENDS ?? 20_000);
const TARGET = 1.3;

const dir = await mkdtemp(join(tmpdir(), "loopgate-bench-runner-"));

// The same three commands for both loops, as executables (not shell builtins): the test step
// fails until the last iteration, so every pass runs all three and the loop retries.
const generate = ["/bin/true"];
const test = ["/bin/sh", "-c", `[ "$LOOPGATE_ITERATION" -ge ${ITERATIONS} ]`];
const review = ["/bin/echo", '{"status": "approve"}'];

const taskFile = join(dir, "loopgate.yaml");
await writeFile(
  taskFile,
  JSON.stringify({
    iteration_control: { max_iterations: ITERATIONS },
    steps: {
      generate: { command: generate },
      test: { command: test },
      review: { command: review },
    },
    tasks: [{ id: "bench", prompt: "nothing" }],
  }),
);
const quote = (argv) => argv.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(" ");
const bashLoop = `for i in $(seq 1 ${ITERATIONS}); do export LOOPGATE_ITERATION=$i; ${quote(generate)}; ${quote(test)}; ${quote(review)} > /dev/null; done; true`;

// The floor Node itself sets: a bare Node script spawning the same three commands the way the
// runner does (own process group, piped output), with no journal, no files and no decisions.
const nodeLoop = join(dir, "node-loop.mjs");
await writeFile(nodeLoop, nodeSpawnerSource([generate, test, review], { iterations: ITERATIONS }));

const times = interleavedWallTimes(
  {
    loopgate: [
      process.execPath,
      join(root, "bin/loopgate.js"),
      "run",
      taskFile,
      "--db",
      join(dir, "journal.db"),
      "--quiet",
    ],
    bash: ["/bin/bash", "-c", bashLoop],
    node: [process.execPath, nodeLoop],
  },
  { runs: RUNS, warmup: 1, cwd: dir },
);
const loopgateMs = median(times.loopgate);
const bashMs = median(times.bash);
const nodeMs = median(times.node);
const ratio = loopgateMs / bashMs;

const { Journal } = await import(new URL("../dist/runner/journal.js", import.meta.url).href);
const journal = Journal.open(join(dir, "appends.db"));
const runId = journal.createRun("bench", dir, {});
const outcome = {
  step: "generate",
  exitCode: 0,
  timedOut: false,
  durationMs: 1,
  spend: 0,
  tokens: 0,
  output: "ok",
};
const start = performance.now();
for (let index = 0; index < APPENDS; index += 1) {
  const effectId = JSON.stringify(["bench", index, "generate", 0]);
  journal.append(runId, {
    type: "step-finished",
    effectId,
    taskId: "bench",
    iteration: index + 1,
    outcome,
  });
}
const appendsPerSecond = APPENDS / ((performance.now() - start) / 1000);
journal.close();

const figures = {
  iterations: ITERATIONS,
  runs: RUNS,
  loopgate_ms: Math.round(loopgateMs),
  bash_ms: Math.round(bashMs),
  loopgate_ms_per_iteration: +(loopgateMs / ITERATIONS).toFixed(2),
  bash_ms_per_iteration: +(bashMs / ITERATIONS).toFixed(2),
  overhead_ms_per_iteration: +((loopgateMs - bashMs) / ITERATIONS).toFixed(2),
  ratio: +ratio.toFixed(2),
  node_spawn_ms: Math.round(nodeMs),
  node_spawn_ms_per_iteration: +(nodeMs / ITERATIONS).toFixed(2),
  node_spawn_ratio_to_bash: +(nodeMs / bashMs).toFixed(2),
  ratio_to_node_spawn: +(loopgateMs / nodeMs).toFixed(2),
  target_ratio: TARGET,
  journal_appends_per_second: Math.round(appendsPerSecond),
};
console.log(`loopgate run vs bash loop, ${ITERATIONS} iterations x 3 commands, median of ${RUNS}`);
console.log(
  `  loopgate  ${figures.loopgate_ms} ms  (${figures.loopgate_ms_per_iteration} ms/iteration)`,
);
console.log(`  bash      ${figures.bash_ms} ms  (${figures.bash_ms_per_iteration} ms/iteration)`);
console.log(
  `  overhead  ${figures.overhead_ms_per_iteration} ms/iteration, ratio ${figures.ratio}x (target <= ${TARGET}x) ${ratio <= TARGET ? "ok" : "OVER TARGET"}`,
);
console.log(
  `  bare Node spawning the same commands: ${figures.node_spawn_ms} ms (${figures.node_spawn_ms_per_iteration} ms/iteration, ${figures.node_spawn_ratio_to_bash}x bash) — the floor for any Node runner`,
);
console.log(`  loopgate vs that floor: ${figures.ratio_to_node_spawn}x`);
console.log(`journal appends: ${figures.journal_appends_per_second}/s (one transaction each)`);
await mkdir(new URL("out/", import.meta.url), { recursive: true });
await writeFile(
  new URL("out/runner.json", import.meta.url),
  `${JSON.stringify(figures, null, 2)}\n`,
);
