import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Answer } from "./answer.js";
import type { LoopEvent } from "./loop-event.js";
import type { LoopPlan } from "./loop-plan.js";
import type { TaskState } from "./loop-state.js";
import { replay } from "./replay.js";
import { startLoop } from "./start-loop.js";
import { awaitedAnswers, effectsOf, stepErrors } from "./effects-of.js";
import { scheduleOf } from "./schedule.js";
import { transition } from "./transition.js";
import {
  drive,
  generated,
  plan,
  reviewed,
  stepErrored,
  task,
  tested,
  type Scheduler,
  type World,
} from "./test-support/loop-world.js";
import {
  referenceEffects,
  referencePaused,
  referenceStart,
  referenceTransition,
} from "./test-support/reference-fold.js";

const RUNS = { numRuns: 300 } as const;
/** Fewer runs for the properties that fold every journal more than once: the suite's time is tight. */
const FEW_RUNS = { numRuns: 60 } as const;

const answerArb: fc.Arbitrary<Answer> = fc.oneof(
  fc.record({ kind: fc.constant("text" as const), text: fc.string({ maxLength: 20 }) }),
  fc.constant({ kind: "abort" as const }),
  fc.constant({ kind: "approve" as const }),
);

/** A plan of one to `most` tasks, run `concurrency` at a time (1 when not given). */
function planArb(concurrency: fc.Arbitrary<number>, most = 4): fc.Arbitrary<LoopPlan> {
  const settings = fc.record({
    maxIterations: fc.integer({ min: 1, max: 4 }),
    extraIterations: fc.integer({ min: 1, max: 3 }),
    budgetCap: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
    maxPolls: fc.integer({ min: 0, max: 2 }),
    hasTest: fc.boolean(),
    hasReview: fc.boolean(),
    autoRetry: fc.boolean(),
  });
  return fc
    .record({ tasks: fc.array(settings, { minLength: 1, maxLength: most }), concurrency })
    .map(({ tasks, concurrency: places }) => ({
      ...plan(
        ...tasks.map((each, index) =>
          task(`t${index}`, {
            iterationControl: {
              maxIterations: each.maxIterations,
              autoRetryOnReviewReject: each.autoRetry,
            },
            stopConditions: { budgetCap: each.budgetCap },
            onAnswer: { extraIterations: each.extraIterations, extraBudget: 2, extraTimeMs: 0 },
            reviewWait: { maxPolls: each.maxPolls, intervalMs: 1 },
            hasTest: each.hasTest,
            hasReview: each.hasReview,
          }),
        ),
      ),
      concurrency: places,
    }));
}

const sequentialPlanArb = planArb(fc.constant(1));
const concurrentPlanArb = planArb(fc.integer({ min: 1, max: 3 }));

/** Finite scripts each task's steps and answers are drawn from, in turn. */
const scriptArb = fc.record({
  generateOk: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
  tests: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
  reviews: fc.array(fc.constantFrom("approve", "reject", "pending" as const), {
    minLength: 1,
    maxLength: 8,
  }),
  spends: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 4 }),
  answers: fc.array(answerArb, { maxLength: 4 }),
  // Which step runs error (a program not found), in turn; each task errs at most twice.
  stepErrors: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
});

type Script = typeof scriptArb extends fc.Arbitrary<infer S> ? S : never;

/** Whether a task waits for an answer or for its errored step to be run again. */
const isPaused = (each: TaskState) =>
  each.phase.name === "awaiting-answer" || each.phase.name === "step-error";

/**
 * A fresh world that answers each task from its own turn through the scripts, so a task's story
 * depends on that task alone, never on how the tasks are interleaved.
 */
function worldOf(script: Script): World {
  const turns = new Map<string, number>();
  const answered = new Map<string, number>();
  const next = (counters: Map<string, number>, taskId: string) => {
    const turn = counters.get(taskId) ?? 0;
    counters.set(taskId, turn + 1);
    return turn;
  };
  const pick = <T>(items: readonly T[], taskId: string): T =>
    items[next(turns, taskId) % items.length] as T;
  return {
    step: (effect) => {
      const id = effect.taskId;
      if (effect.step === "generate")
        return generated({
          exitCode: pick(script.generateOk, id) ? 0 : 1,
          spend: pick(script.spends, id),
        });
      if (effect.step === "test")
        return tested(pick(script.tests, id) ? "pass" : "fail", "not ok 1 - it works\n");
      return reviewed(pick(script.reviews, id), "please fix the naming");
    },
    answer: (effect) => script.answers[next(answered, effect.taskId)] ?? null,
  };
}

/** A marker only step errors carry, to look for where it must never be. */
const ERROR_MARK = "cannot run pytst: spawn pytst ENOENT";

/** The world of `script`, whose steps also error as `script.stepErrors` says, twice per task at most. */
function erringWorldOf(script: Script): World {
  const world = worldOf(script);
  const turns = new Map<string, number>();
  return {
    ...world,
    stepError: (effect) => {
      const turn = turns.get(effect.taskId) ?? 0;
      const errs = script.stepErrors[turn % script.stepErrors.length] === true && turn < 2;
      turns.set(effect.taskId, errs ? turn + 1 : turn);
      return errs ? stepErrored(effect.step, ERROR_MARK) : null;
    },
  };
}

/** What a run decided, task by task, without the effect ids (a step run again has a new one). */
const decisionsOf = (events: readonly LoopEvent[]) =>
  events.flatMap((event) => (event.type === "decision-recorded" ? [event.decision] : []));

/** A scheduler that picks among the ready effects by a drawn list of choices, in turn. */
const schedulerArb: fc.Arbitrary<Scheduler> = fc
  .array(fc.nat(), { minLength: 1, maxLength: 30 })
  .map((choices) => {
    let turn = 0;
    return (ready) => (choices[turn++ % choices.length] ?? 0) % ready;
  });

/** The events of one task, in order. */
const storyOf = (events: readonly LoopEvent[], taskId: string) =>
  events.filter((event) => event.taskId === taskId);

/** Merges the tasks' own event lists into one journal, taking from a drawn task each time. */
function interleave(events: readonly LoopEvent[], choices: readonly number[]): LoopEvent[] {
  const queues = [...new Set(events.map((event) => event.taskId))].map((id) => storyOf(events, id));
  const merged: LoopEvent[] = [];
  for (let turn = 0; merged.length < events.length; turn++) {
    const open = queues.filter((queue) => queue.length > 0);
    const queue = open[(choices[turn % choices.length] ?? 0) % open.length];
    merged.push(queue?.shift() as LoopEvent);
  }
  return merged;
}

describe("transition (properties)", () => {
  it("never runs more generate steps than the cap plus the extra attempts granted", () => {
    fc.assert(
      fc.property(concurrentPlanArb, scriptArb, schedulerArb, (loopPlan, script, pick) => {
        const { state } = drive(loopPlan, worldOf(script), pick);
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
      fc.property(concurrentPlanArb, scriptArb, schedulerArb, (loopPlan, script, pick) => {
        const { state, events } = drive(loopPlan, worldOf(script), pick);
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

  it("records each decision once, and at concurrency 1 runs tasks one after another in order", () => {
    fc.assert(
      fc.property(sequentialPlanArb, scriptArb, (loopPlan, script) => {
        const { state, events } = drive(loopPlan, worldOf(script));
        const decisionIds = events.flatMap((event) =>
          event.type === "decision-recorded" ? [event.effectId] : [],
        );
        expect(new Set(decisionIds).size).toBe(decisionIds.length);
        expect(decisionIds.length).toBe(state.tasks.reduce((sum, t) => sum + t.decisions, 0));
        const order = [...new Set(events.map((event) => event.taskId))];
        expect(order).toEqual(loopPlan.tasks.map((t) => t.id).slice(0, order.length));
        for (const [index, id] of order.entries()) {
          const last = events.findLastIndex((event) => event.taskId === id);
          const nextStarts = events.findIndex((event) => event.taskId === order[index + 1]);
          if (nextStarts >= 0) expect(last).toBeLessThan(nextStarts);
        }
      }),
      RUNS,
    );
  });

  it("works on at most `concurrency` tasks (a paused one holds no place above 1), and starts one only when a place is free", () => {
    fc.assert(
      fc.property(concurrentPlanArb, scriptArb, schedulerArb, (loopPlan, script, pick) => {
        const places = loopPlan.concurrency ?? 1;
        const { events } = drive(loopPlan, erringWorldOf(script), pick);
        let state = startLoop(loopPlan).state;
        for (const event of events) {
          const index = state.tasks.findIndex((each) => each.id === event.taskId);
          if (state.tasks[index]?.phase.name === "pending") {
            const taken = state.tasks
              .slice(0, index)
              .filter((each) => each.phase.name !== "done" && (places === 1 || !isPaused(each)));
            expect(taken.length).toBeLessThan(places);
          }
          state = transition(state, event).state;
          const inProgress = state.tasks.filter(
            (each) => each.phase.name !== "pending" && each.phase.name !== "done",
          );
          // At concurrency 1 a paused task keeps the one place: tasks run one after another.
          if (places === 1) expect(inProgress.length).toBeLessThanOrEqual(1);
          const effects = effectsOf(state);
          // An answered task takes its place back in file order; a later one waits its turn.
          const moving = effects.filter(
            (effect) => effect.kind === "run-step" || effect.kind === "record-decision",
          );
          expect(moving.length).toBeLessThanOrEqual(places);
          const paused = places === 1 ? 0 : state.tasks.filter(isPaused).length;
          expect(effects.length).toBeLessThanOrEqual(places + paused);
          const owners = effects.map((effect) => (effect.kind === "finish" ? "" : effect.taskId));
          expect(new Set(owners).size).toBe(owners.length);
        }
      }),
      RUNS,
    );
  });

  it("above concurrency 1 stops only when nothing can move: every task started, every unfinished one paused, the same way every time", () => {
    fc.assert(
      fc.property(planArb(fc.integer({ min: 2, max: 3 }), 6), scriptArb, (loopPlan, script) => {
        const run = drive(loopPlan, erringWorldOf(script));
        fc.pre(!run.truncated);
        for (const each of run.state.tasks) {
          expect(each.phase.name).not.toBe("pending");
          if (each.phase.name !== "done") expect(isPaused(each)).toBe(true);
        }
        expect(drive(loopPlan, erringWorldOf(script)).events).toEqual(run.events);
      }),
      FEW_RUNS,
    );
  });

  it("tells each task's story as if it ran alone, whatever the concurrency and interleaving", () => {
    fc.assert(
      fc.property(concurrentPlanArb, scriptArb, schedulerArb, (loopPlan, script, pick) => {
        const together = drive(loopPlan, worldOf(script), pick);
        fc.pre(!together.truncated);
        for (const [index, taskPlan] of loopPlan.tasks.entries()) {
          const story = storyOf(together.events, taskPlan.id);
          const taskState = together.state.tasks[index];
          if (story.length === 0) {
            // Never started: at concurrency 1, a task before it is paused for a human.
            expect(taskState?.phase.name).toBe("pending");
            continue;
          }
          const alone = drive(plan(taskPlan), worldOf(script));
          expect(story).toEqual(alone.events);
          expect(taskState).toEqual(alone.state.tasks[0]);
        }
      }),
      RUNS,
    );
  });

  it("never hands a step error to the agent, never decides on it, never counts it as an attempt", () => {
    fc.assert(
      fc.property(concurrentPlanArb, scriptArb, schedulerArb, (loopPlan, script, pick) => {
        const erring = drive(loopPlan, erringWorldOf(script), pick);
        const clean = drive(loopPlan, worldOf(script), pick);
        fc.pre(!erring.truncated && !clean.truncated);
        for (const effect of erring.effects) {
          if (effect.kind === "run-step") {
            expect(JSON.stringify(effect.inputs)).not.toContain(ERROR_MARK);
          }
          if (effect.kind === "record-decision") {
            expect(JSON.stringify([effect.input, effect.decision])).not.toContain(ERROR_MARK);
          }
        }
        // Each task decides exactly what it decides when no step errs: same actions, reasons,
        // attempts and feedback, task by task.
        for (const taskPlan of loopPlan.tasks) {
          const mine = (events: readonly LoopEvent[]) => decisionsOf(storyOf(events, taskPlan.id));
          expect(mine(erring.events)).toEqual(mine(clean.events));
        }
        for (const [index, taskState] of erring.state.tasks.entries()) {
          const other = clean.state.tasks[index];
          expect(taskState.iteration).toBe(other?.iteration);
          expect(taskState.generateRuns).toBe(other?.generateRuns);
          expect(taskState.attempts).toEqual(other?.attempts);
        }
      }),
      RUNS,
    );
  });

  it("pauses a task whose step errs until a new session runs the step again", () => {
    fc.assert(
      fc.property(sequentialPlanArb, scriptArb, (loopPlan, script) => {
        const { events } = drive(loopPlan, erringWorldOf(script));
        let state = startLoop(loopPlan).state;
        for (const event of events) {
          state = transition(state, event).state;
          if (event.type !== "step-errored") continue;
          const paused = state.tasks.find((each) => each.id === event.taskId);
          expect(paused?.phase.name).toBe("step-error");
          // The only thing it waits for is to be run again: no decision, no answer.
          expect(effectsOf(state).map((effect) => effect.kind)).toEqual(["resume-step"]);
        }
        const ids = events.map((event) => `${event.type} ${event.effectId}`);
        expect(new Set(ids).size).toBe(ids.length);
      }),
      RUNS,
    );
  });

  it("rebuilds the same state from the same journal, after a JSON round trip", () => {
    fc.assert(
      fc.property(concurrentPlanArb, scriptArb, schedulerArb, (loopPlan, script, pick) => {
        const { state, events } = drive(loopPlan, erringWorldOf(script), pick);
        const journal = JSON.parse(JSON.stringify(events)) as LoopEvent[];
        const rebuilt = replay(JSON.parse(JSON.stringify(loopPlan)) as LoopPlan, journal);
        expect(rebuilt).toEqual(state);
        expect(JSON.parse(JSON.stringify(rebuilt))).toEqual(rebuilt);
      }),
      RUNS,
    );
  });

  it("rebuilds the same state from any interleaving of the tasks' events, at any concurrency", () => {
    fc.assert(
      fc.property(
        concurrentPlanArb,
        scriptArb,
        schedulerArb,
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 4 }),
        (loopPlan, script, pick, choices, replayedWith) => {
          const { state, events } = drive(loopPlan, worldOf(script), pick);
          const shuffled = interleave(events, choices);
          expect(replay(loopPlan, shuffled)).toEqual(state);
          // A resume may change the concurrency: the tasks fold the same, only the plan differs.
          const other = replay({ ...loopPlan, concurrency: replayedWith }, shuffled);
          expect(other.tasks).toEqual(state.tasks);
        },
      ),
      RUNS,
    );
  });

  it("refuses a journal with a task's event dropped before a later one of it, or recorded twice", () => {
    fc.assert(
      fc.property(
        concurrentPlanArb,
        scriptArb,
        schedulerArb,
        fc.nat(),
        fc.boolean(),
        (loopPlan, script, pick, cut, twice) => {
          const { events } = drive(loopPlan, worldOf(script), pick);
          fc.pre(events.length >= 2);
          const at = cut % (events.length - 1);
          const dropped = events[at] as LoopEvent;
          const later = events.slice(at + 1).some((event) => event.taskId === dropped.taskId);
          fc.pre(twice || later);
          const broken = twice
            ? [...events.slice(0, at + 1), ...events.slice(at)]
            : [...events.slice(0, at), ...events.slice(at + 1)];
          expect(() => replay(loopPlan, broken)).toThrow(/does not fit the loop/);
        },
      ),
      RUNS,
    );
  });
});

describe("the indexed fold (properties)", () => {
  /** A journal of a drawn run, its tasks' events interleaved anew, and the concurrency it is folded at. */
  const journalArb = fc
    .record({
      loopPlan: planArb(fc.integer({ min: 1, max: 3 }), 6),
      script: scriptArb,
      pick: schedulerArb,
      choices: fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
      foldedWith: fc.integer({ min: 1, max: 4 }),
    })
    .map(({ loopPlan, script, pick, choices, foldedWith }) => ({
      loopPlan: { ...loopPlan, concurrency: foldedWith },
      events: interleave(drive(loopPlan, erringWorldOf(script), pick).events, choices),
    }));

  it("gives exactly the reference fold's tasks, effects and pauses after every event, its schedule always the one rebuilt from the tasks", () => {
    fc.assert(
      fc.property(journalArb, ({ loopPlan, events }) => {
        let state = startLoop(loopPlan).state;
        let reference = referenceStart(loopPlan);
        for (const event of events) {
          const next = transition(state, event);
          state = next.state;
          reference = referenceTransition(reference, event);
          expect(state.tasks).toEqual(reference.tasks);
          expect(state.schedule).toEqual(scheduleOf(state.tasks));
          expect(next.effects).toEqual(referenceEffects(reference));
          const paused = referencePaused(reference);
          expect(awaitedAnswers(state)).toEqual(paused.filter((e) => e.kind === "await-answer"));
          expect(stepErrors(state)).toEqual(paused.filter((e) => e.kind === "resume-step"));
        }
        expect(replay(loopPlan, events)).toEqual(state);
      }),
      FEW_RUNS,
    );
  });

  it("refuses a broken journal at the same event as the reference fold", () => {
    fc.assert(
      fc.property(journalArb, fc.nat(), fc.nat(), (journal, at, from) => {
        const { loopPlan, events } = journal;
        fc.pre(events.length > 0);
        // One event moved elsewhere: dropped, repeated, or taken from later in the journal.
        const moved = events[from % events.length] as LoopEvent;
        const broken = [
          ...events.slice(0, at % events.length),
          moved,
          ...events.slice(at % events.length),
        ];
        const failsAt = (step: (event: LoopEvent) => void) => {
          for (const [index, event] of broken.entries()) {
            try {
              step(event);
            } catch {
              return index;
            }
          }
          return -1;
        };
        let state = startLoop(loopPlan).state;
        let reference = referenceStart(loopPlan);
        const indexed = failsAt((event) => (state = transition(state, event).state));
        expect(failsAt((event) => (reference = referenceTransition(reference, event)))).toBe(
          indexed,
        );
        if (indexed >= 0) {
          expect(() => replay(loopPlan, broken)).toThrow(/does not fit the loop/);
        }
      }),
      FEW_RUNS,
    );
  });
});
