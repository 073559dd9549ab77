import { ELLIPSIS } from "../clean/code-points.js";

/**
 * Each path's shortest ending at a `/` that no other of `paths` is or ends with
 * (`studio/a/parser.py` → `parser.py` when no other path ends in `/parser.py`); the path
 * itself when every shorter ending is shared.
 */
export function shortPathNames(paths: Iterable<string>): ReadonlyMap<string, string> {
  const distinct = [...new Set(paths)];
  const clashes = (path: string, ending: string): boolean =>
    distinct.some((other) => other !== path && (other === ending || other.endsWith(`/${ending}`)));
  return new Map(
    distinct.map((path) => {
      const parts = path.split("/");
      for (let kept = 1; kept < parts.length; kept += 1) {
        const ending = parts.slice(-kept).join("/");
        if (ending !== "" && !clashes(path, ending)) return [path, ending];
      }
      return [path, path];
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
