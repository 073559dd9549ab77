/** Edit distance between two short strings (keys, program names), for "did you mean" suggestions. */
export function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Names other tools give a key, too far from loopgate's for a typo: `cmd` is one letter from
 * `cwd`, but a step's `cmd`, `args` or `run` means its `command`.
 */
const MEANT: Readonly<Record<string, string>> = {
  cmd: "command",
  args: "command",
  argv: "command",
  run: "command",
  script: "command",
};

/** The known key closest to a misspelled one, or undefined when none is close enough to be a typo. */
export function closestKey(unknown: string, known: readonly string[]): string | undefined {
  const wanted = unknown.toLowerCase().replace(/-/g, "_");
  const meant = MEANT[wanted];
  if (meant !== undefined && known.includes(meant)) return meant;
  let best: { key: string; score: number } | undefined;
  for (const key of known) {
    const score = distance(wanted, key);
    if (best === undefined || score < best.score) best = { key, score };
  }
  if (best === undefined) return undefined;
  const tolerance = Math.max(2, Math.floor(best.key.length / 3));
  return best.score <= tolerance || best.key.includes(wanted) || wanted.includes(best.key)
    ? best.key
    : undefined;
}
