import { describe, expect, it } from "vitest";
import { REVIEW_PENDING_EXIT, reviewVerdict } from "./review-verdict.js";

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

  it("reads the verdict a review states itself before the exit code", () => {
    const changes = JSON.stringify({
      state: "CHANGES_REQUESTED",
      body: "Please restore the backoff.",
    });
    expect(reviewVerdict(run(`${changes}\n`, 0))).toEqual({
      status: "reject",
      feedback: `${changes}\n`,
    });
    expect(reviewVerdict(run("- a.ts:3 leak\n\n**Verdict: Request changes**\n", 0)).status).toBe(
      "reject",
    );
    expect(reviewVerdict(run("#### Final Recommendation: APPROVE ✅\n", 1)).status).toBe("approve");
    expect(reviewVerdict(run("- a.ts:3 leak\n\nI'd approve once it is fixed.\n", 0)).status).toBe(
      "approve",
    );
    expect(reviewVerdict(run("Verdict: Request changes\n", null, true)).status).toBe("crashed");
  });

  it("is pending only when it says so: a JSON pending, or exit 75", () => {
    expect(reviewVerdict(run('{"status": "pending"}\n', 0))).toEqual({
      status: "pending",
      feedback: "",
    });
    expect(reviewVerdict(run("CI still running\n", REVIEW_PENDING_EXIT))).toEqual({
      status: "pending",
      feedback: "CI still running\n",
    });
    expect(REVIEW_PENDING_EXIT).toBe(75);
  });

  it("calls a review that ends without a verdict a crash, saying how it ended", () => {
    expect(reviewVerdict(run("Traceback …\n", 2))).toEqual({
      status: "crashed",
      ended: "exited with 2 without a verdict",
    });
    expect(reviewVerdict(run("", null, true))).toEqual({
      status: "crashed",
      ended: "timed out without a verdict",
    });
    expect(reviewVerdict({ ...run("", null), signal: "SIGSEGV" })).toEqual({
      status: "crashed",
      ended: "was killed by SIGSEGV",
    });
    expect(reviewVerdict({ ...run("", null), notStarted: "spawn reviw.py ENOENT" })).toEqual({
      status: "crashed",
      ended: "could not start (spawn reviw.py ENOENT)",
    });
    // A verdict wins over the exit code, a crash's included.
    expect(reviewVerdict(run('{"status": "approve"}\n', 3)).status).toBe("approve");
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
