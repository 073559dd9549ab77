/**
 * Whether a runner cut a printed value short: `...` (pytest, a recap line) or `…` (Vitest) in it.
 * Such a value is not the whole value: it neither stands for a diff's pair nor tells two checks
 * apart.
 */
export function isRunnerCut(value: string): boolean {
  return value.includes("...") || value.includes("…");
}
