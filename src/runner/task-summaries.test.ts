import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { LoopPlan } from "../core/loop/loop-plan.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { startLoop } from "../core/loop/start-loop.js";
import { planTaskOf, taskStateOf } from "../core/loop/effects-of.js";
import { taskBriefOf, type TaskBrief } from "../core/loop/task-brief.js";
import { eventsOf, runArb } from "../test-support/random-runs.js";
import { transition } from "../core/loop/transition.js";
import { fuzzRuns, fuzzSeed } from "../test-support/hostile/fuzz-runs.js";
import { foldEntries } from "./fold-entries.js";
import { Journal, type JournaledEvent } from "./journal.js";
import { journalHealth } from "./journal-health.js";
import { briefRun, briefsOf } from "./load-run.js";
import { openLocatedJournal } from "./session.js";
import { failingRun } from "./test-support/journaled-run.js";
import { writeVersion1Journal } from "./test-support/version-1-journal.js";

/** Random runs per property: a slice here, more with LOOPGATE_FUZZ_RUNS. */
const RUNS = { numRuns: fuzzRuns(15), ...fuzzSeed() };

const dir = mkdtempSync(join(tmpdir(), "loopgate-summaries-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let journals = 0;
/** A new, empty journal file. */
const freshJournal = () => Journal.open(join(dir, `journal-${(journals += 1)}.db`));

/** The briefs of the started tasks of the state the run's journaled events fold to, by task id. */
function foldedBriefs(journal: Journal, runId: number, plan: LoopPlan): Map<string, TaskBrief> {
  const folded = foldEntries(plan, journal.events(runId));
  if (!folded.ok) throw new Error(`the journaled events do not fold: ${folded.message}`);
  return startedBriefs(folded.state);
}

/** The briefs of the started tasks of `state`, by task id: the tasks with events. */
function startedBriefs(state: LoopState): Map<string, TaskBrief> {
  const started = briefsOf(state).filter((brief) => brief.summary.outcome !== "pending");
  return new Map(started.map((brief) => [brief.summary.taskId, brief]));
}

/** The state of one task alone before any event, as `answer` loads a task (loadTask). */
function aloneAtStart(plan: LoopPlan, taskId: string): LoopState {
  return startLoop({ ...plan, tasks: plan.tasks.filter((task) => task.id === taskId) }).state;
}

describe("task summaries kept in the journal (properties)", () => {
  it("are, after every event, the briefs the fold of the journaled events gives — each event journaled with the run's state after it, or its task's alone", () => {
    fc.assert(
      fc.property(runArb, fc.array(fc.boolean(), { minLength: 1 }), (run, alone) => {
        const journal = freshJournal();
        try {
          const runId = journal.createRun("/p/tasks.json", "/p", {}, run.plan.concurrency);
          let state = startLoop(run.plan).state;
          const single = new Map<string, LoopState>();
          for (const [index, event] of eventsOf(run).entries()) {
            state = transition(state, event).state;
            const own = single.get(event.taskId) ?? aloneAtStart(run.plan, event.taskId);
            single.set(event.taskId, transition(own, event).state);
            const after = alone[index % alone.length] === true ? single.get(event.taskId) : state;
            journal.append(runId, event, null, after);
            // The events so far folded in one state (which foldEntries reaches, fold-entries.test.ts).
            expect(journal.taskBriefs(runId)).toEqual(startedBriefs(state));
          }
          expect(journal.taskBriefs(runId)).toEqual(foldedBriefs(journal, runId, run.plan));
        } finally {
          journal.close();
        }
      }),
      RUNS,
    );
  });
});

describe("events journaled in batches (group commit, properties)", () => {
  it("read back, fold and summarise as the same events journaled one by one", () => {
    fc.assert(
      fc.property(runArb, fc.array(fc.nat({ max: 4 }), { minLength: 1 }), (run, sizes) => {
        const [batched, single] = [freshJournal(), freshJournal()];
        try {
          const ids = [batched, single].map((journal) =>
            journal.createRun("/p/tasks.json", "/p", {}, run.plan.concurrency),
          );
          const [batchedRun = 0, singleRun = 0] = ids;
          let state = startLoop(run.plan).state;
          let batch: JournaledEvent[] = [];
          const events = eventsOf(run);
          for (const [index, event] of events.entries()) {
            state = transition(state, event).state;
            single.append(singleRun, event, null, state);
            const after = state;
            const brief = () =>
              taskBriefOf(planTaskOf(after, event.taskId), taskStateOf(after, event.taskId)!);
            batch.push({ event, meta: null, brief });
            if (batch.length > (sizes[index % sizes.length] ?? 0) || index === events.length - 1) {
              batched.appendAll(batchedRun, batch);
              batch = [];
              expect(batched.taskBriefs(batchedRun)).toEqual(startedBriefs(state));
            }
          }
          const bodies = (journal: Journal, runId: number) =>
            journal.db
              .prepare("SELECT type, task_id, body FROM events WHERE run_id = ? ORDER BY seq")
              .all(runId);
          expect(bodies(batched, batchedRun)).toEqual(bodies(single, singleRun));
          expect(batched.taskBriefs(batchedRun)).toEqual(
            foldedBriefs(batched, batchedRun, run.plan),
          );
        } finally {
          batched.close();
          single.close();
        }
      }),
      RUNS,
    );
  });

  it("are all refused when one of them repeats an effect: none is kept, and later events still pack against the ones kept", () => {
    const run = failingRun({ attempts: 3, outputBytes: 600, tasks: ["a", "b"] });
    const journal = freshJournal();
    const runId = journal.createRun("/p/tasks.json", "/p", run.document);
    const [first, ...rest] = run.events;
    if (first === undefined) throw new Error("too short a run");
    const decision = rest.findIndex((event) => event.type === "decision-recorded");
    journal.appendAll(
      runId,
      [first, ...rest.slice(0, decision + 1)].map((event) => ({ event, meta: null })),
    );
    const kept = journal.events(runId).length;
    const next = rest.slice(decision + 1);
    // The refused batch holds the next decision: the journal must not take it as the task's latest.
    const nextDecision = next.findIndex((event) => event.type === "decision-recorded");
    expect(() =>
      journal.appendAll(
        runId,
        [...next.slice(0, nextDecision + 1), first].map((event) => ({ event, meta: null })),
      ),
    ).toThrow(/already journaled/);
    expect(journal.events(runId)).toHaveLength(kept);
    journal.appendAll(
      runId,
      next.map((event) => ({ event, meta: null })),
    );
    expect(journal.events(runId).map((entry) => entry.event)).toEqual(run.events);
    journal.close();
  });
});

describe("task summaries kept in the journal", () => {
  /** A journaled run of two tasks, each escalating after two failed attempts. */
  function journaled() {
    const run = failingRun({ attempts: 2, outputBytes: 600, tasks: ["a", "b"] });
    const journal = freshJournal();
    const runId = journal.createRun("/p/tasks.json", "/p", run.document);
    let state = startLoop(run.plan).state;
    return {
      run,
      journal,
      runId,
      append: (count: number, withState = true) => {
        for (const event of run.events.slice(0, count)) {
          state = transition(state, event).state;
          journal.append(runId, event, null, withState ? state : undefined);
        }
      },
    };
  }

  it("are not current once an event is journaled without them, until the task's next event brings them up to date", () => {
    const { run, journal, runId } = journaled();
    let state = startLoop(run.plan).state;
    const [first, second] = run.events;
    if (first === undefined || second === undefined) throw new Error("too short a run");
    state = transition(state, first).state;
    journal.append(runId, first);
    expect(journal.taskBriefs(runId)).toBeUndefined();
    // Folded instead, and the same as the summaries once current.
    expect(briefRun(journal, runId).briefs).toEqual(briefRun(journal, runId, true).briefs);
    state = transition(state, second).state;
    journal.append(runId, second, null, state);
    expect(journal.taskBriefs(runId)).toEqual(foldedBriefs(journal, runId, run.plan));
    journal.close();
  });

  it("tell a run whose every task has one without the plan's start: the fold's briefs", () => {
    const run = failingRun({ attempts: 2, outputBytes: 600, tasks: ["a"] });
    const journal = freshJournal();
    const runId = journal.createRun("/p/tasks.json", "/p", run.document);
    let state = startLoop(run.plan).state;
    for (const event of run.events) {
      state = transition(state, event).state;
      journal.append(runId, event, null, state);
    }
    expect(journal.taskBriefs(runId)?.size).toBe(run.plan.tasks.length);
    expect(briefRun(journal, runId).briefs).toEqual(briefRun(journal, runId, true).briefs);
    journal.close();
  });

  it("are not trusted when a row does not match its checksum: the run is folded", () => {
    const { run, journal, runId, append } = journaled();
    append(run.events.length);
    const kept = briefRun(journal, runId).briefs;
    // At concurrency 1, "a" paused keeps the one place: "b" has not started, so has no row.
    expect(journal.taskBriefs(runId)?.size).toBe(1);
    journal.db
      .prepare("UPDATE task_summaries SET body = replace(body, 'awaiting-answer', 'proceeded')")
      .run();
    expect(journal.taskBriefs(runId)).toBeUndefined();
    expect(briefRun(journal, runId).briefs).toEqual(kept);
    expect(kept.map((brief) => brief.summary.outcome)).toEqual(["awaiting-answer", "pending"]);
    journal.close();
  });

  it("are checked against the fold by doctor, which names a task whose current summary a writer got wrong", () => {
    const { run, journal, runId } = journaled();
    const states: LoopState[] = [];
    for (const event of run.events) {
      states.push(transition(states.at(-1) ?? startLoop(run.plan).state, event).state);
    }
    const [first, ...rest] = run.events;
    if (first === undefined) throw new Error("an empty run");
    // A writer's fault: the first event journaled with the state the last one reaches.
    journal.append(runId, first, null, states.at(-1));
    expect(journalHealth(journal).damaged).toEqual([
      'run 1 is damaged: its summary of task "a" is not what the task\'s events fold to',
    ]);
    for (const [index, event] of rest.entries())
      journal.append(runId, event, null, states[index + 1]);
    expect(journalHealth(journal).damaged).toEqual([]);
    journal.close();
  });

  it("are folded from the events for the runs of an older journal by the first command that writes to it", () => {
    const run = failingRun({ attempts: 2, outputBytes: 600, tasks: ["a", "b"] });
    const db = join(dir, "version-1.db");
    writeVersion1Journal(db, run.document, run.events);
    const reading = Journal.open(db, { readonly: true });
    expect(reading.taskBriefs(1)).toBeUndefined();
    const folded = briefRun(reading, 1).briefs;
    reading.close();
    const { journal } = openLocatedJournal(db, "write");
    expect(journal.summariesMissing).toBe(false);
    expect(journal.taskBriefs(1)).toEqual(foldedBriefs(journal, 1, run.plan));
    expect(briefRun(journal, 1).briefs).toEqual(folded);
    journal.close();
  });
});
