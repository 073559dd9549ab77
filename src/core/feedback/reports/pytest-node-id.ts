/** Text files pytest collects doctests from; its JUnit classname keeps their extension as a segment. */
const TEXT_EXTENSIONS: ReadonlySet<string> = new Set(["rst", "txt", "md"]);

/**
 * The pytest node id — what pytest's console names a test by — that a JUnit `classname` and
 * `name` stand for: pytest writes the id's path with dots for slashes and without `.py`, and its
 * classes as dots (`tests.test_calc.TestAdd` + `test_x` → `tests/test_calc.py::TestAdd::test_x`,
 * a doctest `boltons.iterutils` + `boltons.iterutils.chunked` →
 * `boltons/iterutils.py::boltons.iterutils.chunked`, `docs.intro.rst` → `docs/intro.rst::…`).
 * The module path is `file` when the report gives it (`junit_family=xunit1`), else the segments
 * before the first class (a capitalised segment); null when there is no module path.
 */
export function pytestNodeId(classname: string, name: string, file: string | null): string | null {
  if (classname === "") return null;
  if (file !== null && file.endsWith(".py")) {
    const module = file.slice(0, -".py".length).replaceAll("/", ".");
    if (classname !== module && !classname.startsWith(`${module}.`)) return null;
    const classes = classname
      .slice(module.length)
      .split(".")
      .filter((part) => part !== "");
    return [file, ...classes, name].join("::");
  }
  const segments = classname.split(".");
  const first = segments.findIndex((segment) => /^[A-Z]/.test(segment));
  const module = first < 0 ? segments : segments.slice(0, first);
  const classes = first < 0 ? [] : segments.slice(first);
  const last = module.at(-1);
  if (last === undefined) return null;
  const path =
    module.length > 1 && TEXT_EXTENSIONS.has(last)
      ? `${module.slice(0, -1).join("/")}.${last}`
      : `${module.join("/")}.py`;
  return [path, ...classes, name].join("::");
}
