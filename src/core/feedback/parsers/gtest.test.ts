import { describe, expect, it } from "vitest";
import { failureOf } from "../failure-of.js";
import { gtestParser } from "./gtest.js";
// A real run: jbeder/yaml-cpp's own suite under `ctest --output-on-failure --verbose`.
import YAML_CPP from "../../../../fixtures/real-world/gtest/yaml-cpp-comment-indent-bool-case-tilde/output.txt?raw";

describe("gtestParser", () => {
  it("reads each failed check of a real CTest run once, named, placed and with its values", () => {
    expect(gtestParser.detect(YAML_CPP)).toBe(true);
    expect(gtestParser.reportedFailures?.(YAML_CPP)).toBe(4);
    const file = "/tmp/yaml-cpp/test/integration/emitter_test.cpp";
    const equality = "Expected equality of these values:";
    expect(gtestParser.parse(YAML_CPP)).toEqual([
      failureOf({
        test: "EmitterTest.MultiLineComment",
        file,
        line: 32,
        expected: "          # comment that couldn't possibly",
        received: "          #comment that couldn't possibly",
        message: equality,
      }),
      ...["EmitterTest.GlobalBoolFormatting", "EmitterTest.BoolFormatting"].map((test) =>
        failureOf({
          test,
          file,
          line: 32,
          expected: "- Off",
          received: "- OFF",
          message: equality,
        }),
      ),
      failureOf({
        test: "NodeTest.LoadTildeAsNull",
        file: "/tmp/yaml-cpp/test/integration/load_node_test.cpp",
        line: 314,
        expected: "true",
        received: "false",
        message: "Value of: node.IsNull()",
      }),
    ]);
  });

  it("takes a literal side as the expected one, reads a C++ exception and a test that never ended", () => {
    const output = `[==========] Running 3 tests from 1 test suite.
[ RUN      ] CartTest.Sums
/src/test/cart_test.cc:12: Failure
Expected equality of these values:
  cart.Sum()
    Which is: 3
  4
[  FAILED  ] CartTest.Sums (0 ms)
[ RUN      ] CartTest.Parses
unknown file: Failure
C++ exception with description "stoi" thrown in the test body.
[  FAILED  ] CartTest.Parses (0 ms)
[ RUN      ] CartTest.Crashes
[==========] 3 tests from 1 test suite ran. (1 ms total)
[  FAILED  ] 2 tests, listed below:
`;
    expect(gtestParser.parse(output)).toEqual([
      failureOf({
        test: "CartTest.Sums",
        file: "/src/test/cart_test.cc",
        line: 12,
        expected: "4",
        received: "3",
        message: "Expected equality of these values:",
      }),
      failureOf({
        test: "CartTest.Parses",
        message: 'C++ exception with description "stoi" thrown in the test body.',
      }),
      failureOf({ test: "CartTest.Crashes", message: "the test did not finish" }),
    ]);
  });

  it("detects GoogleTest's banners, not other runners' output", () => {
    expect(gtestParser.detect("Tests: 1 failed, 2 passed, 3 total")).toBe(false);
  });
});
