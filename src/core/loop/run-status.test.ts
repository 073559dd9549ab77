import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzRuns, fuzzSeed } from "../../test-support/hostile/fuzz-runs.js";
import { activeTask, effectsOf } from "./effects-of.js";
import type { LoopState } from "./loop-state.js";
import { runStandingOf, type RunStanding } from "./run-status.js";
import { runSummary } from "./run-summary.js";
import { startLoop } from "./start-loop.js";
import { eventsOf, runArb } from "../../test-support/random-runs.js";
import { transition } from "./transition.js";

const RUNS = { numRuns: fuzzRuns(40), ...fuzzSeed() };

/** A run's standing as the state's effects define it: what `runStandingOf` must agree with. */
function byEffects(state: LoopState): RunStanding {
  const effects = effectsOf(state);
  const active = activeTask(state)?.id ?? null;
  if (effects[0]?.kind === "finish") {
    const cancelled = state.tasks.some(
      (task) => task.phase.name === "done" && task.phase.outcome === "cancelled",
    );
    return { status: cancelled ? "cancelled" : "finished", active };
  }
  const paused =
    effects.length > 0 &&
    effects.every((effect) => effect.kind === "await-answer" || effect.kind === "resume-step");
  if (!paused) return { status: "unfinished", active };
  const asking = effects.some((effect) => effect.kind === "await-answer");
  return { status: asking ? "awaiting-answer" : "step-error", active };
}

describe("runStandingOf", () => {
  it("tells, from the tasks' summaries alone, the standing the state's effects give, after every event of random runs", () => {
    fc.assert(
      fc.property(runArb, (run) => {
        let state = startLoop(run.plan).state;
        const seen = [runStandingOf(runSummary(state), run.plan.concurrency ?? 1)];
        const expected = [byEffects(state)];
        for (const event of eventsOf(run)) {
          state = transition(state, event).state;
          seen.push(runStandingOf(runSummary(state), run.plan.concurrency ?? 1));
          expected.push(byEffects(state));
        }
        expect(seen).toEqual(expected);
      }),
      RUNS,
    );
  });

  it("is finished for a run of no tasks, and unfinished while a task is still to start", () => {
    const summary = (outcome: "pending" | "proceeded") => ({
      taskId: outcome,
      outcome,
      iterations: 0,
      spend: 0,
      tokens: 0,
      reason: null,
    });
    expect(runStandingOf([], 1)).toEqual({ status: "finished", active: null });
    expect(runStandingOf([summary("proceeded"), summary("pending")], 2)).toEqual({
      status: "unfinished",
      active: null,
    });
  });
});
