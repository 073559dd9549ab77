import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LoopgateError } from "../core/errors.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import type { LoopPlan } from "../core/loop/loop-plan.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { startLoop } from "../core/loop/start-loop.js";
import { eventsOf, runArb } from "../test-support/random-runs.js";
import { transition } from "../core/loop/transition.js";
import { fuzzRuns, fuzzSeed } from "../test-support/hostile/fuzz-runs.js";
import { foldEntries, type FoldEntry, type FoldResult } from "./fold-entries.js";

/** Random runs per property: a slice here, more with LOOPGATE_FUZZ_RUNS. */
const RUNS = { numRuns: fuzzRuns(30), ...fuzzSeed() };

/** The fold the journal is defined by: every event in order through one state. */
function foldInOneState(loopPlan: LoopPlan, entries: readonly FoldEntry[]): FoldResult {
  let state: LoopState = startLoop(loopPlan).state;
  for (const entry of entries) {
    try {
      state = transition(state, entry.event).state;
    } catch (error) {
      if (!LoopgateError.is(error) || error.code !== "INVALID_EVENT") throw error;
      return { ok: false, seq: entry.seq, message: error.message };
    }
  }
  return { ok: true, state };
}

/** Asserts deep equality; Node's comparison first, as vitest's is slow on states this large. */
function expectSame(actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
}

/** A journal's damage: an event dropped, repeated, moved, or of a task the plan lacks. */
const damageArb = fc.oneof(
  fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("repeat" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("swap" as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant("stranger" as const), at: fc.nat() }),
);

type Damage = typeof damageArb extends fc.Arbitrary<infer D> ? D : never;

function damaged(events: readonly LoopEvent[], damage: Damage): LoopEvent[] {
  const out = [...events];
  if (out.length === 0) return out;
  const at = damage.at % out.length;
  const event = out[at] as LoopEvent;
  if (damage.kind === "drop") out.splice(at, 1);
  if (damage.kind === "repeat") out.splice(at, 0, event);
  if (damage.kind === "stranger") out.splice(at, 0, { ...event, taskId: "stranger" });
  if (damage.kind === "swap") {
    const other = damage.with % out.length;
    out[at] = out[other] as LoopEvent;
    out[other] = event;
  }
  return out;
}

/** Journal entries of `events`, numbered as SQLite numbers them (gaps where others' rows were). */
const entriesOf = (events: readonly LoopEvent[]): FoldEntry[] =>
  events.map((event, index) => ({ seq: 3 * index + 1, event }));

describe("foldEntries (properties)", () => {
  it("reaches the state folding every event through one state reaches, on random runs", () => {
    fc.assert(
      fc.property(runArb, (run) => {
        const entries = entriesOf(eventsOf(run));
        expectSame(foldEntries(run.plan, entries), foldInOneState(run.plan, entries));
      }),
      RUNS,
    );
  });

  it("refuses a damaged journal at the same event, for the same reason, as the one-state fold", () => {
    fc.assert(
      fc.property(runArb, damageArb, (run, damage) => {
        const entries = entriesOf(damaged(eventsOf(run), damage));
        expectSame(foldEntries(run.plan, entries), foldInOneState(run.plan, entries));
      }),
      RUNS,
    );
  });

  it("shows each event with its task as the one-state fold has it after that event", () => {
    fc.assert(
      fc.property(runArb, (run) => {
        const entries = entriesOf(eventsOf(run));
        const seen: unknown[] = [];
        foldEntries(run.plan, entries, (entry, state) => {
          seen.push([entry.seq, state.tasks.find((each) => each.id === entry.event.taskId)]);
        });
        let state = startLoop(run.plan).state;
        const expected = entries.map((entry) => {
          state = transition(state, entry.event).state;
          return [entry.seq, state.tasks.find((each) => each.id === entry.event.taskId)];
        });
        expectSame(seen, expected);
      }),
      RUNS,
    );
  });
});
