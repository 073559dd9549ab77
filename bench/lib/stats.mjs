// Small statistics and timing helpers shared by the bench scripts. No dependencies.
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";

/** The value at quantile q (0..1) of the samples, nearest-rank. */
export function quantile(samples, q) {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

/** The middle value of the samples; the mean of the two middle ones for an even count. */
export function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Runs each command `runs` times, alternating between them so that drift in machine load
 * hits all of them alike, and returns the wall times in milliseconds per command name.
 * A command that exits non-zero aborts the measurement: a failing run is not a figure.
 */
export function interleavedWallTimes(commands, { runs, warmup = 3, cwd }) {
  const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let round = -warmup; round < runs; round += 1) {
    const order = Object.entries(commands);
    if (round % 2 === 1) order.reverse();
    for (const [name, argv] of order) {
      const start = performance.now();
      const result = spawnSync(argv[0], argv.slice(1), { cwd, stdio: ["ignore", "pipe", "pipe"] });
      const elapsed = performance.now() - start;
      if (result.status !== 0) {
        throw new Error(
          `${name}: exit ${result.status ?? result.signal}\n${result.stderr.toString().trim()}`,
        );
      }
      if (round >= 0) times[name].push(elapsed);
    }
  }
  return times;
}

/** Calls `fn` for about `ms` milliseconds and returns the calls per second. */
function spin(fn, ms) {
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  // Read the clock every 16 calls so that reading it does not dominate cheap functions.
  while (elapsed < ms) {
    for (let i = 0; i < 16; i += 1) fn();
    ops += 16;
    elapsed = performance.now() - start;
  }
  return (ops * 1000) / elapsed;
}

/**
 * Measures the throughput of each function in `fns` (name → function): a warm-up, then
 * `rounds` rounds of about `roundMs` each, the functions taking turns within every round so
 * that a change in machine load hits them alike. Returns the ops/s of every round per name.
 */
export function interleavedOpsPerSecond(fns, { rounds = 7, roundMs = 250, warmupMs = 250 } = {}) {
  const entries = Object.entries(fns);
  for (const [, fn] of entries) spin(fn, warmupMs);
  const results = Object.fromEntries(entries.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? entries : [...entries].reverse();
    for (const [name, fn] of order) results[name].push(spin(fn, roundMs));
  }
  return results;
}
