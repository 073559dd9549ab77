import { describe, expect, it } from "vitest";
import { closestKey } from "./closest-key.js";

const POLICY = ["max_iterations", "budget_cap", "stop_score", "no_progress", "time_limit_ms"];
const CONTROL = [
  "max_iterations",
  "auto_retry_on_test_fail",
  "auto_retry_on_review_reject",
  "escalation_includes_diff",
  "feedback_max_length",
];

describe("closestKey", () => {
  it.each([
    ["budget_capp", POLICY, "budget_cap"],
    ["budget_cp", POLICY, "budget_cap"],
    ["buget_cap", POLICY, "budget_cap"],
    ["max_iteration", POLICY, "max_iterations"],
    ["maxiterations", POLICY, "max_iterations"],
    ["feedback_max_len", CONTROL, "feedback_max_length"],
    ["auto_retry_on_test_failure", CONTROL, "auto_retry_on_test_fail"],
    ["no_progres", POLICY, "no_progress"],
    ["timelimit_ms", POLICY, "time_limit_ms"],
  ])("suggests %s → %s", (typo, known, expected) => {
    expect(closestKey(typo, known)).toBe(expected);
  });

  it("accepts other spellings of the same key: camelCase-free kebab and upper case", () => {
    expect(closestKey("budget-cap", POLICY)).toBe("budget_cap");
    expect(closestKey("BUDGET_CAP", POLICY)).toBe("budget_cap");
    expect(closestKey("Max-Iterations", POLICY)).toBe("max_iterations");
  });

  it.each(["zzzzzz", "colour", "retries", "webhook_url"])(
    "suggests nothing for the unrelated key %s",
    (key) => {
      expect(closestKey(key, POLICY)).toBeUndefined();
    },
  );

  it("suggests nothing when there is nothing to suggest", () => {
    expect(closestKey("budget_cap", [])).toBeUndefined();
  });
});

describe("closestKey for names other tools use", () => {
  it("suggests command for cmd, args, run, not cwd", () => {
    const step = ["command", "cwd", "env", "timeout_ms"];
    for (const key of ["cmd", "args", "argv", "run", "script", "CMD"]) {
      expect(closestKey(key, step)).toBe("command");
    }
  });

  it("suggests them only where command is a key", () => {
    expect(closestKey("cmd", ["cwd", "env"])).toBe("cwd");
  });
});
