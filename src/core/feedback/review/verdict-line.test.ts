import { describe, expect, it } from "vitest";
import { verdictOfLine } from "./verdict-line.js";

describe("verdictOfLine", () => {
  it.each([
    ["Verdict: Request changes", "reject"],
    ["**Verdict: Request changes** — the token leak needs fixing first.", "reject"],
    ["## VERDICT: REQUEST CHANGES", "reject"],
    ["#### **Final Recommendation: APPROVE** ✅", "approve"],
    ["**Status:** Request Changes", "reject"],
    ["- **Decision**: Approve", "approve"],
    ["Decision — Approve", "approve"],
    ["Review status: changes requested", "reject"],
    ["APPROVE WITH NITS", "approve"],
    ["Approved.", "approve"],
    ["Changes requested.", "reject"],
    ["LGTM", "approve"],
    ["LGTM, thanks!", "approve"],
    ["Looks good Rachael.", "approve"],
    ["LGTM @octocat", "approve"],
    ["Needs work.", "reject"],
    ["Do not merge", "reject"],
  ])("reads %j", (line, verdict) => {
    expect(verdictOfLine(line)).toBe(verdict);
  });

  it.each([
    "I'd approve once the quoting bug in (1) is fixed.",
    "LGTM overall, just one nit: rename x",
    "Looks good but",
    "Looks good overall",
    "Status: Comment / HOLD",
    "Status: blocked by #123",
    "Result: 3 tests failed",
    "- the status: approve flag is never read",
    "No blocking required actions — eligible for human merge.",
    "The approval flow rejects expired tokens.",
    "q-system/test.sh:52:## VERDICT: REQUEST CHANGES",
  ])("states no verdict in %j", (line) => {
    expect(verdictOfLine(line)).toBeUndefined();
  });
});
