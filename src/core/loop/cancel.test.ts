import { describe, expect, it } from "vitest";
import { cancelEvents } from "./cancel.js";
import { effectsOf } from "./effects-of.js";
import { runSummary } from "./run-summary.js";
import { startLoop } from "./start-loop.js";
import { transition } from "./transition.js";
import { generated, plan, task } from "./test-support/loop-world.js";

describe("cancelEvents", () => {
  const twoTasks = plan(task("a"), task("b"));

  it("cancels every unfinished task whatever it waits for, and the run is over", () => {
    let state = startLoop(twoTasks).state;
    // a is mid-attempt (its test is next); b has not started.
    const [first] = effectsOf(state);
    if (first?.kind !== "run-step") throw new Error("expected a step");
    state = transition(state, {
      type: "step-finished",
      effectId: first.id,
      taskId: "a",
      iteration: 1,
      outcome: generated(),
    }).state;
    const events = cancelEvents(state, { reason: "wrong approach", by: "ana" });
    expect(events.map((event) => [event.taskId, event.iteration])).toEqual([
      ["a", 1],
      ["b", 1],
    ]);
    for (const event of events) state = transition(state, event).state;
    expect(effectsOf(state)).toEqual([{ kind: "finish", id: "finish" }]);
    expect(runSummary(state).map((row) => [row.taskId, row.outcome, row.reason])).toEqual([
      ["a", "cancelled", "CANCELLED"],
      ["b", "cancelled", "CANCELLED"],
    ]);
    // Nothing is left to cancel, and a replayed cancel no longer fits the loop.
    expect(cancelEvents(state, {})).toEqual([]);
    expect(() => transition(state, events[0] as never)).toThrow(/does not fit the loop/);
  });

  it("cancels only the tasks named", () => {
    const state = startLoop(twoTasks).state;
    expect(cancelEvents(state, {}, ["b"]).map((event) => event.taskId)).toEqual(["b"]);
  });
});
