/**
 * The sum of the counts a runner's summary lines state (`Tests: 7 failed`, `# fail 3`): group 1
 * of every match of `pattern` (a global pattern; a match without a group counts one), or null
 * when the output has no such line. A log of several runs (a workspace's packages, each with its
 * summary) counts them all.
 */
export function countsIn(output: string, pattern: RegExp): number | null {
  let total: number | null = null;
  for (const match of output.matchAll(pattern)) total = (total ?? 0) + Number(match[1] ?? 1);
  return total;
}
