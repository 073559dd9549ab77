import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { indentOf } from "../extractor/line-blocks.js";
import { assignability, findingFailures, type Finding } from "./findings.js";

/** tsc's plain diagnostic: `src/a.ts(12,5): error TS2322: message`. */
const PLAIN = /^(\S[^()]*)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;
/** tsc's `--pretty` diagnostic: `src/a.ts:12:5 - error TS2322: message`. */
const PRETTY = /^(\S[^:]*(?::[\\/][^:]*)?):(\d+):(\d+) - (error|warning) (TS\d+): (.*)$/;
/** A diagnostic about no file (`error TS5023: Unknown compiler option 'x'.`). */
const GLOBAL = /^(error|warning) (TS\d+): (.*)$/;
/** tsc's closing count: `Found 6 errors in 2 files.`, `Found 1 error in src/a.ts:3`, `Found 2 errors.`. */
const SUMMARY = /^Found (\d+) errors?\b/m;

/**
 * The TypeScript compiler (`tsc`, `tsc --noEmit`, `vue-tsc`): plain diagnostics
 * (`file(line,col): error TSxxxx: message`), the `--pretty` form (`file:line:col - error
 * TSxxxx: message`, code frames and related locations below it) and `Found N errors`. Each
 * diagnostic is a finding with its column and its code as the rule; a message's chain (the
 * indented lines below its first) is kept after it. `Type 'A' is not assignable to type 'B'`
 * gives the sides: B expected, A received, quotes as printed.
 */
export const tscParser: TestOutputParser = {
  name: "tsc",
  detect: (output) =>
    (output.includes(": error TS") || output.includes(" - error TS")) &&
    logLines(output).some((line) => diagnostic(line) !== null),
  parse: (output): readonly Failure[] => findingFailures(diagnostics(output)),
  reportedFailures: (output) => {
    const count = SUMMARY.exec(output)?.[1];
    return count === undefined ? null : Number(count);
  },
};

/** Every diagnostic, with the chain of its message. */
function diagnostics(output: string): Finding[] {
  const lines = logLines(output);
  const found: Finding[] = [];
  lines.forEach((line, index) => {
    const head = diagnostic(line);
    if (head === null) return;
    const chain = chainBelow(lines, index);
    const message = chain.length === 0 ? head.message : `${head.message} ${chain.join(" ")}`;
    found.push({ ...head, message, ...(assignability(head.message, "'") ?? {}) });
  });
  return found;
}

/** A diagnostic's first line as a finding, in either form, or null. */
function diagnostic(line: string): Finding | null {
  const match = PLAIN.exec(line) ?? PRETTY.exec(line);
  if (match !== null) {
    return {
      file: match[1] ?? null,
      line: Number(match[2]),
      column: Number(match[3]),
      rule: match[5],
      message: match[6] ?? "",
      severity: match[4] === "warning" ? "warning" : "error",
    };
  }
  const global = GLOBAL.exec(line);
  return global === null
    ? null
    : {
        file: null,
        line: null,
        rule: global[2],
        message: global[3] ?? "",
        severity: global[1] === "warning" ? "warning" : "error",
      };
}

/** The indented lines right under a diagnostic: its message's chain (`  Types of property 'id' are incompatible.`). */
function chainBelow(lines: readonly string[], index: number): string[] {
  const chain: string[] = [];
  for (let cursor = index + 1; cursor < lines.length && chain.length < 10; cursor += 1) {
    const line = lines[cursor] ?? "";
    if (line.trim() === "" || indentOf(line) === 0) break;
    chain.push(line.trim());
  }
  return chain;
}
