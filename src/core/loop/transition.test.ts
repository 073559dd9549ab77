import { describe, expect, it } from "vitest";
import type { RunStep } from "./loop-effect.js";
import type { LoopEvent } from "./loop-event.js";
import { awaitedAnswers, effectsOf, stepErrors } from "./effects-of.js";
import { effectId } from "./effect-id.js";
import { replay } from "./replay.js";
import { runSummary } from "./run-summary.js";
import { startLoop } from "./start-loop.js";
import { transition } from "./transition.js";
import type { Answer } from "./answer.js";
import {
  drive,
  generated,
  plan,
  reviewed,
  stepErrored,
  task,
  tested,
  type World,
} from "./test-support/loop-world.js";

const SEED_FAILURES = [
  "not ok 1 - login returns a token\n  error: 'token is undefined'\n",
  "not ok 1 - login returns a token\n  error: 'token missing userId'\n",
  "not ok 1 - login returns a token\n  Expected values to be strictly equal:\n  '123' !== 123\n  expected: 123\n  actual: '123'\n",
];

/** The seed's story: three failing attempts, then whatever `answer` says, then a passing attempt. */
function seedWorld(answer: Answer | null): World {
  return {
    step: (effect) => {
      if (effect.step === "generate") return generated();
      if (effect.step === "test") {
        const failure = SEED_FAILURES[effect.iteration - 1];
        return failure === undefined ? tested("pass") : tested("fail", failure);
      }
      return reviewed(effect.iteration > 3 ? "approve" : "reject", "the token is wrong");
    },
    answer: () => answer,
  };
}

/** The seed's steps, except that `taskId` passes its first attempt. */
function passesAtOnce(taskId: string): World["step"] {
  return (effect) => {
    if (effect.taskId !== taskId) return seedWorld(null).step(effect);
    if (effect.step === "test") return tested("pass");
    return effect.step === "review" ? reviewed("approve") : generated();
  };
}

const generates = (effects: readonly { kind: string }[]) =>
  effects.filter(
    (effect): effect is RunStep =>
      effect.kind === "run-step" && (effect as RunStep).step === "generate",
  );

describe("transition", () => {
  it("starts the first task's first attempt with its prompt and no feedback", () => {
    const { effects } = startLoop(plan(task("a"), task("b")));
    expect(effects).toEqual([
      expect.objectContaining({
        kind: "run-step",
        taskId: "a",
        iteration: 1,
        step: "generate",
        inputs: { prompt: "do a", feedback: null, answer: null },
      }),
    ]);
  });

  it("runs the seed's story: retry, retry, escalate at 3 of 3, pause without an answer", () => {
    const run = drive(plan(task("task-003")), seedWorld(null));
    const decisions = run.events.filter((event) => event.type === "decision-recorded");
    expect(decisions.map((event) => [event.decision.action, event.decision.reason])).toEqual([
      ["retry", "TEST_FAILED"],
      ["retry", "TEST_FAILED"],
      ["escalate", "MAX_ITERATIONS"],
    ]);
    const [pause] = effectsOf(run.state);
    expect(pause).toMatchObject({ kind: "await-answer", taskId: "task-003", iteration: 3 });
    expect(runSummary(run.state)).toEqual([
      {
        taskId: "task-003",
        outcome: "awaiting-answer",
        iterations: 3,
        spend: 0,
        tokens: 0,
        reason: "MAX_ITERATIONS",
      },
    ]);
  });

  it("hands each retry's feedback to the next generate step", () => {
    const run = drive(plan(task("t")), seedWorld(null));
    const [first, second] = generates(run.effects);
    expect(first?.inputs.feedback).toBeNull();
    expect(second?.iteration).toBe(2);
    expect(second?.inputs.feedback?.summary).toEqual(expect.any(String));
  });

  it("continues on a text answer: the answer reaches the next generate, caps are re-granted", () => {
    const run = drive(plan(task("t")), seedWorld({ kind: "text", text: "use a number" }));
    const fourth = generates(run.effects).find((effect) => effect.iteration === 4);
    expect(fourth?.inputs.answer).toMatchObject({
      answer: { kind: "text", text: "use a number" },
      iteration: 3,
      reason: "MAX_ITERATIONS",
    });
    expect(fourth?.inputs.feedback).toBeNull();
    const [summary] = runSummary(run.state);
    expect(summary).toMatchObject({
      outcome: "proceeded",
      iterations: 4,
      reason: "VALIDATION_PASSED",
    });
    expect(run.state.tasks[0]?.grant).toEqual({ iterations: 2, budget: 0, timeMs: 0 });
    expect(run.state.tasks[0]?.attempts.map((attempt) => attempt.iteration)).toEqual([1, 2, 3]);
  });

  it("aborts through the approval gate on an abort answer, then runs the next task", () => {
    const run = drive(plan(task("t"), task("next")), {
      ...seedWorld({ kind: "abort", by: "ana", note: "wrong idea" }),
      step: passesAtOnce("next"),
    });
    expect(runSummary(run.state).map((row) => [row.taskId, row.outcome, row.reason])).toEqual([
      ["t", "aborted", "APPROVAL_GATE"],
      ["next", "proceeded", "VALIDATION_PASSED"],
    ]);
    expect(run.state.tasks[0]?.lastDecision).toMatchObject({
      action: "abort",
      message: "Rejected by ana: wrong idea. Task aborted.",
    });
    expect(effectsOf(run.state)).toEqual([{ kind: "finish", id: "finish" }]);
  });

  it("proceeds past a failing test only through an approve answer", () => {
    const run = drive(plan(task("t")), seedWorld({ kind: "approve", by: "ana" }));
    expect(run.state.tasks[0]?.phase).toEqual({
      name: "done",
      outcome: "proceeded",
      reason: "APPROVAL_GATE",
    });
    expect(run.state.tasks[0]?.iteration).toBe(3);
  });

  it("takes an option by number, follows an abort option, and refuses one not offered", () => {
    const { state, effects } = startLoop(plan(task("t"), task("u")));
    let current = state;
    // The journaled decision is the one applied: a custom escalation sets the question.
    const drive = (event: LoopEvent) => (current = transition(current, event).state);
    const [generate] = effects;
    if (generate?.kind !== "run-step") throw new Error("expected a step");
    const base = { taskId: "t", iteration: 1 };
    drive({ type: "step-finished", effectId: generate.id, ...base, outcome: generated() });
    const [test] = effectsOf(current);
    drive({ type: "step-finished", effectId: test?.id ?? "", ...base, outcome: tested("fail") });
    const [review] = effectsOf(current);
    drive({
      type: "step-finished",
      effectId: review?.id ?? "",
      ...base,
      outcome: reviewed("approve"),
    });
    const [record] = effectsOf(current);
    if (record?.kind !== "record-decision") throw new Error("expected a decision");
    drive({
      type: "decision-recorded",
      effectId: record.id,
      ...base,
      input: record.input,
      decision: {
        action: "escalate",
        taskId: "t",
        iteration: 1,
        reason: "MAX_ITERATIONS",
        fired: ["MAX_ITERATIONS"],
        context: { attemptsSummary: "Iteration 1: Test failed", patternDetected: null },
        question:
          "Which?\n1. String (update test)\n2. Number (update implementation)\n3. Abort this task",
        options: [],
      },
    });
    const [pause] = effectsOf(current);
    if (pause?.kind !== "await-answer") throw new Error("expected a pause");
    const answer = (option: number): LoopEvent => ({
      type: "answer-given",
      effectId: pause.id,
      ...base,
      answer: { kind: "option", option },
    });
    expect(() => transition(current, answer(99))).toThrow(/option 99 is not one of/);
    const next = transition(current, answer(2)).effects[0];
    expect(next).toMatchObject({
      kind: "run-step",
      step: "generate",
      iteration: 2,
      inputs: { answer: { label: "Number (update implementation)", answer: { option: 2 } } },
    });
    const aborted = transition(current, answer(3));
    expect(aborted.effects[0]).toMatchObject({
      kind: "record-decision",
      decision: {
        action: "abort",
        reason: "APPROVAL_GATE",
        message: "Rejected: Abort this task. Task aborted.",
      },
    });
  });

  it("polls a pending review a bounded number of times, then pauses for a human", () => {
    const waiting = plan(task("t", { reviewWait: { maxPolls: 2, intervalMs: 500 } }));
    const run = drive(waiting, {
      step: (effect) =>
        effect.step === "generate"
          ? generated()
          : effect.step === "test"
            ? tested("pass")
            : reviewed("pending"),
      answer: () => null,
    });
    const reviews = run.effects.filter(
      (effect): effect is RunStep => effect.kind === "run-step" && effect.step === "review",
    );
    expect(reviews.map((effect) => [effect.poll, effect.delayMs])).toEqual([
      [0, 0],
      [1, 500],
      [2, 500],
    ]);
    expect(effectsOf(run.state)[0]).toMatchObject({
      kind: "await-answer",
      decision: { action: "wait", reason: "REVIEW_PENDING" },
      options: [],
    });
  });

  it("ends an attempt whose generate step failed without testing or reviewing it", () => {
    const run = drive(plan(task("t", { iterationControl: { maxIterations: 1 } })), {
      step: (effect) => {
        if (effect.step !== "generate") throw new Error(`ran ${effect.step}`);
        return { ...generated({ exitCode: 127 }), output: "agent: command not found" };
      },
      answer: () => null,
    });
    expect(run.state.tasks[0]?.lastInput?.iterationCheck.testResult).toEqual({
      status: "fail",
      output: "generate step failed: exit code 127\nagent: command not found",
    });
  });

  it("skips missing steps: no test passes, no review approves", () => {
    const run = drive(plan(task("t", { hasTest: false, hasReview: false })), {
      step: (effect) => {
        if (effect.step !== "generate") throw new Error(`ran ${effect.step}`);
        return generated();
      },
      answer: () => null,
    });
    expect(runSummary(run.state)[0]).toMatchObject({ outcome: "proceeded", iterations: 1 });
  });

  it("accumulates spend into BUDGET_EXHAUSTED and re-grants extra budget on an answer", () => {
    const budget = plan(
      task("t", {
        stopConditions: { budgetCap: 1 },
        onAnswer: { extraIterations: 1, extraBudget: 5, extraTimeMs: 0 },
      }),
    );
    let answered = false;
    const run = drive(budget, {
      step: (effect) =>
        effect.step === "generate"
          ? generated({ spend: 0.6 })
          : effect.step === "test"
            ? tested(effect.iteration >= 3 ? "pass" : "fail", "boom")
            : reviewed("approve"),
      answer: () => (answered ? null : ((answered = true), { kind: "text", text: "go on" })),
    });
    const decisions = run.events.flatMap((event) =>
      event.type === "decision-recorded" ? [[event.decision.action, event.decision.reason]] : [],
    );
    expect(decisions).toEqual([
      ["retry", "TEST_FAILED"],
      ["escalate", "BUDGET_EXHAUSTED"],
      ["proceed", "VALIDATION_PASSED"],
    ]);
    const last = run.events.at(-1);
    expect(last?.type === "decision-recorded" && last.input.stopConditions.budgetCap).toBe(6);
  });

  it("rejects an event that does not carry out a pending effect", () => {
    const { state, effects } = startLoop(plan(task("t")));
    const [effect] = effects;
    if (effect?.kind !== "run-step") throw new Error("expected a step");
    const base = { taskId: "t", iteration: 1 };
    expect(() =>
      transition(state, { type: "step-finished", effectId: "nope", ...base, outcome: generated() }),
    ).toThrow(/no such pending effect/);
    expect(() =>
      transition(state, {
        type: "step-finished",
        effectId: effect.id,
        ...base,
        outcome: tested("pass"),
      }),
    ).toThrow(/not running its test step/);
    expect(() =>
      transition(state, {
        type: "answer-given",
        effectId: effect.id,
        ...base,
        answer: { kind: "abort" },
      }),
    ).toThrow(/the pending effect is run-step/);
  });

  it("leaves the state unchanged on step-started, so a step cut off mid-way runs again", () => {
    const begun = transition(startLoop(plan(task("t"))).state, {
      type: "step-finished",
      effectId: effectId("t", 1, "generate", 0),
      taskId: "t",
      iteration: 1,
      outcome: generated(),
    });
    const [effect] = begun.effects;
    if (effect?.kind !== "run-step") throw new Error("expected a step");
    const next = transition(begun.state, {
      type: "step-started",
      effectId: effect.id,
      taskId: "t",
      iteration: 1,
      step: "test",
    });
    expect(next.state).toEqual(begun.state);
    expect(next.effects).toEqual(begun.effects);
  });

  it("starts a task on its first step-started, asking for the same step again", () => {
    const { state, effects } = startLoop(plan(task("t")));
    expect(state.tasks[0]?.phase).toEqual({ name: "pending" });
    const next = transition(state, {
      type: "step-started",
      effectId: effectId("t", 1, "generate", 0),
      taskId: "t",
      iteration: 1,
      step: "generate",
    });
    expect(next.state.tasks[0]).toMatchObject({
      iteration: 1,
      phase: { name: "running", step: "generate" },
    });
    expect(next.effects).toEqual(effects);
  });

  it("replays a journal into the same state, through JSON", () => {
    const run = drive(plan(task("t"), task("u")), seedWorld({ kind: "option", option: 2 }));
    const journal = JSON.parse(JSON.stringify(run.events)) as LoopEvent[];
    expect(replay(plan(task("t"), task("u")), journal)).toEqual(run.state);
  });

  it("gives the first `concurrency` tasks their effects and starts the next as one finishes", () => {
    const three = { ...plan(task("a"), task("b"), task("c")), concurrency: 2 };
    const first = startLoop(three).effects;
    expect(first.map((effect) => [effect.kind, "taskId" in effect && effect.taskId])).toEqual([
      ["run-step", "a"],
      ["run-step", "b"],
    ]);
    const run = drive(three, seedWorld({ kind: "text", text: "go on" }), (ready) => ready - 1);
    const starts = ["a", "b", "c"].map((id) =>
      run.events.findIndex((event) => event.taskId === id),
    );
    // The decision that first freed a place: a task done, or paused (a paused task holds none).
    const freed = (id: string) =>
      run.events.findIndex(
        (event) =>
          event.taskId === id &&
          event.type === "decision-recorded" &&
          event.decision.action !== "retry",
      );
    // c starts only once a or b is done or paused, and the last pick ran b ahead of a.
    expect(starts[2]).toBeGreaterThan(Math.min(freed("a"), freed("b")));
    expect(starts[1]).toBeLessThan(starts[0] ?? -1);
    expect(runSummary(run.state).map((row) => row.outcome)).toEqual([
      "proceeded",
      "proceeded",
      "proceeded",
    ]);
  });

  it("frees a paused task's place for the next task, and lists every paused task", () => {
    const world: World = {
      step: passesAtOnce("quick"),
      answer: () => null,
    };
    const run = drive(
      { ...plan(task("a"), task("quick"), task("b"), task("c")), concurrency: 2 },
      world,
    );
    expect(runSummary(run.state).map((row) => [row.taskId, row.outcome])).toEqual([
      ["a", "awaiting-answer"],
      ["quick", "proceeded"],
      ["b", "awaiting-answer"],
      ["c", "awaiting-answer"],
    ]);
    expect(effectsOf(run.state).map((effect) => effect.kind)).toEqual([
      "await-answer",
      "await-answer",
      "await-answer",
    ]);
    expect(awaitedAnswers(run.state).map((effect) => effect.taskId)).toEqual(["a", "b", "c"]);
    // One task at a time, tasks run in order: the paused task keeps the one place.
    const alone = drive(plan(task("a"), task("quick"), task("b"), task("c")), world);
    expect(runSummary(alone.state).map((row) => row.outcome)).toEqual([
      "awaiting-answer",
      "pending",
      "pending",
      "pending",
    ]);
    expect(effectsOf(alone.state).map((effect) => effect.kind)).toEqual(["await-answer"]);
  });

  it("replays a journal written two tasks at a time with concurrency 1: started tasks wait", () => {
    const two = { ...plan(task("a"), task("b")), concurrency: 2 };
    // b ran ahead: its first attempt was journaled before anything of a.
    const run = drive(two, seedWorld(null), (ready) => ready - 1, 4);
    expect(run.events.map((event) => event.taskId)).toEqual(["b", "b", "b", "b"]);
    const one = replay({ ...two, concurrency: 1 }, run.events);
    expect(one.tasks).toEqual(run.state.tasks);
    expect(effectsOf(one)).toEqual([expect.objectContaining({ taskId: "a", step: "generate" })]);
  });
});

describe("transition: step errors", () => {
  const base = (effectId: string) => ({ effectId, taskId: "a", iteration: 1 });
  const missingTest = stepErrored("test", 'test: program "pytst" not found');

  /** Attempt 1 of the seed's task up to its test step, which cannot start. */
  function erred() {
    let { state, effects } = startLoop(plan(task("a")));
    const step = (outcome: LoopEvent) => ({ state, effects } = transition(state, outcome));
    step({ type: "step-finished", ...base(effects[0]?.id ?? ""), outcome: generated() });
    const testRun = effects[0];
    step({ type: "step-errored", ...base(testRun?.id ?? ""), error: missingTest });
    return { state, effects, testRun };
  }

  it("pauses the task with STEP_ERROR: no decision, no feedback, the attempt not counted", () => {
    const { state, effects } = erred();
    const task = state.tasks[0];
    expect(task?.phase).toEqual({ name: "step-error", step: "test", error: missingTest });
    expect(task?.decisions).toBe(0);
    expect(task?.attempts).toEqual([]);
    expect(task?.feedback).toBeNull();
    expect(effects).toEqual([
      {
        kind: "resume-step",
        id: effectId("a", 1, "resume", 1),
        taskId: "a",
        iteration: 1,
        step: "test",
        error: missingTest,
      },
    ]);
    expect(awaitedAnswers(state)).toEqual([]);
    expect(stepErrors(state).map((effect) => effect.step)).toEqual(["test"]);
    expect(runSummary(state)[0]).toMatchObject({ outcome: "step-error", reason: "STEP_ERROR" });
  });

  it("runs the step again, under a new id, once resumed; the attempt goes on as it was", () => {
    const { state, effects, testRun } = erred();
    const resumed = effects[0];
    const after = transition(state, {
      type: "step-resumed",
      ...base(resumed?.id ?? ""),
      step: "test",
    });
    const again = after.effects[0] as RunStep;
    expect(again).toMatchObject({ kind: "run-step", step: "test", iteration: 1 });
    expect(again.id).not.toBe(testRun?.id);
    expect(again.inputs.feedback).toBeNull();
    const passed = transition(after.state, {
      type: "step-finished",
      ...base(again.id),
      outcome: tested("pass"),
    });
    expect(passed.effects[0]).toMatchObject({ kind: "run-step", step: "review", iteration: 1 });
  });

  it("refuses a resume for a task whose step did not err, and an error for a step not running", () => {
    const { state, effects } = startLoop(plan(task("a")));
    const id = effects[0]?.id ?? "";
    expect(() =>
      transition(state, { type: "step-resumed", ...base(id), step: "generate" }),
    ).toThrow(/does not fit the loop/);
    expect(() =>
      transition(state, { type: "step-errored", ...base(id), error: missingTest }),
    ).toThrow(/not running its test step/);
  });
});
