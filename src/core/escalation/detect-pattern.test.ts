import { describe, expect, it } from "vitest";
import { attemptRecords } from "./attempt-record.js";
import { detectPattern, findPattern } from "./detect-pattern.js";
import { failing, jestFailure, rejected, SEED_ATTEMPTS } from "./test-support/seed-attempts.js";

/** Noise that differs run to run. */
const run = (n: number) => ({
  line: 10 + n,
  column: n,
  ms: 100 * n,
  tmp: `jest_${String(n).repeat(6)}`,
});
const fourVsFive = (n: number) => jestFailure("adds two numbers", "4", "5", run(n));
const trueVsFalse = (n: number) => jestFailure("is even", "true", "false", run(n));

/** AVA 6's report of query-string's keyed `id: '123'` for `id: 123`, the last of two failures. */
const AVA_KEYED_ID = [
  "  parse › types option: will parse the value as number",
  "",
  "  test/parse.js:615",
  "",
  "  Difference (- actual, + expected):",
  "",
  "    {",
  "  -   id: '123',",
  "  +   id: 123,",
  "    }",
  "",
  "  › file://test/parse.js:615:4",
  "",
  "  ─",
  "",
  "  2 tests failed",
];

describe("detectPattern: type mismatch", () => {
  it("names the field of the seed's userId mismatch and exposes both values", () => {
    const pattern = findPattern(attemptRecords(SEED_ATTEMPTS));
    expect(pattern?.kind).toBe("type-mismatch");
    expect(pattern?.description).toBe("userId format mismatch between token and test expectation");
    if (pattern?.kind !== "type-mismatch") return;
    expect(pattern.iterations).toEqual([3]);
    expect(pattern.mismatch).toMatchObject({
      field: "userId",
      subject: "token",
      expectedType: "number",
      receivedType: "string",
      expected: { text: "123" },
      received: { text: '"123"' },
    });
  });

  it("never lends one failure's value diff to another whose values no parser read (ava)", () => {
    // AVA 6 (query-string): a timing check with no values, then a deepEqual whose diff is AVA's
    // `- actual, + expected`; the diff belongs to the second failure, read the right way round.
    const output = [
      "  ✘ [fail]: parse-url › handles query-heavy URLs Expected URL parsing to avoid splitting",
      "  ✘ [fail]: parse › types option: will parse the value as number",
      "  ─",
      "",
      "  parse-url › handles query-heavy URLs",
      "",
      "  test/parse-url.js:30",
      "",
      "   30:   t.true(elapsedTime < 120, `Expected URL parsing to avoid splitting the…",
      "",
      "  Expected URL parsing to avoid splitting the whole URL. Took 1520.9ms.",
      "",
      "  Value is not `true`:",
      "",
      "  false",
      "",
      "  › file://test/parse-url.js:30:8",
      "",
      ...AVA_KEYED_ID,
    ].join("\n");
    const pattern = findPattern(attemptRecords([failing(1, output)]));
    expect(pattern?.kind === "type-mismatch" && pattern.mismatch).toMatchObject({
      field: "id",
      expected: { type: "number", text: "123" },
      received: { type: "string", text: '"123"' },
    });
  });

  it("prefers a mismatch that names its field to an earlier array element's (ava)", () => {
    // AVA 6 (query-string): `ids` elements `'1'` for `1` first, then a keyed `id: '123'`.
    const output = [
      "  ✘ [fail]: parse › types option: can override string arrays to be number[]",
      "  ✘ [fail]: parse › types option: will parse the value as number",
      "  ─",
      "",
      "  parse › types option: can override string arrays to be number[]",
      "",
      "  test/parse.js:553",
      "",
      "  Difference (- actual, + expected):",
      "",
      "    {",
      "      ids: [",
      "  -     '1',",
      "  -     '2',",
      "  +     1,",
      "  +     2,",
      "      ],",
      "    }",
      "",
      "  › file://test/parse.js:553:4",
      "",
      ...AVA_KEYED_ID,
    ].join("\n");
    const pattern = findPattern(attemptRecords([failing(1, output)]));
    expect(pattern?.description).toBe(
      "id format mismatch between implementation and test expectation",
    );
  });

  it("names the field by the path Jasmine's toEqual prints (fast-xml-parser)", () => {
    const output = [
      "Started",
      "F",
      "",
      "Failures:",
      "1) XMLParser should parse attributes separated by newline char",
      "  Message:",
      "    Expected $.element.id = '7' to equal 7.",
      "  Stack:",
      "        at <Jasmine>",
      "        at UserContext.<anonymous> (/ci/fxp/spec/attr_spec.js:75:29)",
      "",
      "1 spec, 1 failure",
    ].join("\n");
    const pattern = findPattern(attemptRecords([failing(1, output)]));
    expect(pattern?.description).toBe(
      "id format mismatch between implementation and test expectation",
    );
  });

  it("reads toBe on a property, booleans and floats", () => {
    const toBe = [
      "  ● auth › keeps the session flag",
      "",
      "    expect(received).toBe(expected) // Object.is equality",
      "",
      "    Expected: true",
      '    Received: "true"',
      "",
      "    > 8 |     expect(session.isAdmin).toBe(true);",
    ].join("\n");
    expect(detectPattern([failing(1, toBe)])).toBe(
      "isAdmin format mismatch between session and test expectation",
    );
    const float = jestFailure("scales the ratio", "1.0", "1", run(1));
    const floatPattern = findPattern(attemptRecords([failing(1, float)]));
    expect(floatPattern?.kind === "type-mismatch" && floatPattern.mismatch).toMatchObject({
      expectedType: "float",
      receivedType: "integer",
    });
  });

  it("reads a pytest assertion", () => {
    const pytest = [
      "    def test_user_id():",
      ">       assert claims['user_id'] == 123",
      "E       AssertionError: assert '123' == 123",
      "",
      "tests/test_auth.py:9: AssertionError",
      "FAILED tests/test_auth.py::test_user_id - AssertionError: assert '123' == 123",
    ].join("\n");
    expect(detectPattern([failing(1, pytest)])).toBe(
      "user_id format mismatch between claims and test expectation",
    );
  });

  it("reads testify's typed values", () => {
    const testify = [
      "--- FAIL: TestUserID (0.00s)",
      "    auth_test.go:21:",
      "        \tError Trace:\tauth_test.go:21",
      "        \tError:      \tNot equal:",
      "        \t            \texpected: int(123)",
      '        \t            \tactual  : string("123")',
      "        \tTest:       \tTestUserID",
      "FAIL",
    ].join("\n");
    expect(detectPattern([failing(1, testify)])).toBe(
      'Value format mismatch between implementation and test expectation: "123" (string) vs 123 (number)',
    );
  });

  it("only looks at the latest attempt", () => {
    expect(detectPattern([SEED_ATTEMPTS[2]!, failing(4, "Error: database is down")])).toBeNull();
  });
});

describe("detectPattern: stuck", () => {
  it("reports the same failure on the last attempts despite run noise", () => {
    const attempts = [
      failing(1, trueVsFalse(1)),
      failing(2, fourVsFive(2)),
      failing(3, fourVsFive(3)),
    ];
    expect(detectPattern(attempts)).toBe(
      'Stuck on "expected 4, received 5" since iteration 2 (2 attempts in a row)',
    );
    expect(
      detectPattern([
        failing(1, fourVsFive(1)),
        failing(2, fourVsFive(2)),
        failing(3, fourVsFive(3)),
      ]),
    ).toBe('Stuck on "expected 4, received 5" since iteration 1 (3 attempts in a row)');
  });

  it("does not call repeated passing attempts stuck", () => {
    const pass = {
      testResult: { status: "pass", output: "ok" },
      reviewResult: { status: "pending", feedback: "" },
    } as const;
    expect(
      detectPattern([
        { iteration: 1, ...pass },
        { iteration: 2, ...pass },
      ]),
    ).toBeNull();
  });
});

describe("detectPattern: oscillation", () => {
  it("reports A, B, A, B", () => {
    const attempts = [fourVsFive(1), trueVsFalse(2), fourVsFive(3), trueVsFalse(4)].map(
      (output, index) => failing(index + 1, output),
    );
    expect(detectPattern(attempts)).toBe(
      'Oscillating between "Test failed - expected 4, received 5" and "Test failed - expected true, received false" since iteration 1',
    );
    expect(detectPattern(attempts.slice(1))).toBeNull();
  });

  it("needs the alternation to reach the latest attempt", () => {
    const attempts = [
      fourVsFive(1),
      trueVsFalse(2),
      fourVsFive(3),
      trueVsFalse(4),
      "Error: new",
    ].map((output, index) => failing(index + 1, output));
    expect(detectPattern(attempts)).toBeNull();
  });
});

describe("detectPattern: review rejects the same point", () => {
  it("reports a point the review repeats while tests pass", () => {
    const attempts = [
      rejected(1, "- Add input validation for email\n- Rename tmp variable"),
      rejected(2, "- add input validation for email\n- Split the 80-line function"),
      rejected(3, "- Add input validation for  email"),
    ];
    expect(detectPattern(attempts)).toBe(
      "Review rejected the same point in iterations 1–3: Add input validation for email",
    );
  });

  it("keeps to the latest run that shares a point", () => {
    const attempts = [
      rejected(1, "- Use async I/O"),
      rejected(2, "- Add docs"),
      rejected(3, "- add docs"),
    ];
    expect(detectPattern(attempts)).toBe(
      "Review rejected the same point in iterations 2–3: add docs",
    );
  });
});

describe("detectPattern: none", () => {
  it("returns null for different failures or a single attempt", () => {
    expect(detectPattern([failing(1, fourVsFive(1)), failing(2, trueVsFalse(2))])).toBeNull();
    expect(detectPattern([failing(1, fourVsFive(1))])).toBeNull();
    expect(detectPattern([])).toBeNull();
  });
});
