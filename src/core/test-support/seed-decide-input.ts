import type { DecideInput } from "../decide-input.js";

/** The seed's own `decide` example (examples/seed/iteration-check.yaml) as the library takes it. */
export const SEED_DECIDE_INPUT: DecideInput = {
  iterationControl: {
    maxIterations: 3,
    autoRetryOnTestFail: true,
    autoRetryOnReviewReject: true,
    escalationIncludesDiff: true,
    feedbackMaxLength: 500,
  },
  stopConditions: {},
  iterationCheck: {
    taskId: "task-003",
    currentIteration: 2,
    maxIterations: 3,
    testResult: {
      status: "fail",
      output:
        "FAIL src/auth/login.test.ts\nExpected: token to contain userId\nReceived: undefined\n",
    },
    reviewResult: { status: "pending", feedback: "" },
  },
};
