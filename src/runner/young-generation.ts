import { setFlagsFromString } from "node:v8";

/**
 * Keeps V8's young generation at its starting size (1 MiB a half) for the rest of this process.
 * A runner's garbage is small and short-lived (a step's buffers, events), but steps in flight keep
 * some of it alive across collections, and V8 answers that by doubling the young generation up to
 * 16 MiB a half: about 30 MiB of `run`'s resident memory went to it, for no speed (measured with
 * bench/scale.mjs: the same CPU time either way). Set at run time, not as a Node flag: V8 rejects
 * the CLI's code cache (bin/loopgate.js) under any flag the cache was not made with, and compiles
 * the bundle again. Only the CLI does this: a library caller's process is its own.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString("--semi-space-growth-factor=1");
}
