import { describe, expect, it } from "vitest";
import { pytestParser } from "./pytest.js";
import { failureOf } from "../failure-of.js";

const DEFAULT_OUTPUT = `============================= test session starts ==============================
collected 3 items

tests/test_auth.py .FF                                                   [100%]

=================================== FAILURES ===================================
____________________________ TestLogin.test_user_id ____________________________

self = <test_auth.TestLogin object at 0x7fbec063ef50>

    def test_user_id(self):
>       assert login(123)["user_id"] == 123
E       AssertionError: assert '123' == 123

tests/test_auth.py:9: AssertionError
_________________________________ test_profile _________________________________

    def test_profile():
>       assert profile(1) == {"id": 1, "roles": ["admin"], "address": {"city": "Lyon"}}
E       AssertionError: assert {'address': {...s': ['admin']} == {'address': {...s': ['admin']}
E
E         Omitting 2 identical items, use -vv to show
E         Differing items:
E         {'address': {'city': 'Paris'}} != {'address': {'city': 'Lyon'}}
E         Use -v to get more diff

tests/test_auth.py:17: AssertionError
----------------------------- Captured stdout call -----------------------------
E   not a pytest line: the test printed it
=========================== short test summary info ============================
FAILED tests/test_auth.py::TestLogin::test_user_id - AssertionError: assert '...
FAILED tests/test_auth.py::test_profile - AssertionError: assert {'address': ...
========================= 2 failed, 1 passed in 0.14s ==========================
`;

describe("pytestParser", () => {
  it("gives tests of one name in two files their own ids, and reads doctest sections", () => {
    const output = `=================================== FAILURES ===================================
__________________________________ test_index __________________________________

>       assert a.index(1) == 0
E       assert 1 == 0

tests/test_b.py:7: AssertionError
__________________________________ test_index __________________________________

>       assert a.index(2) == 0
E       assert 2 == 0

tests/test_a.py:9: AssertionError
_________________________ [doctest] pkg.chunks.chunked _________________________
012 Chunks of size n.
013
014     >>> chunked(range(4), 3)
Expected:
    [[0, 1, 2], [3]]
Got:
    [[0, 1, 2, 3]]

/src/pkg/chunks.py:14: DocTestFailure
=========================== short test summary info ============================
FAILED tests/test_a.py::test_index - assert 2 == 0
FAILED tests/test_b.py::test_index - assert 1 == 0
FAILED pkg/chunks.py::pkg.chunks.chunked
============================== 3 failed in 0.10s ===============================
`;
    expect(pytestParser.parse(output)).toEqual([
      failureOf({
        test: "tests/test_b.py::test_index",
        file: "tests/test_b.py",
        line: 7,
        expected: "0",
        received: "1",
        message: "assert 1 == 0",
      }),
      failureOf({
        test: "tests/test_a.py::test_index",
        file: "tests/test_a.py",
        line: 9,
        expected: "0",
        received: "2",
        message: "assert 2 == 0",
      }),
      failureOf({
        test: "pkg/chunks.py::pkg.chunks.chunked",
        file: "/src/pkg/chunks.py",
        line: 14,
        expected: "[[0, 1, 2], [3]]",
        received: "[[0, 1, 2, 3]]",
        message: "DocTestFailure",
      }),
    ]);
  });

  it("counts failed tests and errors from pytest's closing line and a JUnit report's suite", () => {
    expect(pytestParser.reportedFailures?.(DEFAULT_OUTPUT)).toBe(2);
    expect(pytestParser.reportedFailures?.("==== 3 failed, 2 errors, 9 passed in 1.20s ====")).toBe(
      5,
    );
    const junit =
      '<?xml version="1.0"?><testsuites><testsuite name="pytest" errors="1" failures="2" tests="5"><testcase name="t"/></testsuite></testsuites>';
    expect(pytestParser.reportedFailures?.(junit)).toBe(3);
  });

  it("detects pytest's banners and -q totals, not other runners", () => {
    expect(pytestParser.detect(DEFAULT_OUTPUT)).toBe(true);
    expect(pytestParser.detect(".F\n1 failed, 1 passed in 0.09s\n")).toBe(true);
    expect(pytestParser.detect("--- FAIL: TestAdd (0.00s)\nFAIL\n")).toBe(false);
  });

  it("names failures by node id and keeps the quoting as printed", () => {
    expect(pytestParser.parse(DEFAULT_OUTPUT)).toEqual([
      failureOf({
        test: "tests/test_auth.py::TestLogin::test_user_id",
        file: "tests/test_auth.py",
        line: 9,
        expected: "123",
        received: "'123'",
        message: "AssertionError: assert '123' == 123",
      }),
      failureOf({
        test: "tests/test_auth.py::test_profile",
        file: "tests/test_auth.py",
        line: 17,
        // The assertion line is shortened (`{...s'`); the differing items are whole.
        expected: "{'address': {'city': 'Lyon'}}",
        received: "{'address': {'city': 'Paris'}}",
        message:
          "AssertionError: assert {'address': {...s': ['admin']} == {'address': {...s': ['admin']}",
      }),
    ]);
  });

  it("reads the side pytest's first where-note explains as the one computed: assert 10 == s(12) expects 10 (voluptuous)", () => {
    const output = `=================================== FAILURES ===================================
_______________________________ test_clamp_above _______________________________

    def test_clamp_above():
        s = Schema(Clamp(min=1, max=10))
>       assert 10 == s(12)
E       assert 10 == 1
E        +  where 1 = <Schema(Clamp(min=1, max=10)) object at 0x7f31>(12)

tests/tests.py:692: AssertionError
________________________________ test_length ___________________________________

    def test_length():
>       assert len([1, 2]) == 3
E       assert 2 == 3
E        +  where 2 = len([1, 2])

tests/tests.py:700: AssertionError
=========================== short test summary info ============================
FAILED tests/tests.py::test_clamp_above - assert 10 == 1
FAILED tests/tests.py::test_length - assert 2 == 3
`;
    const [clamp, length] = pytestParser.parse(output);
    expect(clamp).toMatchObject({ expected: "10", received: "1" });
    // The convention, `assert result == expected`, where the note explains the left side.
    expect(length).toMatchObject({ expected: "3", received: "2" });
  });

  it("reads an assert message that starts on its own line, and two lists' first differing elements (jmespath)", () => {
    const output = `=================================== FAILURES ===================================
________ test_expression[given389-foo[? !key]-expected389-filters.json] ________

>       assert actual == expected, error_msg
E       AssertionError: 
E         
E           (filters.json) The expression 'foo[? !key]' was suppose to give:
E         [
E             {}
E         ]
E       assert [OrderedDict(...[0])]), ...] == [OrderedDict(...[0])]), ...]
E         At index 1 diff: OrderedDict([('key', 0)]) != OrderedDict([('key', None)])
E         Right contains one more item: OrderedDict([('key', {})])

test_compliance.py:87: AssertionError
=========================== short test summary info ============================
FAILED test_compliance.py::test_expression[given389-foo[? !key]-expected389-filters.json] - AssertionError:
`;
    expect(pytestParser.parse(output)).toEqual([
      {
        test: "test_compliance.py::test_expression[given389-foo[? !key]-expected389-filters.json]",
        file: "test_compliance.py",
        line: 87,
        expected: "OrderedDict([('key', None)])",
        received: "OrderedDict([('key', 0)])",
        message: "AssertionError: (filters.json) The expression 'foo[? !key]' was suppose to give:",
      },
    ]);
  });

  it("pairs two byte strings by their full diff, not by the one byte `At index 0 diff:` names", () => {
    const output = `=================================== FAILURES ===================================
___________________________ test_int_bytes[192-\\xc0] ___________________________
tests/test_encoding.py:35: in test_int_bytes
    assert enc == expect
E   AssertionError: assert b'\\x00\\x00\\x0...0\\x00\\x00\\xc0' == b'\\xc0'
E     At index 0 diff: b'\\x00' != b'\\xc0'
E     Full diff:
E     - b'\\xc0'
E     + b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\xc0'
______________________________ test_ChunkedWriter ______________________________

    def test_ChunkedWriter() -> None:
>       assert dowrite(w, Data(data=b"a" * 20)) == b"14\\r\\n" + b"a" * 20 + b"\\r\\n"
E       AssertionError: assert b'20\\r\\naaaaa...aaaaaaaaa\\r\\n' == b'14\\r\\naaaaa...aaaaaaaaa\\r\\n'
E         At index 0 diff: b'2' != b'1'
E         Use -v to get more diff

h11/tests/test_io.py:506: AssertionError
`;
    const [bytes, shortened] = pytestParser.parse(output);
    expect(bytes).toMatchObject({
      expected: String.raw`b'\xc0'`,
      received: String.raw`b'\x00\x00\x00\x00\x00\x00\x00\xc0'`,
    });
    expect(shortened).toMatchObject({
      expected: String.raw`b'14\r\naaaaa...aaaaaaaaa\r\n'`,
      received: String.raw`b'20\r\naaaaa...aaaaaaaaa\r\n'`,
    });
  });

  it("locates a raised exception where it was raised, past the test's own frame", () => {
    const output = `=================================== FAILURES ===================================
_______________________________ test_parse_port ________________________________

    def test_parse_port():
>       assert parse_port("80a") == 80

tests/test_parse.py:8:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

>           raise ValueError(f"invalid port: {text!r}")
E           ValueError: invalid port: '80a'

src/parse.py:3: ValueError
2 failed, 1 passed in 0.09s
`;
    expect(pytestParser.parse(output)).toEqual([
      failureOf({
        test: "tests/test_parse.py::test_parse_port",
        file: "src/parse.py",
        line: 3,
        message: "ValueError: invalid port: '80a'",
      }),
    ]);
  });

  it("reports a module that failed to collect, at its own line rather than importlib's", () => {
    const output = `==================================== ERRORS ====================================
____________________ ERROR collecting tests/test_broken.py _____________________
ImportError while importing test module '/tmp/p/tests/test_broken.py'.
Traceback:
/usr/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/test_broken.py:1: in <module>
    from app.missing import thing
E   ModuleNotFoundError: No module named 'app'
=========================== short test summary info ============================
ERROR tests/test_broken.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
`;
    expect(pytestParser.parse(output)).toEqual([
      failureOf({
        test: "tests/test_broken.py",
        file: "tests/test_broken.py",
        line: 1,
        message: "ModuleNotFoundError: No module named 'app'",
      }),
    ]);
  });

  it("reads setup errors and the summary alone when no traceback was printed (--tb=no)", () => {
    const setup = `_________________________ ERROR at setup of test_db __________________________
E       fixture 'database' not found

tests/test_db.py:4
`;
    expect(pytestParser.parse(setup)[0]).toMatchObject({
      test: "test_db",
      message: "fixture 'database' not found",
    });
    const summaryOnly = "FAILED tests/a.py::test_x - assert 1 == 2\n1 failed in 0.01s\n";
    expect(pytestParser.parse(summaryOnly)).toEqual([
      failureOf({
        test: "tests/a.py::test_x",
        file: "tests/a.py",
        expected: "2",
        received: "1",
        message: "assert 1 == 2",
      }),
    ]);
  });

  it("names --junitxml failures by node id", () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" failures="1" tests="2"><testcase classname="tests.test_cart.TestCart" name="test_total" time="0.010"><failure message="assert 7 == 8">    def test_total(self):
&gt;       assert sum([3, 4]) == 8
E       assert 7 == 8

tests/test_cart.py:3: AssertionError</failure></testcase><testcase classname="tests.test_cart" name="test_ok" time="0.001" /></testsuite></testsuites>`;
    expect(pytestParser.detect(xml)).toBe(true);
    expect(pytestParser.parse(xml)).toEqual([
      failureOf({
        test: "tests/test_cart.py::TestCart::test_total",
        file: "tests/test_cart.py",
        line: 3,
        expected: "8",
        received: "7",
        message: "assert 7 == 8",
      }),
    ]);
  });

  it("yields no failures for a passing run", () => {
    const output = "tests/test_ok.py ..    [100%]\n============ 2 passed in 0.04s ============\n";
    expect(pytestParser.detect(output)).toBe(true);
    expect(pytestParser.parse(output)).toEqual([]);
  });

  it("reads values under an assert message, unittest's `a != b`, and paths under rootdir", () => {
    const output = `============================= test session starts ==============================
rootdir: /ci/app
collected 2 items

=================================== FAILURES ===================================
_________________________________ test_message _________________________________
Traceback (most recent call last):
  File "/ci/app/tests/test_calc.py", line 24, in test_message
AssertionError: cart should hold three items
assert 2 == 3
 +  where 2 = len([1, 2])
_____________________________ TestParse.test_equal _____________________________

>       self.assertEqual(parse_id("5"), 6)
E       AssertionError: 5 != 6

tests/test_calc.py:38: AssertionError
=========================== short test summary info ============================
FAILED tests/test_calc.py::test_message - AssertionError: cart should hold th...
FAILED tests/test_calc.py::TestParse::test_equal - AssertionError: 5 != 6
========================= 2 failed in 0.07s ==========================
`;
    expect(pytestParser.parse(output)).toEqual([
      failureOf({
        test: "tests/test_calc.py::test_message",
        file: "tests/test_calc.py",
        line: 24,
        expected: "3",
        received: "2",
        message: "AssertionError: cart should hold three items",
      }),
      failureOf({
        test: "tests/test_calc.py::TestParse::test_equal",
        file: "tests/test_calc.py",
        line: 38,
        expected: "6",
        received: "5",
        message: "AssertionError: 5 != 6",
      }),
    ]);
  });

  it("reads unittest's `a != b` the other way round when the call passes the wanted value first (cachetools)", () => {
    const output = `rootdir: /ci/app
=================================== FAILURES ===================================
_____________________________ CacheTest.test_size ______________________________

>       self.assertEqual(2, cache.currsize)
E       AssertionError: 2 != 1

tests/__init__.py:203: AssertionError
=========================== short test summary info ============================
FAILED tests/test_cache.py::CacheTest::test_size - AssertionError: 2 != 1
========================= 1 failed in 0.07s ==========================
`;
    const [failure] = pytestParser.parse(output);
    expect(failure).toMatchObject({ expected: "2", received: "1" });
  });

  it("places --tb=line reports by the order of the FAILED lines", () => {
    const output = `rootdir: /ci/app
=================================== FAILURES ===================================
E   assert 5 == 4
/ci/app/tests/test_calc.py:10: assert 5 == 4
E   AssertionError: 5 != 6
/usr/lib/python3.11/unittest/case.py:866: AssertionError: 5 != 6
=========================== short test summary info ============================
FAILED tests/test_calc.py::test_add[2-2-4] - assert 5 == 4
FAILED tests/test_calc.py::TestParse::test_equal - AssertionError: 5 != 6
========================= 2 failed in 0.07s ==========================
`;
    expect(pytestParser.parse(output)).toEqual([
      failureOf({
        test: "tests/test_calc.py::test_add[2-2-4]",
        file: "tests/test_calc.py",
        line: 10,
        expected: "4",
        received: "5",
        message: "assert 5 == 4",
      }),
      failureOf({
        test: "tests/test_calc.py::TestParse::test_equal",
        file: "tests/test_calc.py",
        message: "AssertionError: 5 != 6",
      }),
    ]);
  });

  it("reads a run cut by SIGINT, and pytest-timeout's thread dump, as a failure where it hung", () => {
    const interrupted = `rootdir: /ci/app
collected 2 items

tests/test_slow.py .

!!!!!!!!!!!!!!!!!!!!!!!!!!!!!! KeyboardInterrupt !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
/ci/app/tests/test_slow.py:9: KeyboardInterrupt
============================== 1 passed in 2.54s ===============================
`;
    expect(pytestParser.parse(interrupted)).toEqual([
      failureOf({ file: "tests/test_slow.py", line: 9, message: "KeyboardInterrupt" }),
    ]);
    const dumped = `============================= test session starts ==============================
rootdir: /ci/app
tests/test_slow.py .
+++++++++++++++++++++++++++++++++++ Timeout ++++++++++++++++++++++++++++++++++++
  File "/usr/lib/python3/dist-packages/_pytest/python.py", line 195, in pytest_pyfunc_call
    result = testfunction(**testargs)
  File "/ci/app/tests/test_slow.py", line 9, in test_waits
    time.sleep(30)
+++++++++++++++++++++++++++++++++++ Timeout ++++++++++++++++++++++++++++++++++++
`;
    expect(pytestParser.parse(dumped)).toEqual([
      failureOf({
        test: "tests/test_slow.py::test_waits",
        file: "tests/test_slow.py",
        line: 9,
        message: "Timeout",
      }),
    ]);
  });
  it("places a SyntaxError in an imported module at the line Python names (packaging)", () => {
    const output = `============================= test session starts ==============================
__________________ ERROR collecting tests/test_direct_url.py ___________________
/usr/lib/python3/dist-packages/_pytest/python.py:618: in _importtestmodule
    mod = import_path(self.path, mode=importmode, root=self.config.rootpath)
tests/test_direct_url.py:5: in <module>
    from packaging.direct_url import (
E     File "/tmp/rw/other/packaging/src/packaging/direct_url.py", line 102
E       return urllib.parse.urlunsplit(
E                                     ^
E   SyntaxError: '(' was never closed
=========================== short test summary info ============================
ERROR tests/test_direct_url.py
!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
`;
    expect(pytestParser.parse(output)).toEqual([
      expect.objectContaining({
        test: "tests/test_direct_url.py",
        file: "/tmp/rw/other/packaging/src/packaging/direct_url.py",
        line: 102,
        message: "SyntaxError: '(' was never closed",
      }),
    ]);
  });
  it("names a doctest's unexpected exception by the line its traceback ends with (python-semver)", () => {
    const output = `=================================== FAILURES ===================================
__________________ [doctest] replace-deprecated-functions.rst __________________
050 
051      >>> s1 = semver.finalize_version('1.2.3-rc.5')
UNEXPECTED EXCEPTION: AttributeError("'Version' object has no attribute 'prelease'")
Traceback (most recent call last):
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/doctest.py", line 1353, in __run
    exec(compile(example.source, filename, "single",
  File "<doctest replace-deprecated-functions.rst[3]>", line 1, in <module>
  File "/work/heldout20/python-semver/src/semver/version.py", line 576, in finalize_version
    return cls(self.major, self.minor, self.patch, self.prelease)
                                                   ^^^^^^^^^^^^^
AttributeError: 'Version' object has no attribute 'prelease'
/work/heldout20/python-semver/docs/migration/replace-deprecated-functions.rst:51: UnexpectedException
=========================== short test summary info ============================
FAILED docs/migration/replace-deprecated-functions.rst::replace-deprecated-functions.rst
============================== 1 failed in 2.77s ===============================
`;
    const [failure] = pytestParser.parse(output);
    expect(failure?.message).toBe("AttributeError: 'Version' object has no attribute 'prelease'");
    // Named by the summary's node id, not by the `<doctest …>` pseudo-file of its example.
    expect(failure?.test).toBe(
      "docs/migration/replace-deprecated-functions.rst::replace-deprecated-functions.rst",
    );
    expect(failure?.file).toBe("/work/heldout20/python-semver/src/semver/version.py");
  });

  it("places an assertion made in a helper of the tests at the test's line that called it (parse)", () => {
    const output = `=================================== FAILURES ===================================
_________________________________ test_numbers _________________________________

    def test_numbers():
        def y(fmt, s, e):
            assert parse.parse(fmt, s).fixed[0] == e
    
>       y("a {:%} b", "a 100% b", 1)

tests/test_parse.py:260: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

fmt = 'a {:%} b', s = 'a 100% b', e = 1

    def y(fmt, s, e):
>       assert parse.parse(fmt, s).fixed[0] == e
E       assert 10.0 == 1

tests/test_parse.py:243: AssertionError
______________________________ test_total_helper _______________________________

    def test_total_helper():
>       check_total([1, 2], 4)

tests/test_cart.py:12: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

>       assert sum(items) == total
E       AssertionError: assert 3 == 4

tests/helpers.py:3: AssertionError
______________________________ test_library_check ______________________________

    def test_library_check():
>       cart.total([1, "2"])

tests/test_cart.py:20: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

>       assert all(isinstance(item, int) for item in items)
E       AssertionError

src/cart.py:7: AssertionError
=========================== short test summary info ============================
FAILED tests/test_parse.py::test_numbers - assert 10.0 == 1
FAILED tests/test_cart.py::test_total_helper - AssertionError: assert 3 == 4
FAILED tests/test_cart.py::test_library_check - AssertionError
============================== 3 failed in 0.12s ===============================
`;
    expect(
      pytestParser.parse(output).map(({ test, file, line }) => ({ test, file, line })),
    ).toEqual([
      { test: "tests/test_parse.py::test_numbers", file: "tests/test_parse.py", line: 260 },
      { test: "tests/test_cart.py::test_total_helper", file: "tests/test_cart.py", line: 12 },
      // An assertion in the code under test is where it broke, as a raised error is.
      { test: "tests/test_cart.py::test_library_check", file: "src/cart.py", line: 7 },
    ]);
  });

  it("reads a test's own assert made while handling an exception from the chain's last traceback (schema)", () => {
    const output = `=================================== FAILURES ===================================
__________________________________ test_dict ___________________________________

    def test_dict():
        with SE:
            try:
>               Schema({"key": 5}).validate({})

test_schema.py:271: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

>               raise SchemaMissingKeyError(message, e.format(data) if e else None)
E               schema.SchemaMissingKeyError: Missing keys: 'key'

schema/__init__.py:524: SchemaMissingKeyError

During handling of the above exception, another exception occurred:

    def test_dict():
        with SE:
            try:
                Schema({"key": 5}).validate({})
            except SchemaMissingKeyError as e:
>               assert e.args[0] == "Missing key: 'key'"
E               assert "Missing keys: 'key'" == "Missing key: 'key'"
E                 
E                 - Missing key: 'key'
E                 + Missing keys: 'key'
E                 ?            +

test_schema.py:273: AssertionError
`;
    expect(pytestParser.parse(output)).toMatchObject([
      {
        test: "test_schema.py::test_dict",
        file: "test_schema.py",
        line: 273,
        expected: `"Missing key: 'key'"`,
        received: `"Missing keys: 'key'"`,
      },
    ]);
  });

  it("reads a new error raised while handling another from the chain's last traceback (jinja)", () => {
    const output = `=================================== FAILURES ===================================
________________________ TestFilter.test_int[1e10000-0] ________________________
src/jinja2/filters.py:992: in do_int
    return int(value, base)
           ^^^^^^^^^^^^^^^^
E   ValueError: invalid literal for int() with base 10: '1e10000'

During handling of the above exception, another exception occurred:
tests/test_filters.py:204: in test_int
    assert t.render(value=value) == expect
           ^^^^^^^^^^^^^^^^^^^^^
src/jinja2/filters.py:998: in do_int
    return int(float(value))
           ^^^^^^^^^^^^^^^^^
E   OverflowError: cannot convert float infinity to integer
`;
    expect(pytestParser.parse(output)).toMatchObject([
      {
        file: "src/jinja2/filters.py",
        line: 998,
        message: "OverflowError: cannot convert float infinity to integer",
      },
    ]);
  });

  it("places a Hypothesis test's failure at its assert, and a chained error where it was first raised (pyiso8601)", () => {
    const output = `=================================== FAILURES ===================================
_______________________ test_parse[2013-10-15T22:30+04] ________________________

    def test_parse(valid_date):
>       parsed = iso8601.parse_date(valid_date)

iso8601/test_iso8601.py:250: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

>       minutes = int(matches.get("tz_minute"))
E       TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'

iso8601/iso8601.py:94: TypeError

During handling of the above exception, another exception occurred:

valid_date = '2013-10-15T22:30+04'

    def test_parse(valid_date):
>       parsed = iso8601.parse_date(valid_date)

iso8601/test_iso8601.py:250: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

        except Exception as e:
>           raise ParseError(e)
E           iso8601.iso8601.ParseError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'

iso8601/iso8601.py:148: ParseError
____________________ test_hypothesis_valid_naive_datetimes _____________________

    @hypothesis.given(s=hypothesis.strategies.datetimes())
>   def test_hypothesis_valid_naive_datetimes(s: datetime.datetime) -> None:

iso8601/test_iso8601.py:268: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

s = datetime.datetime(2000, 1, 1, 0, 0, 0, 1)

    @hypothesis.given(s=hypothesis.strategies.datetimes())
    def test_hypothesis_valid_naive_datetimes(s: datetime.datetime) -> None:
        parsed = iso8601.parse_date(s.isoformat(), default_timezone=None)
>       assert s == parsed
E       assert datetime.datetime(2000, 1, 1, 0, 0, 0, 1) == datetime.datetime(2000, 1, 1, 0, 0)
E       Falsifying example: test_hypothesis_valid_naive_datetimes(
E           s=datetime.datetime(2000, 1, 1, 0, 0, 0, 1),
E       )

iso8601/test_iso8601.py:272: AssertionError
=========================== short test summary info ============================
FAILED iso8601/test_iso8601.py::test_parse[2013-10-15T22:30+04] - iso8601.iso8601.ParseError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'
FAILED iso8601/test_iso8601.py::test_hypothesis_valid_naive_datetimes - assert datetime.datetime(2000, 1, 1, 0, 0, 0, 1) == datetime.datetime(2000, 1, 1, 0, 0)
============================== 2 failed in 0.52s ===============================
`;
    expect(
      pytestParser.parse(output).map(({ file, line, message }) => ({ file, line, message })),
    ).toEqual([
      {
        file: "iso8601/iso8601.py",
        line: 94,
        message:
          "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'",
      },
      {
        file: "iso8601/test_iso8601.py",
        line: 272,
        message:
          "assert datetime.datetime(2000, 1, 1, 0, 0, 0, 1) == datetime.datetime(2000, 1, 1, 0, 0)",
      },
    ]);
  });

  it("reads a header too long for the terminal, one `_` each side, as its own section (inflection)", () => {
    // One failure's traceback, cut to its test's line, the code's line and the error.
    const frames = `test_inflection.py:372: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
inflection/__init__.py:282: in parameterize
    string = re.sub(r"(?i)^({sep}|{sep}$".format(sep=re_sep), '', string)
>                   raise source.error("missing ), unterminated subpattern",
E                   re.error: missing ), unterminated subpattern at position 5

/root/.pyenv/versions/3.11.7/lib/python3.11/re/_parser.py:874: error
`;
    const output = `=================================== FAILURES ===================================
______________ test_parameterize[Donald E. Knuth-donald-e-knuth] _______________

${frames}_ test_parameterize[Random text with *(bad)* characters-random-text-with-bad-characters] _

${frames}----------------------------- Captured stdout call -----------------------------
_ a line the test printed _
==== a line of = the test printed ====
__ test_parameterize[Test with malformed utf8 \\xa9-test-with-malformed-utf8] ___

${frames}=========================== short test summary info ============================
FAILED test_inflection.py::test_parameterize[Donald E. Knuth-donald-e-knuth] - re.error: missing ), unterminated subpattern at position 5
FAILED test_inflection.py::test_parameterize[Random text with *(bad)* characters-random-text-with-bad-characters] - re.error: missing ), unterminated subpattern at position 5
FAILED test_inflection.py::test_parameterize[Test with malformed utf8 \\xa9-test-with-malformed-utf8] - re.error: missing ), unterminated subpattern at position 5
======================== 3 failed, 426 passed in 5.67s =========================
`;
    const failures = pytestParser.parse(output);
    expect(failures.map((failure) => failure.test)).toEqual([
      "test_inflection.py::test_parameterize[Donald E. Knuth-donald-e-knuth]",
      "test_inflection.py::test_parameterize[Random text with *(bad)* characters-random-text-with-bad-characters]",
      "test_inflection.py::test_parameterize[Test with malformed utf8 \\xa9-test-with-malformed-utf8]",
    ]);
    for (const failure of failures) {
      expect(failure).toMatchObject({
        file: "inflection/__init__.py",
        line: 282,
        message: "re.error: missing ), unterminated subpattern at position 5",
      });
    }
  });

  it("reads two shortened strings' values from the first lines of their diff, indentation kept (sqlparse)", () => {
    const output = `=================================== FAILURES ===================================
________________________ TestFormatReindent.test_where _________________________

>       assert f(s) == '\\n'.join([
            'select *',
            '       or bzz = 3);'])
E       AssertionError: assert 'select *\\nfr... or bzz = 3);' == 'select *\\nfr... or bzz = 3);'
E         
E         Skipping 44 identical leading characters in diff, use -v to show
E            2
E         -        or bzz = 3);
E         +         or bzz = 3);
E         ? +

tests/test_format.py:447: AssertionError
_____________________________ test_long_identifier _____________________________

>       assert f(s) == expected
E       assert "select 'abc'...from my_table" == "select 'abc'...from my_table"
E         
E         -          a, 'b', b, 'c',
E         +           a, 'b', b, 'c',
E         ? +
E         -          'e', e) as col2col3...

tests/test_format.py:531: AssertionError
=========================== short test summary info ============================
FAILED tests/test_format.py::TestFormatReindent::test_where - AssertionError: assert 'select *\\nfr... or bzz = 3);' == 'select *\\nfr... or bzz = 3);'
FAILED tests/test_format.py::test_long_identifier - assert "select 'abc'...from my_table" == "select 'abc'...from my_table"
======================== 2 failed, 426 passed in 5.67s =========================
`;
    const failures = pytestParser.parse(output);
    expect(failures.map(({ expected, received }) => ({ expected, received }))).toEqual([
      { expected: "'       or bzz = 3);'", received: "'        or bzz = 3);'" },
      { expected: `"         a, 'b', b, 'c',"`, received: `"          a, 'b', b, 'c',"` },
    ]);
  });

  it("reads doctest's `Got nothing` as what went wrong (humanize)", () => {
    const output = `=================================== FAILURES ===================================
_____________________ [doctest] humanize.time.naturaldelta _____________________
133
134         >>> assert naturaldelta(later - now) == "30 minutes"
Expected:
    True
Got nothing

/work/humanize/src/humanize/time.py:134: DocTestFailure
=========================== short test summary info ============================
FAILED src/humanize/time.py::humanize.time.naturaldelta
============================== 1 failed in 0.10s ===============================
`;
    expect(pytestParser.parse(output)).toEqual([
      failureOf({
        test: "src/humanize/time.py::humanize.time.naturaldelta",
        file: "/work/humanize/src/humanize/time.py",
        line: 134,
        expected: "True",
        message: "Got nothing",
      }),
    ]);
  });

  it("reads a text file's doctest diff and place, and a bare helper assertion's argument values (tabulate)", () => {
    const output = `rootdir: /work/heldout9/python-tabulate
=================================== FAILURES ===================================
_____________________________ [doctest] README.md ______________________________
238 \`\`\`pycon
239 >>> print(tabulate(table, headers, tablefmt="github"))
Differences (unified diff with -expected +actual):
    @@ -1,4 +1,4 @@
     | item   |   qty |
    -|:-------|------:|
    +|:-------|-------|
     | spam   |    42 |
     | eggs   |   451 |

/work/heldout9/python-tabulate/README.md:239: DocTestFailure
_____________________________ test_pipe_headerless _____________________________

    def test_pipe_headerless():
        "Output: pipe without headers"
        expected = "\\n".join(["|:-----|---------:|", "| spam |  41.9999 |", "| eggs | 451      |"])
        result = tabulate(_test_table, tablefmt="pipe")
>       assert_equal(expected, result)

test/test_output.py:2011: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

expected = '|:-----|---------:|\\n| spam |  41.9999 |\\n| eggs | 451      |'
result = '|:-----|----------|\\n| spam |  41.9999 |\\n| eggs | 451      |'

    def assert_equal(expected, result):
        print(f"Expected:\\n{expected!r}\\n")
        print(f"Got:\\n{result!r}\\n")
>       assert expected == result
               ^^^^^^^^^^^^^^^^^^
E       AssertionError

test/common.py:10: AssertionError
----------------------------- Captured stdout call -----------------------------
Expected:
'|:-----|---------:|\\n| spam |  41.9999 |\\n| eggs | 451      |'

=========================== short test summary info ============================
FAILED README.md::README.md
FAILED test/test_output.py::test_pipe_headerless - AssertionError
========================= 2 failed, 1 passed in 0.14s ==========================
`;
    expect(pytestParser.parse(output)).toEqual([
      failureOf({
        test: "README.md::README.md",
        file: "README.md",
        line: 239,
        expected: "|:-------|------:|",
        received: "|:-------|-------|",
        message: "DocTestFailure",
      }),
      failureOf({
        test: "test/test_output.py::test_pipe_headerless",
        file: "test/test_output.py",
        line: 2011,
        expected: "|:-----|---------:|",
        received: "|:-----|----------|",
        message: "AssertionError",
      }),
    ]);
  });

  it("takes a bare assertion's sides by its names, the left received unless it says expected", () => {
    const output = `=================================== FAILURES ===================================
___________________________________ test_sum ___________________________________

    def test_sum():
>       check(total([1, 2]), 4)

tests/test_sum.py:4: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

got = 3, want = 4

    def check(got, want):
>       assert got == want
E       AssertionError

tests/helpers.py:2: AssertionError
=========================== short test summary info ============================
FAILED tests/test_sum.py::test_sum - AssertionError
============================== 1 failed in 0.01s ===============================
`;
    const [failure] = pytestParser.parse(output);
    expect([failure?.expected, failure?.received]).toEqual(["4", "3"]);
  });

  it("never reads a passed test's section under `-rA`'s PASSES banner as a failure (tabulate)", () => {
    const output = `=================================== FAILURES ===================================
__________________________________ test_fails __________________________________

>       assert f(1) == 2
E       assert 1 == 2

tests/test_a.py:3: AssertionError
==================================== PASSES ====================================
_________________________________ test_passes __________________________________
----------------------------- Captured stdout call -----------------------------
hello
=========================== short test summary info ============================
PASSED tests/test_a.py::test_passes
FAILED tests/test_a.py::test_fails - assert 1 == 2
========================= 1 failed, 1 passed in 0.10s ==========================
`;
    expect(pytestParser.parse(output).map((failure) => failure.test)).toEqual([
      "tests/test_a.py::test_fails",
    ]);
  });

  it("reads a bare AssertionError of an assert pytest did not rewrite by the statement it failed (rfc3986)", () => {
    const output = `=================================== FAILURES ===================================
____ TestParseResultParsesURIs.test_handles_percent_in_fragment[[::1%25lo]] ____

self = <tests.test_parseresult.TestParseResultParsesURIs object at 0x7f2610a6b090>

    def test_handles_percent_in_fragment(self, uri_fragment_with_percent):
        uri = self.test_class.from_string(uri_fragment_with_percent)
>       assert uri.fragment == "perc%25ent"
E       AssertionError

tests/base.py:136: AssertionError
=========================== short test summary info ============================
FAILED tests/test_parseresult.py::TestParseResultParsesURIs::test_handles_percent_in_fragment[[::1%25lo]] - AssertionError
============================== 1 failed in 0.01s ===============================
`;
    const [failure] = pytestParser.parse(output);
    expect(failure).toMatchObject({
      file: "tests/base.py",
      line: 136,
      message: 'AssertionError at `assert uri.fragment == "perc%25ent"`',
      expected: null,
      received: null,
    });
  });
});
