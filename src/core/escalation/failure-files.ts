import type { AttemptRecord } from "./attempt-record.js";

/** Test-file markers around a module's name: `login.test.ts`, `login_spec.rb`, `test_login.py`. */
const TEST_MARKERS = /^test_|[._-](?:test|spec)s?$/;

/** The module a path is about: its base name without extensions or test markers (`login`). */
function stem(path: string): string {
  const base = path.split(/[\\/]/).at(-1) ?? path;
  const name = base.split(".")[0] ?? base;
  return name.replace(TEST_MARKERS, "").toLowerCase();
}

/**
 * Which of a diff's files the latest failing attempt points at: a file its output names (a
 * stack frame, a compiler error), or the module a failing test file tests (`login.test.ts`
 * points at `login.ts`). Nothing is pointed at when the latest attempt did not fail a test.
 */
export function pointedAtByFailures(records: readonly AttemptRecord[]): (file: string) => boolean {
  const latest = records.at(-1)?.analysis;
  if (latest === undefined || latest.testStatus !== "fail") return () => false;
  const tested = new Set(
    latest.failures.flatMap((failure) => (failure.file === null ? [] : [stem(failure.file)])),
  );
  return (file) => latest.output.includes(file) || tested.has(stem(file));
}
