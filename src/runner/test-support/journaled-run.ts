import type { LoopEvent } from "../../core/loop/loop-event.js";
import type { LoopPlan } from "../../core/loop/loop-plan.js";
import { drive, generated, reviewed, tested } from "../../core/loop/test-support/loop-world.js";
import { decodeTaskFile, planOf } from "../../wire/task-file.js";

/** A run the pure loop went through, ready to be journaled: its task file, plan and events. */
export interface JournaledRun {
  readonly document: unknown;
  readonly plan: LoopPlan;
  readonly events: readonly LoopEvent[];
}

/** `bytes` of test output, different for each task and attempt, as a failing test prints it. */
export function testOutput(taskId: string, iteration: number, bytes: number): string {
  const line = `FAIL ${taskId} attempt ${iteration}: expected 200, received 500\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

/**
 * Tasks whose test fails at every attempt with `outputBytes` of output (and a diff as long),
 * until `attempts` is reached and the task escalates: each decision reads every earlier attempt.
 */
export function failingRun(options: {
  readonly attempts: number;
  readonly outputBytes: number;
  readonly tasks?: readonly string[];
}): JournaledRun {
  const document = {
    iteration_control: { max_iterations: options.attempts },
    steps: {
      generate: { command: ["true"] },
      test: { command: ["false"] },
      review: { command: ["true"] },
    },
    tasks: (options.tasks ?? ["a"]).map((id) => ({ id, prompt: `do ${id}` })),
  };
  const plan = planOf(decodeTaskFile(document));
  const { events } = drive(plan, {
    step: (effect) => {
      const text = testOutput(effect.taskId, effect.iteration, options.outputBytes);
      if (effect.step === "generate") return generated({ diff: `+${text}`, spend: 0.5 });
      return effect.step === "test" ? tested("fail", text) : reviewed("approve");
    },
    answer: () => null,
  });
  return { document, plan, events };
}
