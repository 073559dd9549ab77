import { describe, expect, it } from "vitest";
import type { AttemptCommit, StepOutcome } from "./step-outcome.js";
import type { AwaitAnswer } from "./loop-effect.js";
import { drive, generated, plan, task, tested } from "./test-support/loop-world.js";
import { transition } from "./transition.js";

// The loop's side of a restore (docs/workspaces.md): the options it offers a git-workspace
// task, and the attempt-restored event, which notes the driver's reset and changes nothing.

const commit = (head: string): AttemptCommit => ({
  branch: "loopgate/t",
  base: "b0",
  head,
  committed: true,
  diffFromPrevious: "",
});

/** Attempts failing 1, 2, 3 TAP tests: attempt 1 is the best. */
function failingWorld(withCommits: boolean) {
  return drive(plan(task("t", { hasReview: false })), {
    step: (effect): StepOutcome => {
      if (effect.step === "generate") {
        const outcome = generated();
        return withCommits && outcome.step === "generate"
          ? { ...outcome, commit: commit(`c${effect.iteration}`) }
          : outcome;
      }
      const lines = Array.from({ length: effect.iteration }, (_, i) => `not ok ${i + 1} - t${i}`);
      return tested("fail", ["TAP version 13", ...lines, `1..${effect.iteration}`].join("\n"));
    },
    answer: () => null,
  });
}

const paused = (state: ReturnType<typeof failingWorld>["state"]) => {
  const phase = state.tasks[0]?.phase;
  if (phase?.name !== "awaiting-answer") throw new Error("not paused");
  return phase;
};

describe("restore in the loop", () => {
  it("offers Restore attempt N and continue / stop when the attempts are commits and an earlier one is best", () => {
    const { state } = failingWorld(true);
    const labels = paused(state).options.map((option) => `${option.id}. ${option.label}`);
    expect(labels.slice(-2)).toEqual([
      `${labels.length - 1}. Restore attempt 1 and continue`,
      `${labels.length}. Restore attempt 1 and stop`,
    ]);
    expect(paused(failingWorld(false).state).options.some((o) => o.restore !== undefined)).toBe(
      false,
    );
  });

  it("stops the task on Restore … and stop (aborted at the approval gate), and leaves the state as it is on attempt-restored", () => {
    const { state, effects } = failingWorld(true);
    const awaiting = effects.findLast(
      (effect): effect is AwaitAnswer => effect.kind === "await-answer",
    );
    if (awaiting === undefined) throw new Error("no pause");
    const stop = paused(state).options.find((o) => o.label === "Restore attempt 1 and stop");
    const base = { effectId: awaiting.id, taskId: "t", iteration: 3 };
    const restored = {
      type: "attempt-restored" as const,
      ...base,
      attempt: 1,
      commit: "c1",
      replaced: "c3",
    };
    expect(transition(state, restored).state).toEqual(state);
    const answered = transition(state, {
      type: "answer-given",
      ...base,
      answer: { kind: "option", option: stop?.id ?? 0, restore: 1 },
    }).state;
    const phase = answered.tasks[0]?.phase;
    expect(phase?.name === "deciding" && phase.decision.action).toBe("abort");
    // A restore names the task's pending effect like any event: another one is refused.
    expect(() => transition(state, { ...restored, effectId: "nope" })).toThrow(
      /INVALID_EVENT|does not fit/,
    );
  });
});
