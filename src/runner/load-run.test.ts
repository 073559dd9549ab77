import { describe, expect, it } from "vitest";
import { drive, generated, reviewed, tested } from "../core/loop/test-support/loop-world.js";
import { toWire } from "../wire/codec.js";
import { Journal } from "./journal.js";
import { loadRun, loadTask } from "./load-run.js";
import { fixtureProject } from "./test-support/fixture-project.js";
import { failingRun, testOutput } from "./test-support/journaled-run.js";
import { writeVersion1Journal } from "./test-support/version-1-journal.js";

const TASKS = ["a", "b", "c", "d"];
const run = failingRun({ attempts: 3, outputBytes: 256, tasks: TASKS });
// The same tasks run four at once, their events interleaved as the runner writes them.
let turn = 0;
const { events } = drive(
  { ...run.plan, concurrency: 4 },
  {
    step: (effect) =>
      effect.step === "generate"
        ? generated({ spend: 0.5 })
        : effect.step === "test"
          ? tested("fail", testOutput(effect.taskId, effect.iteration, 256))
          : reviewed("approve"),
    answer: () => null,
  },
  (ready) => turn++ % ready,
);
const wire = (items: readonly unknown[]) => items.map((item) => JSON.stringify(toWire(item)));

/** Each task read alone agrees with the whole run read and folded, in `journal`'s run 1. */
function expectTasksAgree(journal: Journal): void {
  expect(new Set(events.slice(0, 4).map((event) => event.taskId)).size).toBeGreaterThan(1);
  const whole = loadRun(journal, 1);
  for (const id of TASKS) {
    const alone = loadTask(journal, 1, id);
    expect(wire(alone.entries)).toEqual(wire(whole.entries.filter((e) => e.event.taskId === id)));
    expect(alone.state.tasks).toEqual(whole.state.tasks.filter((task) => task.id === id));
    expect(alone.state.tasks[0]?.phase.name).toBe("awaiting-answer");
  }
  expect(loadTask(journal, 1, "nobody").state.tasks).toEqual([]);
}

describe("loadTask", () => {
  it("reads one task's events through the index and folds them to the task's state in the run", () => {
    const { db } = fixtureProject();
    const journal = Journal.open(db);
    const first = journal.createRun("/p/loopgate.yaml", "/p", run.document, 4);
    for (const event of events) journal.append(first, event);
    // A second run of other tasks, so the index has rows to pass over.
    const other = failingRun({ attempts: 2, outputBytes: 64, tasks: ["x", "y"] });
    const second = journal.createRun("/p/other.yaml", "/p", other.document);
    for (const event of other.events) journal.append(second, event);
    journal.close();
    const reading = Journal.open(db, { readonly: true });
    expectTasksAgree(reading);
    expect(reading.runIdsWithTask("a")).toEqual([1]);
    expect(reading.runIdsWithTask("x")).toEqual([2]);
    expect(reading.runIdsWithTask("nobody")).toEqual([]);
    reading.close();
  });

  it("reads a journal of schema version 1 the same way: it has the index too", () => {
    const { db } = fixtureProject();
    writeVersion1Journal(db, run.document, events);
    const journal = Journal.open(db, { readonly: true });
    expect(journal.version).toBe("1");
    expectTasksAgree(journal);
    journal.close();
  });
});
