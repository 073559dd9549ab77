/**
 * Lines that report a passing or skipped test (Vitest/Jest `✓`, node:test `✔`, TAP `ok`, Go
 * `--- PASS`, cargo `... ok`, Jest `PASS file`). They end the failure being read.
 */
export function isPassLine(trimmed: string): boolean {
  return (
    /^[✓✔√]\s/.test(trimmed) ||
    // TAP's `ok 3 - name` and Go's `ok  \texample.com/m\t0.01s`, not prose that starts with "ok".
    /^ok \d+\b/.test(trimmed) ||
    /^ok\s+\S+\s+(?:\d+(?:\.\d+)?s|\(cached\))/.test(trimmed) ||
    /^--- (?:PASS|SKIP):/.test(trimmed) ||
    /^PASS\s/.test(trimmed) ||
    /^test \S+ \.\.\. (?:ok|ignored)$/.test(trimmed)
  );
}

/** Run summaries, banners, progress and tool chatter: never a fact about one failure. */
const SUMMARY_PATTERNS: readonly RegExp[] = [
  // Test counts and timings: `Tests  6 failed | 2 passed (8)`, `Tests: 1 failed, 1 total`.
  /^(?:Test Files|Tests|Test Suites|Snapshots|Suites|Time|Duration|Start at):?\s+\d/,
  /^Ran all test suites/,
  /^RUN\s+v\d/,
  // node:test and TAP trailers: `ℹ fail 4`, `# tests 5`, `1..3`, `TAP version 13`.
  /^[#ℹ] (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)\b/,
  /^\d+\.\.\d+$/,
  /^TAP version \d+$/,
  /^✖ failing tests:$/,
  /^test at \S/,
  // Mocha: `2 passing (5ms)`.
  /^\d+ (?:passing|failing|pending)\b/,
  // cargo: `running 5 tests`, `test result: FAILED.`, `failures:`, build status lines.
  /^running \d+ tests?$/,
  /^test result: /,
  /^failures:$/,
  /^error: test failed/,
  /^(?:Finished|Running|Compiling|Doc-tests)\s/,
  // go: `FAIL`, `FAIL\texample.com/m\t0.002s`, `exit status 1`.
  /^FAIL$/,
  /^FAIL\s+\S+\s+(?:\d+(?:\.\d+)?s|\[[^\]]*\])$/,
  /^exit status \d+$/,
  // pytest session header and progress: `collected 7 items`, `tests/test_x.py .FF.  [100%]`.
  /^(?:platform|rootdir|cachedir|plugins|configfile|benchmark):? /,
  /^collect(?:ed|ing) \d+ items?/,
  /^\S+\.py [.EFXsx]+(?:\s+\[\s*\d+%\])?$/,
  // unittest: `Ran 3 tests in 0.001s`, `FAILED (failures=2)`.
  /^Ran \d+ tests? in /,
  /^FAILED \((?:failures|errors)=/,
  // npm's own footer.
  /^npm (?:ERR!|error)/,
];

/**
 * Whether a line closes the failure being read: a summary or a banner with text in it
 * (`=== FAILURES ===`, `⎯⎯ Failed Tests 6 ⎯⎯`, `⎯⎯[1/6]⎯`). Bare rules (`-----`) do not close,
 * because unittest puts one between a failure's header and its traceback.
 */
export function isClosingLine(trimmed: string): boolean {
  if (isRule(trimmed)) return /[^\s*=_~#⎯─━-]/.test(trimmed);
  if (trimmed.startsWith("❯ ") && /\(\d+ tests?\b/.test(trimmed)) return true;
  return SUMMARY_PATTERNS.some((pattern) => pattern.test(trimmed));
}

/** A line that starts with a run of rule characters (`===`, `⎯⎯⎯`, `---`). */
function isRule(trimmed: string): boolean {
  return /^[*=_~#⎯─━-]{3}/.test(trimmed);
}

/**
 * Headers of captured console output (Jest `console.error`, Vitest `stderr | file > test`, and
 * the `● Console` heading Jest prints above a file's captures when workers buffered them).
 * What follows is the program talking, not the runner reporting a failure.
 */
export function isConsoleHeader(trimmed: string): boolean {
  return (
    /^console\.(?:log|error|warn|info|debug|trace)$/.test(trimmed) ||
    trimmed === "● Console" ||
    /^(?:stdout|stderr) \| \S/.test(trimmed)
  );
}
