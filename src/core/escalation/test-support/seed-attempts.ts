import type { Attempt, IterationCheck } from "../../iteration-check.js";

/** The Jest header and footer around one failing test, with the run's timings. */
function jestRun(block: string, time = "5.123"): string {
  return [
    `FAIL src/auth/login.test.ts (${time} s)`,
    "  login",
    "    ✓ rejects a wrong password (3 ms)",
    "    ✕ returns a token carrying the userId (14 ms)",
    "",
    "  ● login › returns a token carrying the userId",
    "",
    block,
    "",
    "Test Suites: 1 failed, 1 total",
    "Tests:       1 failed, 1 passed, 2 total",
    `Time:        ${time} s`,
    "Ran all test suites.",
  ].join("\n");
}

/** Attempt 1 of the seed: login returns no token at all. */
export const UNDEFINED_TOKEN_OUTPUT = jestRun(
  [
    "    Expected: token to be defined",
    "    Received: undefined",
    "",
    '      11 |     const { token } = await login("ada", "pw");',
    "    > 12 |     expect(token).toBeDefined();",
    "         |                   ^",
    "",
    "      at Object.<anonymous> (src/auth/login.test.ts:12:19)",
  ].join("\n"),
);

/** Attempt 2 of the seed: a token, but without the userId claim. */
export const MISSING_USER_ID_OUTPUT = jestRun(
  [
    "    Expected: token to contain userId",
    "    Received: undefined",
    "",
    '      13 |     const { token } = await login("ada", "pw");',
    '    > 14 |     expect(decodeToken(token)).toHaveProperty("userId");',
    "         |                                ^",
    "",
    "      at Object.<anonymous> (src/auth/login.test.ts:14:32)",
  ].join("\n"),
  "4.871",
);

/** Attempt 3 of the seed: the userId claim is there, as a string where the test wants a number. */
export const STRING_USER_ID_OUTPUT = jestRun(
  [
    "    expect(received).toEqual(expected) // deep equality",
    "",
    "    - Expected  - 1",
    "    + Received  + 1",
    "",
    "      Object {",
    '    -   "userId": 123,',
    '    +   "userId": "123",',
    "      }",
    "",
    '      14 |     const { token } = await login("ada", "pw");',
    "    > 15 |     expect(decodeToken(token)).toEqual({ userId: 123 });",
    "         |                                ^",
    "",
    "      at Object.<anonymous> (src/auth/login.test.ts:15:32)",
  ].join("\n"),
  "6.002",
);

/** A review that has not answered, as in the seed's `iteration_check`. */
const PENDING = { status: "pending", feedback: "" } as const;

/** The seed's three failing attempts, oldest first. */
export const SEED_ATTEMPTS: readonly Attempt[] = [
  {
    iteration: 1,
    testResult: { status: "fail", output: UNDEFINED_TOKEN_OUTPUT },
    reviewResult: PENDING,
  },
  {
    iteration: 2,
    testResult: { status: "fail", output: MISSING_USER_ID_OUTPUT },
    reviewResult: PENDING,
  },
  {
    iteration: 3,
    testResult: { status: "fail", output: STRING_USER_ID_OUTPUT },
    reviewResult: PENDING,
  },
];

/** The seed's `iteration_check` at iteration 3: attempts 1 and 2 in history, attempt 3 current. */
export const SEED_CHECK: IterationCheck = {
  taskId: "task-003",
  currentIteration: 3,
  testResult: { status: "fail", output: STRING_USER_ID_OUTPUT },
  reviewResult: PENDING,
  history: SEED_ATTEMPTS.slice(0, 2),
};

/** A failing attempt with the given iteration and test output; the review has not answered. */
export function failing(iteration: number, output: string): Attempt {
  return { iteration, testResult: { status: "fail", output }, reviewResult: PENDING };
}

/** An attempt whose tests pass and whose review rejects with `feedback`. */
export function rejected(iteration: number, feedback: string): Attempt {
  return {
    iteration,
    testResult: { status: "pass", output: "Tests: 4 passed, 4 total" },
    reviewResult: { status: "reject", feedback },
  };
}

/** A Jest run where `test` fails with `expected` vs `received`, at a given line:col and timing. */
export function jestFailure(
  test: string,
  expected: string,
  received: string,
  noise: {
    readonly line: number;
    readonly column: number;
    readonly ms: number;
    readonly tmp: string;
  },
): string {
  return [
    `FAIL /tmp/${noise.tmp}/src/math.test.ts (${noise.ms} ms)`,
    `  ● math › ${test}`,
    "",
    "    expect(received).toBe(expected) // Object.is equality",
    "",
    `    Expected: ${expected}`,
    `    Received: ${received}`,
    "",
    `      at Object.<anonymous> (/tmp/${noise.tmp}/src/math.test.ts:${noise.line}:${noise.column})`,
    "",
    `Time:        ${noise.ms / 1000} s`,
  ].join("\n");
}
