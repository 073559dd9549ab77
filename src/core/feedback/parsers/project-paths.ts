import type { Failure } from "../feedback.js";

/**
 * Failures with absolute paths made relative to the project they share: when they point into
 * at least two directories, the longest directory all of them start with is taken as the root
 * and cut (`/ci/work/app/test/a.test.js` → `test/a.test.js`), in `file`, in the test's own frame
 * and in a test named by its file. Reports and stacks print absolute paths that are noise to a reader and eat a
 * feedback's few hundred characters; with a single directory the root is unknowable, so the
 * paths stay as printed.
 */
export function relativeToProject(failures: readonly Failure[]): Failure[] {
  const root = commonRoot(
    failures.flatMap((failure) => [failure.file, failure.testLocation?.file ?? null]),
  );
  if (root === null) return [...failures];
  const relative = (path: string | null): string | null =>
    path !== null && path.startsWith(root) ? path.slice(root.length) : path;
  return failures.map((failure) => ({
    ...failure,
    test: failure.test === failure.file ? relative(failure.test) : failure.test,
    file: relative(failure.file),
    ...(failure.testLocation === undefined
      ? {}
      : {
          testLocation: {
            file: relative(failure.testLocation.file) ?? failure.testLocation.file,
            line: failure.testLocation.line,
          },
        }),
  }));
}

/** The directory (with its trailing `/`) every absolute path starts with, when they span two or more directories. */
function commonRoot(paths: readonly (string | null)[]): string | null {
  const directories = new Set(
    paths
      .filter((path) => path !== null && path.startsWith("/"))
      .map((path) => (path ?? "").slice(0, (path ?? "").lastIndexOf("/") + 1)),
  );
  if (directories.size < 2) return null;
  const [first = "", ...rest] = [...directories];
  let root = first;
  for (const directory of rest) {
    while (!directory.startsWith(root))
      root = root.slice(0, root.lastIndexOf("/", root.length - 2) + 1);
  }
  return root.length > 1 ? root : null;
}
