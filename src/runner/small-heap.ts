import { setFlagsFromString } from "node:v8";

/**
 * Keeps V8's heap close to what this process holds live, for the rest of the process. Its
 * garbage is small and short-lived (a step's buffers, events), but steps in flight keep some of
 * it alive across collections, and V8 answers that by doubling the young generation up to 16 MiB
 * a half (about 30 MiB of `run`'s resident memory, for no speed): it stays at its starting 1 MiB
 * a half. And V8 lets the old generation grow to up to 4 times what the last full collection
 * left, most of it garbage: `--optimize-for-size` holds that to 1.3 times (peak RSS of `run` at
 * 5,000 tasks of bench/scale.mjs 88 to 91 MiB instead of 132 to 137, for 1.10 to 1.17 times the
 * run's time at 1,000 and 5,000 tasks: docs/runner.md). Set at run time, not as Node flags:
 * V8 rejects the CLI's code cache (bin/loopgate.js) under any flag the cache was not made with,
 * and compiles the bundle again. Only the CLI does this: a library caller's process is its own.
 */
export function keepHeapSmall(): void {
  setFlagsFromString("--semi-space-growth-factor=1");
  setFlagsFromString("--optimize-for-size");
}
