import { describe, expect, it } from "vitest";
import { failureOf } from "../failure-of.js";
import { testUnitParser } from "./test-unit.js";
// A real run: ruby/rake's own suite with three bugs injected.
import RAKE from "../../../../fixtures/real-world/test-unit/rake-ext-dot-partial-dirs-sub/output.txt?raw";

describe("testUnitParser", () => {
  it("reads each failure and error report of a real run, named, placed and with its values", () => {
    expect(testUnitParser.detect(RAKE)).toBe(true);
    expect(testUnitParser.reportedFailures?.(RAKE)).toBe(8);
    const failures = testUnitParser.parse(RAKE);
    expect(failures.map((failure) => failure.test)).toEqual([
      "test_string_ext(TestRakeFileList)",
      "test_sub(TestRakeFileList)",
      "test_sub_with_block(TestRakeFileList)",
      "test_9d_returns_partial_dirname(TestRakePathMap)",
      "test_complex_patterns(TestRakePathMap)",
      "test_pathmap_partial(TestRakePathMapPartial)",
      "test_non_extension_rule_name_refers_to_file(TestRakeRules)",
      "test_rule_with_one_arg_method_prereq(TestRakeRules)",
    ]);
    expect(failures[0]).toEqual(
      failureOf({
        test: "test_string_ext(TestRakeFileList)",
        file: "/tmp/rake/test/test_rake_file_list.rb",
        line: 336,
        expected: '<"one.net">',
        received: '<"one..net">',
        message: '<"one.net"> expected but was <"one..net">',
      }),
    );
    // An error below its header, at its raise, the test method's frame as the test's place.
    expect(failures[1]).toEqual(
      failureOf({
        test: "test_sub(TestRakeFileList)",
        file: "/tmp/rake/lib/rake/file_list.rb",
        line: 243,
        message: 'NoMethodError: undefined method `subst\' for "abc.c":String',
        testLocation: { file: "/tmp/rake/test/test_rake_file_list.rb", line: 281 },
      }),
    );
    // An error on its header's line.
    expect(failures[6]).toMatchObject({
      file: "/tmp/rake/lib/rake/task_manager.rb",
      line: 59,
      message:
        "RuntimeError: Don't know how to build task 'abc' (See the list of available tasks with `rake --tasks`)",
      testLocation: { file: "/tmp/rake/test/test_rake_rules.rb", line: 153 },
    });
  });

  it("never reads a pending or omitted test as a failure, nor minitest's totals as its own", () => {
    const output = `===============================================================================
Pending: test_later(TestCart): not yet
/app/test/test_cart.rb:9:in \`test_later'
===============================================================================
Omission: test_windows(TestCart): only on Windows
===============================================================================
2 tests, 0 assertions, 0 failures, 0 errors, 1 pendings, 1 omissions, 0 notifications
`;
    expect(testUnitParser.parse(output)).toEqual([]);
    expect(testUnitParser.detect("1 runs, 1 assertions, 1 failures, 0 errors, 0 skips")).toBe(
      false,
    );
  });
});
