import fc from "fast-check";
import type { LoopEvent } from "../core/loop/loop-event.js";
import type { LoopPlan } from "../core/loop/loop-plan.js";
import {
  drive,
  generated,
  plan,
  reviewed,
  stepErrored,
  task,
  tested,
  type World,
} from "../core/loop/test-support/loop-world.js";

/** One to five tasks of random caps and steps, run one to three at a time. */
export const planArb: fc.Arbitrary<LoopPlan> = fc
  .record({
    tasks: fc.array(
      fc.record({
        maxIterations: fc.integer({ min: 1, max: 3 }),
        maxPolls: fc.integer({ min: 0, max: 1 }),
        hasTest: fc.boolean(),
        hasReview: fc.boolean(),
        autoRetry: fc.boolean(),
      }),
      { minLength: 1, maxLength: 5 },
    ),
    concurrency: fc.integer({ min: 1, max: 3 }),
  })
  .map(({ tasks, concurrency }) => ({
    ...plan(
      ...tasks.map((each, index) =>
        task(`t${index}`, {
          iterationControl: {
            maxIterations: each.maxIterations,
            autoRetryOnReviewReject: each.autoRetry,
          },
          reviewWait: { maxPolls: each.maxPolls, intervalMs: 1 },
          hasTest: each.hasTest,
          hasReview: each.hasReview,
        }),
      ),
    ),
    concurrency,
  }));

/** A world drawing each step's result, answer and step error from `choices`, in turn. */
export function worldOf(choices: readonly number[]): World {
  let turn = 0;
  const next = () => choices[turn++ % choices.length] ?? 0;
  return {
    step: (effect) => {
      const choice = next();
      if (effect.step === "generate") return generated({ exitCode: choice % 5 === 0 ? 1 : 0 });
      if (effect.step === "test") return tested(choice % 2 === 0 ? "pass" : "fail", "not ok 1\n");
      return reviewed((["approve", "reject", "pending"] as const)[choice % 3] ?? "approve", "fix");
    },
    answer: () => {
      const choice = next();
      return choice % 4 === 0
        ? null
        : choice % 4 === 1
          ? { kind: "text", text: "go on" }
          : choice % 4 === 2
            ? { kind: "approve" }
            : { kind: "abort" };
    },
    stepError: (effect) => (next() % 7 === 0 ? stepErrored(effect.step) : null),
  };
}

/** A random run: its plan, the world's choices, and how its tasks interleave. */
export const runArb = fc.record({
  plan: planArb,
  choices: fc.array(fc.nat({ max: 100 }), { minLength: 1, maxLength: 40 }),
  schedule: fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
});

/** The events of a random run, its tasks interleaved as `schedule` picks. */
export function eventsOf(run: {
  plan: LoopPlan;
  choices: number[];
  schedule: number[];
}): LoopEvent[] {
  let turn = 0;
  const pick = (ready: number) => (run.schedule[turn++ % run.schedule.length] ?? 0) % ready;
  return drive(run.plan, worldOf(run.choices), pick, 80).events;
}
