/**
 * A line that reports a failure, or sits inside a failure report, in the output of the runners
 * loopgate reads: Jest/Vitest (`FAIL`, `●`, `✕`/`×`, `Expected`/`Received`, `AssertionError`,
 * `Snapshot`), node:test and TAP (`not ok`, `✖`), Mocha (`N) title`, `AssertionError`),
 * pytest (`FAILED`, `E   `, `____ test ____`), go test (`--- FAIL`, `panic:`), cargo
 * (`panicked at`, `left:`/`right:`, `---- name stdout ----`), JUnit XML (`<failure`,
 * `<error`), JSON events (`"status":"failed"`, `"Action":"fail"`), thrown errors (`Error:`,
 * `TypeError`, `Traceback`), compile errors (`error[E…]`, `error TS…`, `SyntaxError`),
 * timeouts, the `✘` of ava, uvu, Playwright and the JUnit console launcher, and linters'
 * findings: ESLint's `[Warning/rule]` (unix) and `, Warning - ` (compact) forms, Biome's `━━━`
 * headers, pyright's ` - warning: `. Every branch is a plain alternative with no nested
 * quantifier, so a line costs linear time (the line is already cut to 4,000 characters). No `u`
 * flag: every character it names is in the Basic Multilingual Plane, and without it V8 matches a
 * line that reports nothing (most lines it sees) about 40% faster (measured on 800,000 lines).
 */
const FAILURE_LINE =
  /FAIL|[✕×✗✖●✘]|\bnot ok\b|^E {3}|^_{3,} |^-{4} |panic|Error\b|Exception\b|\berror(?:\[|:| TS\d)|Traceback|\bassert|\b(?:Expected|Received|expected|received|actual|Snapshot)\b|\b(?:left|right):|<failure|<error|"status": ?"failed"|"Action": ?"fail"|timed out|[Tt]imeout\b|^\s*\d+\) \S|\[Warning[/\]]|, Warning - |━━━| - warning: /;

/**
 * Failure lines that start a line, kept apart so that their regular expression is anchored and
 * costs one attempt per line: unittest's `ERROR:`, doctest's `Failed example:`/`Got:`, RSpec's
 * `got:` and rerun lines, findings (`path:12:5: …`, rustc's `warning:` and ` --> `, ESLint
 * stylish's `  4:20  warning  …`, Biome's `  ! …` warnings), Maven's `[ERROR]` lines, PHPUnit's
 * `There were 2 failures:` and `Failed asserting`, go test's log lines (`    x_test.go:33: …`,
 * which `-v` prints under `=== RUN` lines far above their `--- FAIL`).
 */
const FAILURE_LINE_START =
  /^(?:ERROR: |Failed example:|Got:$|[^\s:]+:\d+:\d+: |warning(?:\[|: )|\[ERROR\] |rspec \S+:\d+ # |There (?:was|were) \d+ (?:errors?|failures?):|\s*(?:got: |--> \S+:\d+|Failed asserting|\d+:\d+ +(?:error|warning) |[!⚠] \S|[^\s:]+\.go:\d+: ))/u;

/**
 * Whether the line `text.slice(start, end)` is a passing test's line (`✓ title`, `ok 3 - title`,
 * `PASS file`), which never looks like a failure, whatever its title says. Told by its first
 * characters, without copying the line out of `text`: most lines of a large log are these.
 */
export function isPassingLine(text: string, start: number, end: number): boolean {
  let first = start;
  while (first < end && text.charCodeAt(first) === 0x20) first += 1;
  const mark = first < end ? text.charCodeAt(first) : -1;
  // `✓`/`✔` (Jest, Vitest, Mocha, node:test), `ok ` (TAP), Jest's `PASS file` header.
  return (
    mark === 0x2713 ||
    mark === 0x2714 ||
    (mark === 0x6f && first + 3 <= end && text.startsWith("ok ", first)) ||
    (mark === 0x50 && first + 5 <= end && text.startsWith("PASS ", first))
  );
}

/**
 * Whether `line`, not a passing test's line, looks like part of a failure report, so the lines
 * around it are worth keeping.
 */
export function reportsFailure(line: string): boolean {
  return FAILURE_LINE.test(line) || FAILURE_LINE_START.test(line);
}
