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

/** How a simulated world answers the loop's effects. */
export interface World {
  readonly step: (effect: RunStep) => StepOutcome;
  /** The answer to a pause, or null to leave the run paused. */
  readonly answer: (effect: AwaitAnswer) => Answer | null;
}

/** The event that carries out an effect in a world, or null when the run stays paused or finished. */
export function eventFor(effect: LoopEffect, world: World): LoopEvent | null {
  switch (effect.kind) {
    case "run-step": {
      const base = { effectId: effect.id, taskId: effect.taskId, iteration: effect.iteration };
      return { type: "step-finished", ...base, outcome: world.step(effect) };
    }
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
  readonly effects: LoopEffect[];
}

/** Runs the loop against a world until it finishes, pauses with no answer, or `limit` events. */
export function drive(loopPlan: LoopPlan, world: World, limit = 500): Drive {
  let { state, effects } = startLoop(loopPlan);
  const events: LoopEvent[] = [];
  const seen: LoopEffect[] = [...effects];
  for (let count = 0; count < limit; count++) {
    const [effect] = effects;
    if (effect === undefined) break;
    const event = eventFor(effect, world);
    if (event === null) break;
    events.push(event);
    ({ state, effects } = transition(state, event));
    seen.push(...effects);
  }
  return { state, events, effects: seen };
}
