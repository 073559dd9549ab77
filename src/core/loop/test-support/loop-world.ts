import { DEFAULT_ITERATION_CONTROL, type IterationControl } from "../../iteration-check.js";
import type { StopConditions } from "../../decide-input.js";
import type { Answer } from "../answer.js";
import type { AwaitAnswer, LoopEffect, RunStep } from "../loop-effect.js";
import type { LoopEvent } from "../loop-event.js";
import {
  DEFAULT_ANSWER_POLICY,
  DEFAULT_REVIEW_WAIT,
  type LoopPlan,
  type LoopTask,
} from "../loop-plan.js";
import type { LoopState } from "../loop-state.js";
import type { StepError } from "../step-error.js";
import type { StepOutcome } from "../step-outcome.js";
import { startLoop } from "../start-loop.js";
import { transition } from "../transition.js";

/** A task with the seed's defaults; override what a test is about. */
export function task(
  id: string,
  overrides: Partial<Omit<LoopTask, "iterationControl" | "stopConditions">> & {
    iterationControl?: Partial<IterationControl>;
    stopConditions?: StopConditions;
  } = {},
): LoopTask {
  return {
    id,
    prompt: `do ${id}`,
    onAnswer: DEFAULT_ANSWER_POLICY,
    reviewWait: DEFAULT_REVIEW_WAIT,
    hasTest: true,
    hasReview: true,
    ...overrides,
    iterationControl: { ...DEFAULT_ITERATION_CONTROL, ...overrides.iterationControl },
    stopConditions: overrides.stopConditions ?? {},
  };
}

/** A plan of these tasks. */
export function plan(...tasks: LoopTask[]): LoopPlan {
  return { tasks };
}

const measure = { exitCode: 0, timedOut: false, durationMs: 10, spend: 0, tokens: 0 };

/** A generate step that wrote its attempt. */
export function generated(
  overrides: Partial<typeof measure> & { diff?: string } = {},
): StepOutcome {
  return { step: "generate", output: "", ...measure, ...overrides };
}

/** A test step's outcome. */
export function tested(status: "pass" | "fail", output = ""): StepOutcome {
  return { step: "test", status, output, ...measure, exitCode: status === "pass" ? 0 : 1 };
}

/** A review step's outcome. */
export function reviewed(
  status: "approve" | "reject" | "pending",
  feedback = "",
  spend = 0,
): StepOutcome {
  return { step: "review", status, feedback, ...measure, spend };
}

/** A step that could not start: its program is missing. */
export function stepErrored(step: StepError["step"], message = "program not found"): StepError {
  return { step, message, output: `${message}\n`, ...measure, exitCode: null };
}

/** How a simulated world answers the loop's effects. */
export interface World {
  readonly step: (effect: RunStep) => StepOutcome;
  /** The answer to a pause, or null to leave the run paused. */
  readonly answer: (effect: AwaitAnswer) => Answer | null;
  /** The step's error instead of its outcome, or null (the default) when it ran. */
  readonly stepError?: (effect: RunStep) => StepError | null;
}

/** The event that carries out an effect in a world, or null when the run stays paused or finished. */
export function eventFor(effect: LoopEffect, world: World): LoopEvent | null {
  switch (effect.kind) {
    case "run-step": {
      const base = { effectId: effect.id, taskId: effect.taskId, iteration: effect.iteration };
      const error = world.stepError?.(effect) ?? null;
      return error === null
        ? { type: "step-finished", ...base, outcome: world.step(effect) }
        : { type: "step-errored", ...base, error };
    }
    case "resume-step":
      // The world's task file was fixed: a new session runs the step again.
      return {
        type: "step-resumed",
        effectId: effect.id,
        taskId: effect.taskId,
        iteration: effect.iteration,
        step: effect.step,
      };
    case "record-decision":
      return {
        type: "decision-recorded",
        effectId: effect.id,
        taskId: effect.taskId,
        iteration: effect.iteration,
        input: effect.input,
        decision: effect.decision,
      };
    case "await-answer": {
      const answer = world.answer(effect);
      return answer === null
        ? null
        : {
            type: "answer-given",
            effectId: effect.id,
            taskId: effect.taskId,
            iteration: effect.iteration,
            answer,
          };
    }
    case "finish":
      return null;
  }
}

/** Everything a simulated run did. */
export interface Drive {
  readonly state: LoopState;
  readonly events: LoopEvent[];
  /** Every effect the loop asked for, once each, in the order it first asked. */
  readonly effects: LoopEffect[];
  /** Whether the run stopped at `limit` events rather than finishing or pausing for good. */
  readonly truncated: boolean;
}

/** How a simulated driver picks which ready effect to carry out next: an index below `ready`. */
export type Scheduler = (ready: number) => number;

/**
 * Runs the loop against a world until it finishes, every task it may work on waits for an answer
 * the world does not give, or `limit` events. `pick` chooses among the effects ready (the first
 * by default), so a test can interleave tasks that run at once in any order.
 */
export function drive(
  loopPlan: LoopPlan,
  world: World,
  pick: Scheduler = () => 0,
  limit = 2_000,
): Drive {
  let { state, effects } = startLoop(loopPlan);
  const events: LoopEvent[] = [];
  const seen = new Map(effects.map((effect) => [effect.id, effect]));
  const unanswered = new Set<string>();
  for (;;) {
    const ready = effects.filter(
      (effect) => effect.kind !== "finish" && !unanswered.has(effect.id),
    );
    if (ready.length === 0 || events.length >= limit) {
      return { state, events, effects: [...seen.values()], truncated: ready.length > 0 };
    }
    const effect = ready[pick(ready.length) % ready.length] as LoopEffect;
    const event = eventFor(effect, world);
    if (event === null) {
      unanswered.add(effect.id);
      continue;
    }
    events.push(event);
    ({ state, effects } = transition(state, event));
    for (const next of effects) if (!seen.has(next.id)) seen.set(next.id, next);
  }
}
