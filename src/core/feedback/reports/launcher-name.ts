/** Segments that name a container the launcher prints by its own name; the test's is the display name. */
const CONTAINERS: ReadonlySet<string> = new Set([
  "class",
  "nested-class",
  "test-template",
  "test-factory",
]);

/**
 * A test's name as the JUnit console launcher prints it in its `Failures (N):` list —
 * `JUnit Jupiter:CartTest:WhenEmpty:totalIsZero()`, `JUnit Jupiter:CartTest:doublesTotals(int,
 * int):[1] 1, 2` — from the `unique-id:` and `display-name:` lines its `--reports-dir` XML puts
 * in a test case's `<system-out>`, under the engine's suite (`JUnit Jupiter`): each container of
 * the id by its name (a class by its simple name), then the test's display name. Null when the
 * output holds no such lines (Surefire's `<system-out>` is the test's own output).
 */
export function launcherName(suite: string, systemOut: string): string | null {
  const lines = systemOut.split("\n").map((line) => line.trim());
  const id = lines.find((line) => line.startsWith("unique-id: [engine:"));
  const display = lines.find((line) => line.startsWith("display-name: "));
  if (id === undefined || display === undefined || suite === "") return null;
  const containers = segmentsOf(id.slice("unique-id: ".length))
    .filter(({ kind }) => CONTAINERS.has(kind))
    .map(({ kind, value }) => (kind === "class" ? value.slice(value.lastIndexOf(".") + 1) : value));
  return [suite, ...containers, display.slice("display-name: ".length)].join(":");
}

/** The `[kind:value]` segments of a unique id, split by position (a pattern would rescan). */
function segmentsOf(id: string): { kind: string; value: string }[] {
  const inner = id.replace(/^\[/, "").replace(/\]$/, "");
  return inner.split("]/[").map((segment) => {
    const colon = segment.indexOf(":");
    return colon < 0
      ? { kind: segment, value: "" }
      : { kind: segment.slice(0, colon), value: segment.slice(colon + 1) };
  });
}
