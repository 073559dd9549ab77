import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { failureOf } from "../failure-of.js";
import {
  readRustDiagnostic,
  reportedDiagnostics,
  type RustDiagnostic,
} from "./rust-diagnostics.js";

/**
 * rustc and clippy diagnostics as `cargo build`, `cargo check` and `cargo clippy` print them:
 * each error or warning with a ` --> file:line:col` place is a finding with `test: null`, its
 * place, its code (`E0308`) or lint (`clippy::needless_return`) as the rule, and its severity and
 * header as the message (`warning: unneeded \`return\` statement`, an error's label naming code
 * after it: `argument #3 of type \`u64\` is missing`); a type error's `expected
 * \`u32\`, found \`usize\`` label gives the values. Errors come before warnings: a build that
 * failed is fixed by its errors first. `cargo test` runs are the cargo parser's.
 */
export const rustcParser: TestOutputParser = {
  name: "rustc",
  detect: (output) => {
    const lines = logLines(output);
    return lines.some((_, index) => readRustDiagnostic(lines, index) !== null);
  },
  parse: (output) => {
    const diagnostics = readAll(logLines(output));
    return [
      ...diagnostics.filter((diagnostic) => diagnostic.severity === "error"),
      ...diagnostics.filter((diagnostic) => diagnostic.severity === "warning"),
    ].map(finding);
  },
  reportedFailures: (output) => {
    const counts = reportedDiagnostics(logLines(output));
    return counts === null ? null : counts.errors + counts.warnings;
  },
};

/** Every diagnostic of the output, in order. */
function readAll(lines: readonly string[]): RustDiagnostic[] {
  const found: RustDiagnostic[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const diagnostic = readRustDiagnostic(lines, index);
    if (diagnostic === null) continue;
    found.push(diagnostic);
    index = diagnostic.end;
  }
  return found;
}

/** A diagnostic as a finding. */
function finding(diagnostic: RustDiagnostic): Failure {
  return failureOf({
    file: diagnostic.location?.file ?? null,
    line: diagnostic.location?.line ?? null,
    expected: diagnostic.expected,
    received: diagnostic.found,
    message: `${diagnostic.severity}: ${diagnostic.text}${diagnostic.label === null ? "" : `: ${diagnostic.label}`}`,
    ...(diagnostic.column === null ? {} : { column: diagnostic.column }),
    ...(diagnostic.rule === null ? {} : { rule: diagnostic.rule }),
  });
}
