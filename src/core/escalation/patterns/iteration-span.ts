/** `2–3` for a run of iterations (en dash, as in prose), `2` for one. */
export function iterationSpan(iterations: readonly number[]): string {
  const first = iterations[0];
  const last = iterations.at(-1);
  if (first === undefined || last === undefined) return "";
  return first === last ? String(first) : `${first}–${last}`;
}
