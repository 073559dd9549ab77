import { describe, expect, it } from "vitest";
import { startLoop } from "../core/loop/start-loop.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { decodeTaskFile, planOf } from "../wire/task-file.js";
import { headroomEnv, stepHeadroom } from "./step-headroom.js";

/** A loop state whose one task has spent and used what is given, with what answers granted. */
function stateWith(
  stopConditions: Record<string, unknown>,
  task: {
    spend: number;
    elapsedMs: number;
    grant?: { iterations: number; budget: number; timeMs: number };
  },
): LoopState {
  const plan = planOf(
    decodeTaskFile({
      iteration_control: { max_iterations: 3 },
      stop_conditions: stopConditions,
      steps: { generate: { command: ["true"] } },
      tasks: [{ id: "t", prompt: "p" }],
    }),
  );
  const state = startLoop(plan).state;
  return {
    ...state,
    tasks: state.tasks.map((entry) => ({ ...entry, ...task, grant: task.grant ?? entry.grant })),
  };
}

describe("stepHeadroom", () => {
  it("counts the attempts after this one, and what is left of the budget and time", () => {
    const state = stateWith(
      { budget_cap: 1, time_limit_ms: 60_000 },
      { spend: 0.7, elapsedMs: 45_500 },
    );
    expect(stepHeadroom(state, { taskId: "t", iteration: 2 })).toEqual({
      iterationsLeft: 1,
      budgetLeft: 0.3,
      timeLeftMs: 14_500,
    });
  });

  it("adds what answers granted, and never goes below 0", () => {
    const grant = { iterations: 2, budget: 0.5, timeMs: 1_000 };
    const granted = stateWith(
      { budget_cap: 1, time_limit_ms: 10 },
      { spend: 1.2, elapsedMs: 5_000, grant },
    );
    expect(stepHeadroom(granted, { taskId: "t", iteration: 4 })).toEqual({
      iterationsLeft: 1,
      budgetLeft: 0.3,
      timeLeftMs: 0,
    });
    const spent = stateWith({ budget_cap: 1 }, { spend: 3, elapsedMs: 0 });
    expect(stepHeadroom(spent, { taskId: "t", iteration: 9 })).toMatchObject({
      iterationsLeft: 0,
      budgetLeft: 0,
    });
  });

  it("is uncapped (empty variables) without budget_cap or time_limit_ms", () => {
    const room = stepHeadroom(stateWith({}, { spend: 5, elapsedMs: 5 }), {
      taskId: "t",
      iteration: 1,
    });
    expect(headroomEnv(room)).toEqual({
      LOOPGATE_ITERATIONS_LEFT: "2",
      LOOPGATE_BUDGET_LEFT: "",
      LOOPGATE_TIME_LEFT_MS: "",
    });
  });
});
