/**
 * How many cases a property runs: `defaultRuns` in the default suite; under `npm run fuzz`,
 * `LOOPGATE_FUZZ_RUNS` (times `share`, for properties whose cases each start a process), never
 * fewer than the default.
 */
export function fuzzRuns(defaultRuns: number, share = 1): number {
  const asked = Number(process.env.LOOPGATE_FUZZ_RUNS ?? "");
  if (!Number.isSafeInteger(asked) || asked <= 0) return defaultRuns;
  return Math.max(defaultRuns, Math.round(asked * share));
}

/** The seed fast-check starts from: `LOOPGATE_FUZZ_SEED` replays a failure `npm run fuzz` found. */
export function fuzzSeed(): { seed: number } | Record<string, never> {
  const seed = Number(process.env.LOOPGATE_FUZZ_SEED ?? "");
  return Number.isSafeInteger(seed) ? { seed } : {};
}
