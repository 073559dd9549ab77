import { describe, expect, it } from "vitest";
import { goTestParser } from "./go-test.js";
import { failureOf } from "../failure-of.js";

const PLAIN = `--- FAIL: TestAdd (0.00s)
    auth_test.go:7: Add(2, 2) = 5; want 4
--- FAIL: TestLogin (0.00s)
    --- FAIL: TestLogin/user_id (0.00s)
        auth_test.go:15: got "123", want "0123"
FAIL
FAIL	example.com/auth	0.027s
FAIL
`;

describe("goTestParser", () => {
  it("detects go test's plain and -json output, not other runners", () => {
    expect(goTestParser.detect(PLAIN)).toBe(true);
    expect(goTestParser.detect('{"Time":"2026-11-30T04:35:59Z","Action":"run","Test":"T"}')).toBe(
      true,
    );
    expect(goTestParser.detect("running 1 test\ntest a ... FAILED\n")).toBe(false);
  });

  it("names subtests by their full path and drops the parent that failed because of them", () => {
    expect(goTestParser.parse(PLAIN)).toEqual([
      failureOf({
        test: "TestAdd",
        file: "auth_test.go",
        line: 7,
        expected: "4",
        received: "5",
        message: "Add(2, 2) = 5; want 4",
      }),
      failureOf({
        test: "TestLogin/user_id",
        file: "auth_test.go",
        line: 15,
        expected: '"0123"',
        received: '"123"',
        message: 'got "123", want "0123"',
      }),
    ]);
  });

  it("reads the -json event stream as the text it carries", () => {
    const events = [
      { Action: "run", Test: "TestUserID" },
      { Action: "output", Test: "TestUserID", Output: "=== RUN   TestUserID\n" },
      {
        Action: "output",
        Test: "TestUserID",
        Output: '    cart_test.go:32: user id = "123", want 123\n',
      },
      { Action: "output", Test: "TestUserID", Output: "--- FAIL: TestUserID (0.00s)\n" },
      { Action: "fail", Test: "TestUserID" },
    ].map((event) => JSON.stringify({ Time: "2026-11-30T04:38:39Z", ...event }));
    expect(goTestParser.parse(events.join("\n"))).toEqual([
      failureOf({
        test: "TestUserID",
        file: "cart_test.go",
        line: 32,
        expected: "123",
        received: '"123"',
        message: 'user id = "123", want 123',
      }),
    ]);
  });

  it("reads testify's block: values, an error's words on the lines below, the test's own message", () => {
    // As testify 1.8.1 prints them (fixtures/runners/go/testify holds the whole run).
    const output = `--- FAIL: TestTotal (0.00s)
    cart_test.go:13: 
        	Error Trace:	/tmp/cart/cart_test.go:13
        	Error:      	Not equal: 
        	            	expected: 300
        	            	actual  : 150
        	Test:       	TestTotal
        	Messages:   	two of A1 at 150
--- FAIL: TestLoadEmpty (0.00s)
    cart_test.go:26: 
        	Error Trace:	/tmp/cart/cart_test.go:26
        	Error:      	Received unexpected error:
        	            	load "ada": no items
        	Test:       	TestLoadEmpty
FAIL
`;
    expect(goTestParser.parse(output)).toEqual([
      failureOf({
        test: "TestTotal",
        file: "cart_test.go",
        line: 13,
        expected: "300",
        received: "150",
        message: "Not equal; two of A1 at 150",
      }),
      failureOf({
        test: "TestLoadEmpty",
        file: "cart_test.go",
        line: 26,
        message: 'Received unexpected error: load "ada": no items',
      }),
    ]);
  });

  it("locates a panic at its first user frame and names a timeout by the test in the trace", () => {
    const output = `panic: test timed out after 1s

goroutine 7 [sleep]:
time.Sleep(0x2540be400)
	/usr/lib/go-1.19/src/runtime/time.go:195 +0x135
example.com/slow.TestWaitsForever(0xc000007860?)
	/src/slow/slow_test.go:11 +0x25
testing.tRunner(0xc000007ba0, 0x52f2f8)
	/usr/local/go/src/testing/testing.go:1446 +0x10b
FAIL	example.com/slow	1.039s
`;
    expect(goTestParser.parse(output)).toEqual([
      failureOf({
        test: "TestWaitsForever",
        file: "/src/slow/slow_test.go",
        line: 11,
        message: "panic: test timed out after 1s",
      }),
    ]);
  });

  it("puts a panic before what its test printed earlier, checks or logs alike (csscolorparser)", () => {
    const output = `--- FAIL: TestInvalidData (0.00s)
    colorparser_test.go:262: Invalid color format, bloodred
    colorparser_test.go:262: Invalid hex color, #78afzd
panic: runtime error: index out of range [1] with length 1 [recovered]
	panic: runtime error: index out of range [1] with length 1

goroutine 14 [running]:
github.com/mazznoer/csscolorparser.Parse({0x530a08, 0x9})
	/work/go/src/github.com/mazznoer/csscolorparser/colorparser.go:143 +0x1139
github.com/mazznoer/csscolorparser.TestInvalidData(0xc0000a8820)
	/work/go/src/github.com/mazznoer/csscolorparser/colorparser_test.go:258 +0x88
FAIL	github.com/mazznoer/csscolorparser	0.016s
FAIL
`;
    expect(
      goTestParser.parse(output).map(({ file, line, message }) => ({ file, line, message })),
    ).toEqual([
      {
        file: "/work/go/src/github.com/mazznoer/csscolorparser/colorparser.go",
        line: 143,
        message: "panic: runtime error: index out of range [1] with length 1",
      },
      { file: "colorparser_test.go", line: 262, message: "Invalid color format, bloodred" },
      { file: "colorparser_test.go", line: 262, message: "Invalid hex color, #78afzd" },
    ]);
  });

  it("places a panic a deferred recover re-raised at the frames after the last panic( (xstrings)", () => {
    const output = `--- FAIL: TestSlice (0.00s)
panic: runtime error: slice bounds out of range [11:0] [recovered]
	panic: interface conversion: interface {} is runtime.boundsError, not string [recovered]
	panic: interface conversion: interface {} is runtime.boundsError, not string

goroutine 35 [running]:
testing.tRunner.func1.2({0x51f4a0, 0xc0000a0210})
	/usr/lib/go-1.19/src/testing/testing.go:1396 +0x24e
panic({0x51f4a0, 0xc0000a0210})
	/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212
github.com/huandu/xstrings.TestSlice.func1.1()
	/work/xstrings/manipulate_test.go:24 +0x74
panic({0x52a320, 0xc00009c168})
	/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212
github.com/huandu/xstrings.Slice({0xc00009e1e0, 0x22}, 0x535a92?, 0x0?)
	/work/xstrings/manipulate.go:59 +0x150
github.com/huandu/xstrings.TestSlice.func1({0xc00009e1e0, 0x22}, 0x0?, 0x0?)
	/work/xstrings/manipulate_test.go:28 +0x8d
FAIL	github.com/huandu/xstrings	0.010s
`;
    expect(goTestParser.parse(output)).toMatchObject([
      {
        test: "TestSlice",
        file: "/work/xstrings/manipulate.go",
        line: 59,
        message: "panic: runtime error: slice bounds out of range [11:0]",
      },
    ]);
  });

  it("reports a package that failed to build, one failure per compiler error", () => {
    const output = `# example.com/billing [example.com/billing.test]
./billing.go:5:19: cannot use 0 (untyped int constant) as string value in variable declaration
FAIL	example.com/billing [build failed]
`;
    expect(goTestParser.parse(output)).toEqual([
      failureOf({
        test: "example.com/billing",
        file: "billing.go",
        line: 5,
        message: "cannot use 0 (untyped int constant) as string value in variable declaration",
      }),
    ]);
  });

  it("reads `expected X, but got Y` after what was checked, so two checks of one line stay apart", () => {
    // From fixtures/real-world/go-test/go-humanize-bytes-base: one test, one line, two inputs
    // printed alike (`1PB - 1T`), different values.
    const output = [
      "--- FAIL: TestBytes (0.00s)",
      "    common_test.go:14: On bytes(1PB - 1T), expected '999 TB', but got '909 TB'",
      "    common_test.go:14: On bytes(1PB - 1T), expected '999 PB', but got '887 PB'",
      "FAIL",
    ].join("\n");
    expect(
      goTestParser.parse(output).map(({ expected, received }) => ({ expected, received })),
    ).toEqual([
      { expected: "'999 TB'", received: "'909 TB'" },
      { expected: "'999 PB'", received: "'887 PB'" },
    ]);
  });

  it("reads one check printed by a call per line as one failure, and what a test prints itself apart (jsonparser)", () => {
    const output = [
      "=== RUN   TestSet",
      "Running: set known key (object within array)",
      "    parser_test.go:1244: Unexpected result on Set() test 'set known key (object within array)'",
      '    parser_test.go:1245: Got:      {"test":[{"key":"val-obj1"}]}',
      '    parser_test.go:1246: Expected: {"test":[]}',
      "    parser_test.go:1247: Error:    <nil>",
      "Running: set in empty json",
      "    parser_test.go:1216: Set() test 'set in empty json' isFound mismatch: expected true, obtained false",
      "Running: set in Number - not found",
      "--- FAIL: TestSet (0.00s)",
      "=== RUN   TestHumanDuration",
      "    duration_test.go:99: Expected '2 hours' but got 'About an hour'",
      "    duration_test.go:100: Expected '4 hours' but got '3 hours'",
      "--- FAIL: TestHumanDuration (0.00s)",
      "FAIL",
    ].join("\n");
    expect(goTestParser.parse(output)).toEqual([
      failureOf({
        test: "TestSet",
        file: "parser_test.go",
        line: 1244,
        expected: '{"test":[]}',
        received: '{"test":[{"key":"val-obj1"}]}',
        message:
          "Unexpected result on Set() test 'set known key (object within array)'; Error:    <nil>",
      }),
      failureOf({
        test: "TestSet",
        file: "parser_test.go",
        line: 1216,
        expected: "true",
        received: "false",
        message: "Set() test 'set in empty json' isFound mismatch: expected true, obtained false",
      }),
      // A helper called line after line: each line is a whole check of its own.
      failureOf({
        test: "TestHumanDuration",
        file: "duration_test.go",
        line: 99,
        expected: "'2 hours'",
        received: "'About an hour'",
        message: "Expected '2 hours' but got 'About an hour'",
      }),
      failureOf({
        test: "TestHumanDuration",
        file: "duration_test.go",
        line: 100,
        expected: "'4 hours'",
        received: "'3 hours'",
        message: "Expected '4 hours' but got '3 hours'",
      }),
    ]);
  });

  it("yields no failures for a passing run", () => {
    const output =
      "=== RUN   TestOK\n--- PASS: TestOK (0.00s)\nPASS\nok  \texample.com/ok\t0.015s\n";
    expect(goTestParser.parse(output)).toEqual([]);
  });

  it("reads a multi-line t.Errorf's got:/want: lines as received and expected", () => {
    const output = `=== RUN   TestLabel/empty_sku
    stock_test.go:30: Label({ 3})
         got: " x3"
        want: "? x3"
--- FAIL: TestLabel (0.00s)
    --- FAIL: TestLabel/empty_sku (0.00s)
FAIL
FAIL	example.com/inventory	0.01s
`;
    expect(goTestParser.parse(output)).toEqual([
      failureOf({
        test: "TestLabel/empty_sku",
        file: "stock_test.go",
        line: 30,
        expected: '"? x3"',
        received: '" x3"',
        message: "Label({ 3})",
      }),
    ]);
  });

  it("keeps every message of one test, each at its own line, and counts failed tests as go prints them", () => {
    const output = `--- FAIL: TestUserOf (0.00s)
    token_test.go:20: UserOf():
        got:  accounts.User{ID:"123", Name:"ada"}
        want: accounts.User{ID:123, Name:"ada"}
    token_test.go:23: name: got "ada", want "Ada"
--- FAIL: TestTable (0.00s)
    --- FAIL: TestTable/two (0.00s)
        table_test.go:9: Double(2) = 5; want 4
FAIL
FAIL	example.com/accounts	0.01s
`;
    expect(goTestParser.parse(output)).toEqual([
      failureOf({
        test: "TestUserOf",
        file: "token_test.go",
        line: 20,
        expected: 'accounts.User{ID:123, Name:"ada"}',
        received: 'accounts.User{ID:"123", Name:"ada"}',
        message: "UserOf():",
      }),
      failureOf({
        test: "TestUserOf",
        file: "token_test.go",
        line: 23,
        expected: '"Ada"',
        received: '"ada"',
        message: 'name: got "ada", want "Ada"',
      }),
      failureOf({
        test: "TestTable/two",
        file: "table_test.go",
        line: 9,
        expected: "4",
        received: "5",
        message: "Double(2) = 5; want 4",
      }),
    ]);
    expect(goTestParser.reportedFailures?.(output)).toBe(2);
  });

  it("reads a t.Errorf whose values follow their labels on lines of their own as the values", () => {
    // mitchellh/mapstructure's `t.Errorf("expected \n%#v, got: \n%#v", …)` (held-out-7).
    const output = `--- FAIL: TestDecode (0.00s)
    decode_test.go:31: expected 
        main.Result{Count:1, Name:"1"}, got: 
        main.Result{Count:1, Name:"true"}
    decode_test.go:40: error should exist
FAIL
FAIL	example.com/decode	0.01s
`;
    expect(goTestParser.parse(output)).toEqual([
      failureOf({
        test: "TestDecode",
        file: "decode_test.go",
        line: 31,
        expected: 'main.Result{Count:1, Name:"1"}',
        received: 'main.Result{Count:1, Name:"true"}',
        message: 'expected main.Result{Count:1, Name:"1"}, got: main.Result{Count:1, Name:"true"}',
      }),
      failureOf({
        test: "TestDecode",
        file: "decode_test.go",
        line: 40,
        message: "error should exist",
      }),
    ]);
  });

  it("reads a multi-line t.Errorf: its first lines as the message, its value lines in any case", () => {
    // hashicorp/go-version, go1.19 (fixtures/real-world/go-test/go-version-prerelease-core).
    const output = `=== RUN   TestConstraintCheck
    constraint_test.go:100: Version: 2.1.0-beta
        Constraint: ~> 2.1.0-a
        Expected: true
--- FAIL: TestConstraintCheck (0.00s)
=== RUN   TestCore
    version_test.go:153: expected: 1.2.3
        actual: 1.2.2
--- FAIL: TestCore (0.00s)
FAIL
FAIL	github.com/hashicorp/go-version	0.005s
`;
    expect(goTestParser.parse(output)).toEqual([
      failureOf({
        test: "TestConstraintCheck",
        file: "constraint_test.go",
        line: 100,
        expected: "true",
        message: "Version: 2.1.0-beta; Constraint: ~> 2.1.0-a",
      }),
      failureOf({
        test: "TestCore",
        file: "version_test.go",
        line: 153,
        expected: "1.2.3",
        received: "1.2.2",
        message: "expected: 1.2.3",
      }),
    ]);
  });

  it("reads a message's `got != want` between two printed values as received and expected (strcase)", () => {
    const output = `--- FAIL: TestToSnake (0.00s)
    snake_test.go:65: " Test Case" ("_test_case" != "test_case")
    snake_test.go:65: "Test Case " ("test_case_" != "test_case")
    snake_test.go:70: 3 != 4
    snake_test.go:71: "a" != "b" and "c" != "d"
    snake_test.go:72: len(words) != want
FAIL
FAIL	github.com/iancoleman/strcase	0.250s
FAIL
`;
    const failures = goTestParser.parse(output);
    expect(failures.map(({ expected, received }) => [expected, received])).toEqual([
      ['"test_case"', '"_test_case"'],
      ['"test_case"', '"test_case_"'],
      ["4", "3"],
      // Two comparisons on one line, or a comparison of names, say no single pair.
      [null, null],
      [null, null],
    ]);
    expect(failures[0]?.message).toBe('" Test Case" ("_test_case" != "test_case")');
  });

  it("reads toml's have:/want: lines, an `Error:` paragraph, and a parent's own lines after its subtests (BurntSushi/toml)", () => {
    const output = [
      "--- FAIL: TestEncodeRoundtripLocalDatetime (0.00s)",
      "    --- FAIL: TestEncodeRoundtripLocalDatetime/#03 (0.00s)",
      "        encode_test.go:97: ",
      '            have: "d = 17:45:00.000000\\n"',
      '            want: "d = 17:45:00\\n"',
      "--- FAIL: TestToml (0.27s)",
      "    --- FAIL: TestToml/valid/datetime/datetime (0.00s)",
      "        toml_test.go:358: ",
      "            Error:",
      '            toml: line 4 (last key "lower"): invalid datetime: "1987-07-05t17:45:00Z"',
      "",
      "            Input:",
      "            space = 1987-07-05 17:45:00Z",
      "    toml_test.go:375:   valid: passed 217; failed 1",
      "FAIL",
      "FAIL\tgithub.com/BurntSushi/toml\t0.312s",
      "",
    ].join("\n");
    expect(
      goTestParser.parse(output).map(({ test, line, expected, received, message }) => ({
        test,
        line,
        expected,
        received,
        message,
      })),
    ).toEqual([
      {
        test: "TestEncodeRoundtripLocalDatetime/#03",
        line: 97,
        expected: '"d = 17:45:00\\n"',
        received: '"d = 17:45:00.000000\\n"',
        message: 'have: "d = 17:45:00.000000\\n"',
      },
      {
        test: "TestToml",
        line: 375,
        expected: null,
        received: null,
        message: "valid: passed 217; failed 1",
      },
      {
        test: "TestToml/valid/datetime/datetime",
        line: 358,
        expected: null,
        received: null,
        message: 'toml: line 4 (last key "lower"): invalid datetime: "1987-07-05t17:45:00Z"',
      },
    ]);
  });

  it("counts failed tests package by package: `./...` runs tests of one name in several (golang-lru)", () => {
    const output = [
      "--- FAIL: TestLRU (0.00s)",
      "    lru_test.go:87: bad len: 127",
      "--- FAIL: TestCache_EvictionSameKey (0.00s)",
      "    --- FAIL: TestCache_EvictionSameKey/Add (0.00s)",
      "        lru_test.go:325: 2: got unexpected eviction",
      "FAIL",
      "FAIL\tgithub.com/hashicorp/golang-lru/v2\t0.020s",
      "--- FAIL: TestLRU (0.00s)",
      "    lru_test.go:28: bad len: 127",
      "--- FAIL: TestCache_EvictionSameKey (0.00s)",
      "    lru_test.go:240: got unexpected eviction",
      "FAIL",
      "FAIL\tgithub.com/hashicorp/golang-lru/v2/simplelru\t0.016s",
    ].join("\n");
    // Root: TestLRU and the subtest /Add (its parent aside); simplelru: TestLRU and the leaf parent.
    expect(goTestParser.reportedFailures?.(output)).toBe(4);
  });

  it("reads a log line's stated pair from that line alone, not from the context lines under it (go-edlib)", () => {
    const output = [
      "--- FAIL: TestStringsSimilarity (0.05s)",
      "    --- FAIL: TestStringsSimilarity/Levenshtein_:_First_arg_empty (0.00s)",
      "        string-analysis_test.go:204: StringsSimilarity() = 1, want 0",
      "            Rune string 1: [], len: 0",
      "            Rune string 2: [97 98 99 100 101], len: 5",
      "FAIL",
    ].join("\n");
    expect(goTestParser.parse(output)).toMatchObject([{ line: 204, expected: "0", received: "1" }]);
  });

  it("reads a failed example's got: and want: by the first line they differ in (fastjson)", () => {
    const output = `--- FAIL: ExampleObject_Visit (0.00s)
got:
object {"foo":1234}
array [23,4,"bar",]
string "foobar"
want:
object {"foo":1234}
array [23,4,"bar"]
string "foobar"
--- FAIL: ExampleScanner_reuse (0.00s)
got:
[0],"0",
want:
[0],"0",
[1],"1",
FAIL
FAIL	github.com/valyala/fastjson	0.050s
`;
    expect(goTestParser.parse(output)).toEqual([
      failureOf({
        test: "ExampleObject_Visit",
        expected: 'array [23,4,"bar"]',
        received: 'array [23,4,"bar",]',
        message: "output differs from want: at line 2",
      }),
      failureOf({
        test: "ExampleScanner_reuse",
        expected: '[1],"1",',
        message: "output differs from want: at line 2",
      }),
    ]);
  });
});
