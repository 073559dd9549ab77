import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { truncateCodePoints } from "../clean/code-points.js";
import { failureOf } from "../failure-of.js";
import { parseLocation, type SourceLocation } from "../extractor/stack-frames.js";
import { isRubyInternal } from "./ruby-frames.js";
import { firstCountsIn } from "./reported-count.js";
import { MAX_FIELD_LENGTH, cappedValues } from "../field-length.js";

/** The closing count: `7 examples, 5 failures, 2 pending`, `0 examples, 0 failures, 2 errors occurred outside of examples`. */
const TOTALS =
  /^\d+ examples?, (\d+) failures?(?:, \d+ pending)?(?:, (\d+) errors? occurred outside of examples)?$/;

/** A numbered report under `Failures:`: `  2) Cart#payload keeps the numeric user id`. */
const NUMBERED = /^\s{2}(\d+)\) (\S.*)$/;

/** A rerun line: `rspec ./spec/cart_spec.rb:7 # Cart#payload keeps the numeric user id`. */
const RERUN = /^rspec (\S+:\d+) # (.+)$/;

/** A backtrace line: `# ./lib/cart.rb:23:in \`checkout!'`. */
const FRAME = /^# (\S+?:\d+)(?::in |$)/;

/** A file that did not load: `An error occurred while loading ./spec/price_spec.rb.` */
const LOAD_ERROR = /^An error occurred while loading (\S+?)\.?(?: - Did you mean\?)?$/;

/**
 * RSpec 3's progress and documentation output: one failure per numbered report under
 * `Failures:` (pending examples, listed under `Pending:`, are not failures), named by its full
 * description, at the first backtrace frame in the project (gems and Ruby's own files skipped),
 * with the matcher's words (`expected \`[].empty?\` to be falsey, got true`) or the raised error
 * (`ArgumentError: cart is empty`) as the message and `expected:`/`got:` as the values. A spec
 * file that failed to load is a failure named by the file.
 */
export const rspecParser: TestOutputParser = {
  name: "rspec",
  detect: (output) => firstCountsIn(logLines(output), TOTALS) !== null,
  parse: (output) => parseRspec(logLines(output)),
  reportedFailures: (output) => firstCountsIn(logLines(output), TOTALS),
};

/** A report while its lines are read. */
interface Report {
  readonly test: string;
  readonly loading: string | null;
  readonly lines: string[];
}

/** The reports under `Failures:` and the files that did not load, each with its lines. */
function parseRspec(lines: readonly string[]): Failure[] {
  const reports: Report[] = [];
  let current: Report | null = null;
  let section: "pending" | "failures" | "other" = "other";
  for (const line of lines) {
    const trimmed = line.trim();
    const loading = LOAD_ERROR.exec(trimmed);
    if (loading?.[1] !== undefined) {
      const file = loading[1].replace(/^\.\//, "");
      current = { test: file, loading: file, lines: [] };
      reports.push(current);
      continue;
    }
    if (
      trimmed ===
        "Pending: (Failures listed here are expected and do not affect your suite's status)" ||
      trimmed === "Pending:"
    ) {
      section = "pending";
      current = null;
      continue;
    }
    if (trimmed === "Failures:") {
      section = "failures";
      current = null;
      continue;
    }
    if (/^(?:Finished in |Failed examples:$|No examples found\.$)/.test(trimmed)) {
      section = "other";
      current = null;
      continue;
    }
    const numbered = section === "failures" ? NUMBERED.exec(line) : null;
    if (numbered?.[2] !== undefined) {
      current = { test: numbered[2], loading: null, lines: [] };
      reports.push(current);
      continue;
    }
    if (section !== "pending") current?.lines.push(line);
  }
  const declared = declarations(lines);
  return reports.flatMap((report) =>
    aggregated(report).map((part) => reportFailure(part, declared.get(report.test) ?? null)),
  );
}

/**
 * An example under `aggregate_failures` reports `Got 6 failures:` and then each as `5.1)
 * Failure/Error: …`: each is a failure of the example, with its own values and frames.
 */
function aggregated(report: Report): Report[] {
  const parts: Report[] = [];
  for (const line of report.lines) {
    const sub = /^\s*\d+\.\d+\) (Failure\/Error: .*)$/.exec(line);
    if (sub?.[1] !== undefined) parts.push({ ...report, lines: [sub[1]] });
    else parts.at(-1)?.lines.push(line);
  }
  return parts.length > 0 ? parts : [report];
}

/** Where each failed example is declared, from the `Failed examples:` rerun lines. */
function declarations(lines: readonly string[]): Map<string, SourceLocation> {
  const found = new Map<string, SourceLocation>();
  for (const line of lines) {
    const rerun = RERUN.exec(line.trim());
    const location = rerun?.[1] === undefined ? null : parseLocation(rerun[1]);
    if (rerun?.[2] !== undefined && location !== null && !found.has(rerun[2])) {
      found.set(rerun[2], location);
    }
  }
  return found;
}

/** One report as a failure. */
function reportFailure(report: Report, declared: SourceLocation | null): Failure {
  const body = report.lines.map((line) => line.trim());
  const frames = body.flatMap((line) => {
    const frame = FRAME.exec(line);
    const location = frame?.[1] === undefined ? null : parseLocation(frame[1]);
    return location === null || isRubyInternal(location.file) ? [] : [location];
  });
  const values = valuesOf(body);
  const message = messageOf(body);
  // A file that did not parse names its own line in the message: `/app/spec/a_spec.rb:6: syntax error`.
  const inMessage = report.loading === null ? null : messageLocation(message, report.loading);
  const where = inMessage ?? frames[0] ?? declared;
  return failureOf({
    test: report.test,
    file: where?.file.replace(/^\.\//, "") ?? report.loading,
    line: where?.line ?? null,
    ...(values ?? {}),
    message: truncateCodePoints(message, MAX_FIELD_LENGTH),
  });
}

/**
 * The failure's words: the raised error's class and message (`ArgumentError:` with the message
 * on the line below), else the matcher's words under `Failure/Error:`, else (an `eq` report,
 * whose values say the rest) the failing line itself.
 */
function messageOf(body: readonly string[]): string {
  const start = body.findIndex((line) => line.startsWith("Failure/Error:"));
  // A failing line too long for one line is printed alone below `Failure/Error:`, over several
  // lines up to a blank one (`expect(…)` then `.to eq("HTTP response code")`).
  const code = body[start] === "Failure/Error:" ? failingCode(body, start + 1) : [];
  const failing = code.length === 0 ? (body[start] ?? "") : `Failure/Error: ${joinedCode(code)}`;
  const after = body.slice(start + 1 + code.length).filter((line) => line !== "");
  const errorClass = after.findIndex(isErrorClassLine);
  if (errorClass >= 0) {
    const name = (after[errorClass] ?? "").slice(0, -1);
    const text = after[errorClass + 1] ?? "";
    return FRAME.test(text) ? name : `${name}: ${text}`;
  }
  const words = after[0] ?? "";
  return words === "" || FRAME.test(words) || valuesOf(after) !== null ? failing : words;
}

/** The lines of a failing line printed below a bare `Failure/Error:`, up to the blank line after them. */
function failingCode(body: readonly string[], from: number): string[] {
  const end = body.indexOf("", from);
  const lines = body.slice(from, end < 0 ? body.length : end);
  return lines.length > 1 && lines.length <= MAX_CODE_LINES ? lines : [];
}

/** Most lines of one failing line that RSpec splits: a longer block is the error's own words. */
const MAX_CODE_LINES = 6;

/** The failing line's parts as one line: a chained call (`.to eq(…)`) joined without a space. */
function joinedCode(lines: readonly string[]): string {
  return lines.reduce((code, line) => (line.startsWith(".") ? code + line : `${code} ${line}`));
}

/** An error's class alone on its line, its message below: `ArgumentError:`, `NoMethodError:`. */
function isErrorClassLine(line: string): boolean {
  const name = line.slice(0, -1);
  if (!line.endsWith(":") || !/^[A-Z][\w:]*$/.test(name)) return false;
  // The kind is in the class's own name, its last `::` segment; looked up by position, since a
  // pattern backtracking to each `Error` in a long name costs quadratic time.
  const own = name.slice(Math.max(1, name.lastIndexOf(":") + 1));
  return ["Error", "Exception", "Interrupt"].some((kind) => own.includes(kind));
}

/**
 * The two sides RSpec prints below the failing line: `expected: 123` and `got: "123"` (`eq`,
 * `eql`, `be >`), or without colons on two lines of their own, `expected true` then `got false`
 * (`be true`, `equal`).
 */
function valuesOf(body: readonly string[]): { expected: string; received: string } | null {
  const expected = body.find((line) => line.startsWith("expected: "));
  const got = body.find((line) => line.startsWith("got: "));
  if (expected !== undefined && got !== undefined) {
    return cappedValues(
      expected.slice("expected: ".length),
      withoutOperator(got.slice("got: ".length)),
    );
  }
  const at = body.findIndex((line) => line.startsWith("expected "));
  const next = body[at + 1];
  return at >= 0 && next?.startsWith("got ") === true
    ? cappedValues((body[at] ?? "").slice("expected ".length), next.slice("got ".length))
    : null;
}

/** A value without the operator the old `should ==` syntax names after it: `"0" (using ==)`. */
function withoutOperator(value: string): string {
  const at = value.lastIndexOf(" (using ");
  return at >= 0 && value.indexOf(")", at) === value.length - 1 ? value.slice(0, at) : value;
}

/** The `path:line:` a load error's message starts with, when it is the file that failed to load. */
function messageLocation(message: string, file: string): SourceLocation | null {
  const place = /^\w+: (\S+?:\d+):/.exec(message)?.[1];
  const location = place === undefined ? null : parseLocation(place);
  return location !== null && location.file.endsWith(file) ? { ...location, file } : null;
}
