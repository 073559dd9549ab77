import { describe, expect, it } from "vitest";
import { decide } from "../core/decide.js";
import type { EscalateDecision } from "../core/decision.js";
import { SEED_CHECK } from "../core/escalation/test-support/seed-attempts.js";
import { DEFAULT_ITERATION_CONTROL } from "../core/iteration-check.js";
import { applySummarizer } from "./apply-summarizer.js";
import type { Summarizer } from "./summarizer.js";

/** The seed's escalation, as `decide` builds it deterministically. */
function seedEscalation(): EscalateDecision {
  const decision = decide({
    iterationControl: DEFAULT_ITERATION_CONTROL,
    stopConditions: {},
    iterationCheck: SEED_CHECK,
  });
  if (decision.action !== "escalate") throw new Error("the seed escalates");
  return decision;
}

const deterministic = seedEscalation();

describe("applySummarizer", () => {
  it("applies the fields a summarizer rewrites and keeps the rest", async () => {
    const summarizer: Summarizer = async (escalation) => ({
      patternDetected: `The ${escalation.taskId} token carries userId as a string; the test wants a number.`,
      question: `userId: string or number?\n${escalation.options.map((o) => `${o.id}. ${o.label}`).join("\n")}`,
    });
    const outcome = await applySummarizer(deterministic, summarizer);
    expect(outcome.rewritten).toBe(true);
    expect(outcome.decision.context.patternDetected).toBe(
      "The task-003 token carries userId as a string; the test wants a number.",
    );
    expect(outcome.decision.question.split("\n")[0]).toBe("userId: string or number?");
    expect(outcome.decision.context.attemptsSummary).toBe(deterministic.context.attemptsSummary);
    expect(outcome.decision.options).toBe(deterministic.options);
  });

  it("redacts what the summarizer writes", async () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOiIxMjMifQ.c2lnbmF0dXJlLXNlY3JldA";
    const outcome = await applySummarizer(deterministic, async () => ({
      attemptsSummary: `Iteration 1: token ${jwt}\n`,
    }));
    expect(outcome.decision.context.attemptsSummary).not.toContain(jwt);
  });

  it.each<[string, Summarizer, RegExp]>([
    ["throws", () => Promise.reject(new Error("model unavailable")), /model unavailable/],
    ["returns an unknown key", async () => ({ summary: "x" }) as never, /summary/],
    ["returns a wrong type", async () => ({ question: 42 }) as never, /question/],
    ["blanks a field", async () => ({ attemptsSummary: "  " }), /non-blank/],
    ["returns nothing", async () => undefined as never, /mapping/],
    [
      "drops an option's line",
      async () => ({ question: "String or number?" }),
      /lost option line "1\. String/,
    ],
  ])(
    "falls back to the deterministic escalation when the summarizer %s",
    async (_, summarizer, why) => {
      const outcome = await applySummarizer(deterministic, summarizer);
      expect(outcome.decision).toBe(deterministic);
      expect(outcome.rewritten === false && outcome.error).toMatch(why);
    },
  );

  it("falls back on timeout and aborts the summarizer", async () => {
    let aborted = false;
    const slow: Summarizer = (_, signal) =>
      new Promise((resolve) => {
        signal.addEventListener("abort", () => {
          aborted = true;
          resolve({ question: "too late" });
        });
      });
    const outcome = await applySummarizer(deterministic, slow, 20);
    expect(outcome).toEqual({
      decision: deterministic,
      rewritten: false,
      error: "timed out after 20 ms",
    });
    expect(aborted).toBe(true);
  });
});
