import { describe, expect, it } from "vitest";
import { unittestParser } from "./unittest.js";
import { pytestParser } from "./pytest.js";
import { failureOf } from "../failure-of.js";

const RULE = "=".repeat(70);
const PART = "-".repeat(70);

/** A unittest run's output: the reports given, then the closing count and verdict. */
const run = (verdict: string, ...reports: string[]): string =>
  [
    "F.E",
    ...reports.map((report) => `${RULE}\n${report}`),
    PART,
    "Ran 3 tests in 0.01s",
    "",
    verdict,
    "",
  ].join("\n");

const CHAINED = `ERROR: test_load (tests.test_cfg.ConfigTest.test_load)
Loads the default file.
${PART}
Traceback (most recent call last):
  File "/src/app/cfg.py", line 8, in load
    return json.loads(text)
  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/src/tests/test_cfg.py", line 12, in test_load
    load("")
  File "/src/app/cfg.py", line 10, in load
    raise ConfigError("empty config") from None
app.cfg.ConfigError: empty config
`;

const TRUNCATED = `FAIL: test_rows (tests.test_rows.RowsTest.test_rows)
${PART}
Traceback (most recent call last):
  File "/src/tests/test_rows.py", line 9, in test_rows
    self.assertEqual(rows(), expected)
AssertionError: Lists differ: ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', [truncated]... != ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'iota', [truncated]...

First differing element 7:
'theta'
'iota'

- ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'kappa']
+ ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'iota', 'kappa']
`;

const WANTED_FIRST = `FAIL: test_defaults (__main__.TestCommandParams.test_defaults)
${PART}
Traceback (most recent call last):
  File "/src/test.py", line 596, in test_defaults
    self.assertParamsMatch(self.DEFAULTS, params)
  File "/src/test.py", line 592, in assertParamsMatch
    self.assertEqual(expected, reduced_checked)
AssertionError: {'ent[102 chars]er': False, 'separator': '-'} != {'ent[102 chars]er': None, 'separator': '-'}
  {'decimal': True,
-  'save_order': False,
?                ^^^^

+  'save_order': None,
?                ^^^

   'separator': '-'}
`;

const ALMOST = `FAIL: test_ratio (tests.test_stats.StatsTest.test_ratio)
${PART}
Traceback (most recent call last):
  File "/src/tests/test_stats.py", line 5, in test_ratio
    self.assertAlmostEqual(ratio(1, 3), 0.5, msg="rounded")
AssertionError: 0.3333333333333333 != 0.5 within 7 places (0.16666666666666669 difference) : rounded
`;

const DOCTESTS = `FAIL: slugify (app.text)
Doctest: app.text.slugify
${PART}
Traceback (most recent call last):
  File "/usr/lib/python3.11/doctest.py", line 2222, in runTest
    raise self.failureException(self.format_failure(new.getvalue()))
AssertionError: Failed doctest test for app.text.slugify
  File "/src/app/text.py", line 3, in slugify

${PART}
File "/src/app/text.py", line 9, in app.text.slugify
Failed example:
    slugify("A b")
Expected:
    'a-b'
Got:
    'a_b'
${PART}
File "/src/app/text.py", line 11, in app.text.slugify
Failed example:
    slugify("")
Expected nothing
Got:
    ''
`;

describe("unittestParser", () => {
  it("reads a chained exception's last traceback: its last user frame and its own message", () => {
    expect(unittestParser.parse(run("FAILED (errors=1)", CHAINED))).toEqual([
      failureOf({
        test: "test_load (tests.test_cfg.ConfigTest.test_load)",
        file: "/src/app/cfg.py",
        line: 10,
        message: "app.cfg.ConfigError: empty config",
        testLocation: { file: "/src/tests/test_cfg.py", line: 12 },
      }),
    ]);
  });

  it("places a check made in a shared helper at the test's line that called it", () => {
    const helped = `FAIL: testUniqueIds (tests.test_toc.TestTOC.testUniqueIds)
${PART}
Traceback (most recent call last):
  File "/src/tests/test_toc.py", line 159, in testUniqueIds
    self.assertMarkdownRenders(
  File "/src/markdown/test_tools.py", line 77, in assertMarkdownRenders
    self.assertMultiLineEqual(output, expected)
AssertionError: 'header_0' != 'header_1'
`;
    expect(unittestParser.parse(run("FAILED (failures=1)", helped))).toEqual([
      failureOf({
        test: "testUniqueIds (tests.test_toc.TestTOC.testUniqueIds)",
        file: "/src/tests/test_toc.py",
        line: 159,
        expected: "'header_1'",
        received: "'header_0'",
        message: "AssertionError: 'header_0' != 'header_1'",
      }),
    ]);
  });

  it("reads values unittest cut from its diff, and assertAlmostEqual's values without its note", () => {
    const [rows, ratio] = unittestParser.parse(run("FAILED (failures=2)", TRUNCATED, ALMOST));
    expect(rows).toMatchObject({
      file: "/src/tests/test_rows.py",
      line: 9,
      received: "['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'kappa']",
      expected: "['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'iota', 'kappa']",
    });
    expect(ratio).toMatchObject({ received: "0.3333333333333333", expected: "0.5" });
  });

  it("reads `- first` as the wanted side when the call passes the wanted value first (python-slugify)", () => {
    const [failure] = unittestParser.parse(run("FAILED (failures=1)", WANTED_FIRST));
    expect(failure).toMatchObject({
      file: "/src/test.py",
      line: 596,
      expected: " 'save_order': False,",
      received: " 'save_order': None,",
    });
  });

  it("reads the first differing lines of two strings unittest cut in the middle ([90 chars]), else the sides as cut (mistletoe, markdown)", () => {
    const report = (test: string, body: string) =>
      `FAIL: ${test} (tests.test_md.MdTest.${test})\n${PART}\nTraceback (most recent call last):\n  File "/src/tests/test_md.py", line 5, in ${test}\n    self.assertEqual(output, expected)\n${body}`;
    const cutWithDiff = report(
      "test_quote",
      [
        "AssertionError: '>a quote\\n>>and a nested quote[90 chars]e.\\n' != '> a quote\\n> > and a nested qu[97 chars]e.\\n'",
        "- >a quote",
        "+ > a quote",
        "?  +",
      ].join("\n"),
    );
    const cutAlone = report(
      "test_toc",
      "AssertionError: '<div[230 chars]er-3_0\">H</a>' != '<div[230 chars]er-3_1\">H</a>'\nDiff is 1136 characters long. Set self.maxDiff to None to see it.",
    );
    const [quote, toc] = unittestParser.parse(run("FAILED (failures=2)", cutWithDiff, cutAlone));
    expect(quote).toMatchObject({ expected: "> a quote", received: ">a quote" });
    expect(toc).toMatchObject({
      expected: "'<div[230 chars]er-3_1\">H</a>'",
      received: "'<div[230 chars]er-3_0\">H</a>'",
    });
  });

  it("reads assertListEqual's sides without its `Lists differ:` label (nameparser)", () => {
    const lists = `FAIL: test_initials_list (tests.InitialsTestCase.test_initials_list)\n${PART}\nTraceback (most recent call last):\n  File "/src/tests.py", line 2338, in test_initials_list\n    self.m(hn.initials_list(), ["A", "B", "P"], hn)\nAssertionError: Lists differ: ['A', 'B', 'B'] != ['A', 'B', 'P']\n\nFirst differing element 2:\n'B'\n'P'`;
    const [failure] = unittestParser.parse(run("FAILED (failures=1)", lists));
    expect(failure).toMatchObject({ expected: "['A', 'B', 'P']", received: "['A', 'B', 'B']" });
  });

  it("reads two shortened lists by their first differing element, not a diff line with its comma (simplejson)", () => {
    const lists = `FAIL: test_infile_stdout (simplejson.tests.test_tool.TestTool.test_infile_stdout)\n${PART}\nTraceback (most recent call last):\n  File "/src/simplejson/tests/test_tool.py", line 74, in test_infile_stdout\n    self.assertEqual(\nAssertionError: Lists differ: ['[',[185 chars]'        },', '    {'] != ['[',[185 chars]'    },', '    {']\n\nFirst differing element 13:\n'        },'\n'    },'\n\n  ['[',\n-  '        },',\n?   ----\n\n+  '    },',\n   ']']`;
    const [failure] = unittestParser.parse(run("FAILED (failures=1)", lists));
    expect(failure).toMatchObject({ expected: "'    },'", received: "'        },'" });
  });

  it("places a doctest at its first failing example, with what it expected and got", () => {
    expect(unittestParser.parse(run("FAILED (failures=1)", DOCTESTS))).toEqual([
      failureOf({
        test: "slugify (app.text)",
        file: "/src/app/text.py",
        line: 9,
        expected: "'a-b'",
        received: "'a_b'",
        message: "Failed doctest test for app.text.slugify",
      }),
    ]);
  });

  it("counts failures and errors from the verdict, skips and expected failures aside", () => {
    const output = run("FAILED (failures=2, errors=1, skipped=3, expected failures=1)", ALMOST);
    expect(unittestParser.reportedFailures?.(output)).toBe(3);
    expect(unittestParser.reportedFailures?.(run("OK (skipped=1)"))).toBe(0);
    expect(unittestParser.reportedFailures?.("no verdict")).toBeNull();
  });

  it("is not pytest's output, and pytest does not claim unittest's", () => {
    const output = run("FAILED (errors=1)", CHAINED);
    expect(unittestParser.detect(output)).toBe(true);
    expect(pytestParser.detect(output)).toBe(false);
    expect(unittestParser.detect("==== 1 failed in 0.1s ====\nRan 1 tests in 2s")).toBe(false);
  });

  it("says a bare AssertionError by the assert statement it failed (pyflakes)", () => {
    const output = `======================================================================
FAIL: test_importfrom_future (test.test_imports.TestImportationObject.test_importfrom_future)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/work/pyflakes/pyflakes/test/test_imports.py", line 95, in test_importfrom_future
    assert str(binding) == '__future__.print_function'
AssertionError

----------------------------------------------------------------------
Ran 1 test in 0.001s

FAILED (failures=1)
`;
    expect(unittestParser.parse(output)).toMatchObject([
      {
        line: 95,
        message: "AssertionError at `assert str(binding) == '__future__.print_function'`",
      },
    ]);
  });
});
