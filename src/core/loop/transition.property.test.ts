import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Answer } from "./answer.js";
import type { LoopEvent } from "./loop-event.js";
import type { LoopPlan } from "./loop-plan.js";
import { replay } from "./replay.js";
import {
  drive,
  generated,
  plan,
  reviewed,
  task,
  tested,
  type World,
} from "./test-support/loop-world.js";

const RUNS = { numRuns: 300 } as const;

const answerArb: fc.Arbitrary<Answer> = fc.oneof(
  fc.record({ kind: fc.constant("text" as const), text: fc.string({ maxLength: 20 }) }),
  fc.constant({ kind: "abort" as const }),
  fc.constant({ kind: "approve" as const }),
);

const planArb: fc.Arbitrary<LoopPlan> = fc
  .array(
    fc.record({
      maxIterations: fc.integer({ min: 1, max: 4 }),
      extraIterations: fc.integer({ min: 1, max: 3 }),
      budgetCap: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
      maxPolls: fc.integer({ min: 0, max: 2 }),
      hasTest: fc.boolean(),
      hasReview: fc.boolean(),
      autoRetry: fc.boolean(),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((tasks) =>
    plan(
      ...tasks.map((settings, index) =>
        task(`t${index}`, {
          iterationControl: {
            maxIterations: settings.maxIterations,
            autoRetryOnReviewReject: settings.autoRetry,
          },
          stopConditions: { budgetCap: settings.budgetCap },
          onAnswer: { extraIterations: settings.extraIterations, extraBudget: 2, extraTimeMs: 0 },
          reviewWait: { maxPolls: settings.maxPolls, intervalMs: 1 },
          hasTest: settings.hasTest,
          hasReview: settings.hasReview,
        }),
      ),
    ),
  );

/** A world that draws each step's outcome and each answer from finite scripts. */
const worldArb: fc.Arbitrary<World> = fc
  .record({
    generateOk: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
    tests: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
    reviews: fc.array(fc.constantFrom("approve", "reject", "pending" as const), {
      minLength: 1,
      maxLength: 8,
    }),
    spends: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 4 }),
    answers: fc.array(answerArb, { maxLength: 4 }),
  })
  .map((script) => {
    let calls = 0;
    let answered = 0;
    const pick = <T>(items: readonly T[]): T => items[calls++ % items.length] as T;
    return {
      step: (effect) => {
        if (effect.step === "generate")
          return generated({
            exitCode: pick(script.generateOk) ? 0 : 1,
            spend: pick(script.spends),
          });
        if (effect.step === "test")
          return tested(pick(script.tests) ? "pass" : "fail", "not ok 1 - it works\n");
        return reviewed(pick(script.reviews), "please fix the naming");
      },
      answer: () => script.answers[answered++] ?? null,
    } satisfies World;
  });

describe("transition (properties)", () => {
  it("never runs more generate steps than the cap plus the extra attempts granted", () => {
    fc.assert(
      fc.property(planArb, worldArb, (loopPlan, world) => {
        const { state } = drive(loopPlan, world);
        for (const [index, taskState] of state.tasks.entries()) {
          const cap = loopPlan.tasks[index]?.iterationControl.maxIterations ?? 0;
          expect(taskState.generateRuns).toBeLessThanOrEqual(cap + taskState.grant.iterations);
          expect(taskState.iteration).toBeLessThanOrEqual(cap + taskState.grant.iterations);
        }
      }),
      RUNS,
    );
  });

  it("never moves past a failing test except through the approval gate", () => {
    fc.assert(
      fc.property(planArb, worldArb, (loopPlan, world) => {
        const { state, events } = drive(loopPlan, world);
        for (const taskState of state.tasks) {
          if (taskState.phase.name !== "done" || taskState.phase.outcome !== "proceeded") continue;
          if (taskState.lastInput?.iterationCheck.testResult.status !== "fail") continue;
          expect(taskState.phase.reason).toBe("APPROVAL_GATE");
          const approved = events.some(
            (event) =>
              event.type === "answer-given" &&
              event.taskId === taskState.id &&
              event.answer.kind === "approve",
          );
          expect(approved).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it("records each decision once, and runs tasks one after another in order", () => {
    fc.assert(
      fc.property(planArb, worldArb, (loopPlan, world) => {
        const { state, events } = drive(loopPlan, world);
        const decisionIds = events.flatMap((event) =>
          event.type === "decision-recorded" ? [event.effectId] : [],
        );
        expect(new Set(decisionIds).size).toBe(decisionIds.length);
        expect(decisionIds.length).toBe(state.tasks.reduce((sum, t) => sum + t.decisions, 0));
        const order = [...new Set(events.map((event) => event.taskId))];
        expect(order).toEqual(loopPlan.tasks.map((t) => t.id).slice(0, order.length));
      }),
      RUNS,
    );
  });

  it("rebuilds the same state from the same journal, after a JSON round trip", () => {
    fc.assert(
      fc.property(planArb, worldArb, (loopPlan, world) => {
        const { state, events } = drive(loopPlan, world);
        const journal = JSON.parse(JSON.stringify(events)) as LoopEvent[];
        const rebuilt = replay(JSON.parse(JSON.stringify(loopPlan)) as LoopPlan, journal);
        expect(rebuilt).toEqual(state);
        expect(JSON.parse(JSON.stringify(rebuilt))).toEqual(rebuilt);
      }),
      RUNS,
    );
  });

  it("refuses a journal with an event dropped or recorded twice", () => {
    fc.assert(
      fc.property(planArb, worldArb, fc.nat(), fc.boolean(), (loopPlan, world, cut, twice) => {
        const { events } = drive(loopPlan, world);
        fc.pre(events.length >= 2);
        const at = cut % (events.length - 1);
        const broken = twice
          ? [...events.slice(0, at + 1), ...events.slice(at)]
          : [...events.slice(0, at), ...events.slice(at + 1)];
        expect(() => replay(loopPlan, broken)).toThrow(/does not fit the loop/);
      }),
      RUNS,
    );
  });
});
