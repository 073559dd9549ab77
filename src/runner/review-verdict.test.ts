import { describe, expect, it } from "vitest";
import { reviewVerdict } from "./review-verdict.js";

const run = (stdout: string, exitCode: number | null, timedOut = false) => ({
  stdout,
  output: stdout,
  exitCode,
  timedOut,
  durationMs: 1,
});

describe("reviewVerdict", () => {
  it("reads the last JSON line of stdout, whatever the exit code", () => {
    expect(
      reviewVerdict(
        run('thinking…\n{"status": "REJECT", "feedback": "no tests", "score": 0.3}\n', 0),
      ),
    ).toEqual({
      status: "reject",
      feedback: "no tests",
      score: 0.3,
    });
  });

  it("falls back on the exit code: 0 approves, 1 rejects with the output", () => {
    expect(reviewVerdict(run("fine\n", 0))).toEqual({ status: "approve", feedback: "fine\n" });
    expect(reviewVerdict(run("rename x\n", 1))).toEqual({
      status: "reject",
      feedback: "rename x\n",
    });
  });

  it("leaves a crashed or timed-out review pending, to be polled again", () => {
    expect(reviewVerdict(run("", 2)).status).toBe("pending");
    expect(reviewVerdict(run("", null, true)).status).toBe("pending");
  });

  it("rejects a verdict that breaks the protocol, quoting the problem", () => {
    expect(reviewVerdict(run('{"status": "ok"}', 0))).toEqual({
      status: "reject",
      feedback: expect.stringContaining(
        "status: expected one of approve, reject, pending",
      ) as string,
    });
  });
});
