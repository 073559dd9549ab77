import { describe, expect, it } from "vitest";
import { builtinParsers } from "./builtin-parsers.js";
import { failureOf } from "../failure-of.js";
import { flake8Parser } from "./flake8.js";
import { mypyParser } from "./mypy.js";
import { ruffParser } from "./ruff.js";
import { rustcParser } from "./rustc.js";
import { cargoParser } from "./cargo.js";

/** The first built-in parser that reads `output`, as `testFeedback` picks it. */
const detected = (output: string) => builtinParsers.find((parser) => parser.detect(output))?.name;

const MYPY_PRETTY = `app/users.py:17: error: Item "None" of "Optional[User]" has no attribute "name"
 [union-attr]
        return user.name.title()
               ^~~~~~~~~
app/users.py:17: note: Use "if user is not None" to narrow the type
app/a.py:3:5: error: Incompatible return value type (got "str", expected
"int")  [return-value]
Found 2 errors in 2 files (checked 3 source files)
`;

// ruff's documented formats; ruff is not packaged for this machine, so these are hand-written.
const RUFF_CONCISE = `app/report.py:1:8: F401 [*] \`os\` imported but unused
app/report.py:12:89: E501 Line too long (101 > 88)
Found 2 errors.
[*] 1 fixable with the \`--fix\` option.
`;
const RUFF_FULL_OLD = `app/report.py:1:8: F401 [*] \`os\` imported but unused
  |
1 | import os
  |        ^^ F401
2 | import sys
  |
  = help: Remove unused import: \`os\`

Found 1 error.
[*] 1 fixable with the \`--fix\` option.
`;
const RUFF_FULL = `F401 [*] \`os\` imported but unused
 --> app/report.py:1:8
  |
1 | import os
  |        ^^
2 | import sys
  |
help: Remove unused import: \`os\`

invalid-syntax: Expected an expression
 --> app/broken.py:3:9
  |
3 | x = (1,
  |         ^
  |

Found 3 errors (1 fixed, 2 remaining).
`;

const RUSTC = `   Compiling shop v0.1.0 (/work/shop)
warning: unused variable: \`unused\`
  --> src/lib.rs:23:13
   |
23 |         let unused = price * 2;
   |             ^^^^^^ help: if this is intentional, prefix it with an underscore: \`_unused\`
   |
   = note: \`#[warn(unused_variables)]\` (part of \`#[warn(unused)]\`) on by default

error[E0308]: mismatched types
 --> src/lib.rs:2:22
  |
2 |     let n: u32 = items.len();
  |            ---   ^^^^^^^^^^^ expected \`u32\`, found \`usize\`
  |            |
  |            expected due to this

error: could not compile \`shop\` (lib) due to 1 previous error; 1 warning emitted
`;

describe("type checkers, linters and compilers: findings with file:line:col, rule and message", () => {
  it("mypy --pretty: wrapped messages joined, the code as the rule, notes and source quotes dropped", () => {
    expect(detected(MYPY_PRETTY)).toBe("mypy");
    expect(mypyParser.parse(MYPY_PRETTY)).toEqual([
      failureOf({
        file: "app/users.py",
        line: 17,
        rule: "union-attr",
        message: 'Item "None" of "Optional[User]" has no attribute "name"',
      }),
      failureOf({
        file: "app/a.py",
        line: 3,
        column: 5,
        rule: "return-value",
        message: 'Incompatible return value type (got "str", expected "int")',
      }),
    ]);
    expect(mypyParser.reportedFailures?.(MYPY_PRETTY)).toBe(2);
    expect(mypyParser.reportedFailures?.("Success: no issues found in 3 source files")).toBe(0);
  });

  it("mypy: a message ends at its error code; mypy's notices about its run are no message's words", () => {
    const output = [
      "pyproject.toml: [mypy]: Unrecognized option: strict_bytes = True",
      'tests/test_misc.py:80: error: Argument 1 to "loads" has incompatible type "bytes"; expected "str"  [arg-type]',
      "Warning: unused section(s) in pyproject.toml: module = ['fuzz', 'run']",
      'app/a.py:3: error: Incompatible return value type (got "str", expected "int")',
      "Warning: unused section(s) in setup.cfg: module = ['x']",
      "Found 2 errors in 2 files (checked 9 source files)",
    ].join("\n");
    expect(mypyParser.parse(output)).toEqual([
      failureOf({
        file: "tests/test_misc.py",
        line: 80,
        rule: "arg-type",
        message: 'Argument 1 to "loads" has incompatible type "bytes"; expected "str"',
      }),
      // Under --hide-error-codes there is no code to end the message; the notice still does.
      failureOf({
        file: "app/a.py",
        line: 3,
        message: 'Incompatible return value type (got "str", expected "int")',
      }),
    ]);
  });

  it("ruff: concise lines, the full format before and since 0.12, and its own count", () => {
    for (const output of [RUFF_CONCISE, RUFF_FULL_OLD, RUFF_FULL])
      expect(detected(output)).toBe("ruff");
    expect(ruffParser.parse(RUFF_CONCISE)).toEqual([
      failureOf({
        file: "app/report.py",
        line: 1,
        column: 8,
        rule: "F401",
        message: "`os` imported but unused",
      }),
      failureOf({
        file: "app/report.py",
        line: 12,
        column: 89,
        rule: "E501",
        message: "Line too long (101 > 88)",
      }),
    ]);
    expect(ruffParser.parse(RUFF_FULL_OLD)).toHaveLength(1);
    expect(ruffParser.parse(RUFF_FULL)).toEqual([
      failureOf({
        file: "app/report.py",
        line: 1,
        column: 8,
        rule: "F401",
        message: "`os` imported but unused",
      }),
      failureOf({
        file: "app/broken.py",
        line: 3,
        column: 9,
        rule: "invalid-syntax",
        message: "Expected an expression",
      }),
    ]);
    expect(ruffParser.reportedFailures?.(RUFF_FULL)).toBe(2);
    expect(ruffParser.reportedFailures?.("All checks passed!")).toBe(0);
  });

  it("flake8: its --count total, and no claim on mypy's or pytest's lines", () => {
    const output =
      "./app/a.py:1:1: F401 'os' imported but unused\n./app/a.py:3:80: E501 line too long (90 > 79 characters)\n2\n";
    expect(flake8Parser.parse(output).map((finding) => [finding.file, finding.rule])).toEqual([
      ["app/a.py", "F401"],
      ["app/a.py", "E501"],
    ]);
    expect(flake8Parser.reportedFailures?.(output)).toBe(2);
    expect(
      flake8Parser.detect('app/a.py:3:5: error: Name "x" is not defined  [name-defined]'),
    ).toBe(false);
  });

  it("rustc: errors before warnings, codes and lints as rules, the type label as values", () => {
    expect(detected(RUSTC)).toBe("rustc");
    expect(rustcParser.parse(RUSTC)).toEqual([
      failureOf({
        file: "src/lib.rs",
        line: 2,
        column: 22,
        rule: "E0308",
        expected: "`u32`",
        received: "`usize`",
        message: "error: mismatched types",
      }),
      failureOf({
        file: "src/lib.rs",
        line: 23,
        column: 13,
        rule: "unused_variables",
        message: "warning: unused variable: `unused`",
      }),
    ]);
    expect(rustcParser.reportedFailures?.(RUSTC)).toBe(2);
  });

  it("cargo test: a failed build's errors carry column and code; test results are summed over binaries", () => {
    expect(cargoParser.parse(RUSTC)).toMatchObject([{ test: "shop", column: 22, rule: "E0308" }]);
    const results =
      "test result: FAILED. 3 passed; 2 failed; 0 ignored\ntest result: FAILED. 0 passed; 1 failed; 0 ignored\n";
    expect(cargoParser.reportedFailures?.(results)).toBe(3);
  });
});
