/**
 * A Vitest header without its trailing project name (`FAIL file > test [ chromium ]`), a name
 * segment that is nothing but brackets (`file > suite > [ a=b i ]`) kept. Found from
 * the end with `indexOf` rather than `/ \[ [^\]]* \]$/`, which tries every ` [ ` of the line and
 * scans to its end from each: quadratic on a line of repeated ` [ `.
 */
export function withoutProjectSuffix(header: string): string {
  if (!header.endsWith(" ]")) return header;
  // The project name holds no `]`: it starts at the first ` [ ` after the last `]` before the end.
  const after = header.lastIndexOf("]", header.length - 2) + 1;
  const open = header.indexOf(" [ ", after);
  // A name that is all brackets (`> [ a=b i ]`, a selector css-what tests) is the test's own.
  if (header.slice(0, open).endsWith(" >")) return header;
  return open >= 0 && open + 3 <= header.length - 2 ? header.slice(0, open) : header;
}
