import { describe, expect, it } from "vitest";
import type { Approval } from "../counters.js";
import { approvalGate } from "./approval-gate.js";
import type { VerdictInput } from "./condition.js";
import { Precedence } from "./precedence.js";

const approved = (approval: Approval | null | undefined): VerdictInput => ({
  counters: approval === undefined ? { iteration: 0 } : { iteration: 0, approval },
  policy: { maxIterations: 10 },
});

describe("APPROVAL_GATE", () => {
  it("has its code and the first SPEC slot", () => {
    expect(approvalGate.code).toBe("APPROVAL_GATE");
    expect(approvalGate.precedence).toBe(Precedence.APPROVAL_GATE);
  });

  it("fires on approve, naming who and why", () => {
    expect(
      approvalGate.check(approved({ decision: "approve", by: "alice", note: "good enough" })),
    ).toEqual({ fired: true, reason: "approval approve by alice: good enough" });
  });

  it("fires on reject too: any human decision stops the loop", () => {
    expect(approvalGate.check(approved({ decision: "reject", by: "bob" }))).toEqual({
      fired: true,
      reason: "approval reject by bob",
    });
  });

  it("fires without by and note, and leaves empty ones out of the reason", () => {
    expect(approvalGate.check(approved({ decision: "approve" }))).toEqual({
      fired: true,
      reason: "approval approve",
    });
    expect(approvalGate.check(approved({ decision: "reject", by: "", note: "" }))).toEqual({
      fired: true,
      reason: "approval reject",
    });
  });

  it.each([null, undefined])("does not fire with a %s approval", (approval) => {
    expect(approvalGate.check(approved(approval))).toEqual({
      fired: false,
      reason: "no approval recorded",
    });
  });
});
