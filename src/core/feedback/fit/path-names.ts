import { ELLIPSIS } from "../clean/code-points.js";

/**
 * Each path's base name when no other of `paths` is or ends with it (`studio/a/parser.py` →
 * `parser.py` when no other path ends in `/parser.py`); else the path itself. A longer ending
 * (`__tests__/index.ts` of `src/__tests__/index.ts` beside `src/index.ts`) would save a
 * directory or two and name a path that is nowhere under the root.
 */
export function shortPathNames(paths: Iterable<string>): ReadonlyMap<string, string> {
  const distinct = [...new Set(paths)];
  const clashes = (path: string, ending: string): boolean =>
    distinct.some((other) => other !== path && (other === ending || other.endsWith(`/${ending}`)));
  return new Map(
    distinct.map((path) => {
      const base = path.slice(path.lastIndexOf("/") + 1);
      return [path, base !== "" && !clashes(path, base) ? base : path];
    }),
  );
}

/**
 * How each item of a list names its file: `…` when the item above is about the same file, its
 * short name (see `shortPathNames`) when an earlier item named it whole, else whole — so a file
 * the list comes back to after others costs its base name, not its path again.
 */
export function itemPathNames(
  paths: readonly (string | null)[],
  short: ReadonlyMap<string, string>,
): (string | null)[] {
  const named = new Set<string>();
  return paths.map((path, index) => {
    if (path === null) return null;
    const name =
      paths[index - 1] === path ? ELLIPSIS : named.has(path) ? (short.get(path) ?? path) : path;
    named.add(path);
    return name;
  });
}
