import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Answer } from "../core/loop/answer.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import { replay } from "../core/loop/replay.js";
import {
  drive,
  generated,
  plan,
  reviewed,
  task,
  tested,
} from "../core/loop/test-support/loop-world.js";
import { toWire } from "../wire/codec.js";
import {
  BLOB_MIN_CHARS,
  packEvent,
  sha256,
  unpackEvent,
  type HistoryBase,
  type PackedEvent,
} from "./event-packing.js";
import { failingRun } from "./test-support/journaled-run.js";

/** An event as it is written: key order included, undefined fields dropped. */
const written = (event: LoopEvent) => JSON.stringify(toWire(event));

/**
 * Packs events as the journal does — each decision against a base `pickBase` chooses among the
 * task's earlier decisions (the latest, an older one after a restart, or none) — and reads them
 * back in order. Returns the events read and what was stored.
 */
function roundTrip(
  events: readonly LoopEvent[],
  pickBase: (earlier: readonly HistoryBase[]) => HistoryBase | undefined,
) {
  const blobs = new Map<string, string>();
  const decisions = new Map<string, HistoryBase[]>();
  const stored: PackedEvent[] = [];
  events.forEach((event, seq) => {
    const earlier = decisions.get(event.taskId) ?? [];
    const packed = packEvent(
      event,
      event.type === "decision-recorded" ? pickBase(earlier) : undefined,
    );
    for (const [hash, text] of packed.blobs) blobs.set(hash, text);
    stored.push(packed);
    if (event.type === "decision-recorded") {
      const history = event.input.iterationCheck.history ?? [];
      decisions.set(event.taskId, [...earlier, { seq, history }]);
    }
  });
  const histories = new Map<number, LoopEvent>();
  const read = stored.map((packed, seq) => {
    const event = unpackEvent(packed.body, {
      blob: (hash) => {
        const text = blobs.get(hash);
        if (text === undefined) throw new Error(`no blob ${hash}`);
        return text;
      },
      history: (at) => {
        const base = histories.get(at);
        if (base?.type !== "decision-recorded") throw new Error(`no decision at ${at}`);
        return base.input.iterationCheck.history ?? [];
      },
    });
    histories.set(seq, event);
    return event;
  });
  return { read, stored, blobs };
}

const answerArb: fc.Arbitrary<Answer | null> = fc.oneof(
  fc.constant(null),
  fc.record({ kind: fc.constant("text" as const), text: fc.string({ maxLength: 20 }) }),
  fc.constant({ kind: "approve" as const }),
  fc.constant({ kind: "abort" as const }),
);

/** Short texts, and long ones drawn from a small pool so that some repeat. */
const textArb = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc
    .constantFrom("x", "y", "z")
    .chain((letter) =>
      fc
        .integer({ min: BLOB_MIN_CHARS, max: BLOB_MIN_CHARS + 3 })
        .map((length) => letter.repeat(length)),
    ),
  fc.string({ minLength: BLOB_MIN_CHARS, maxLength: BLOB_MIN_CHARS + 40, unit: "grapheme" }),
);

/** Loops of one to three tasks with drawn outcomes, outputs, diffs and answers, driven to their end. */
const runArb = fc
  .record({
    tasks: fc.integer({ min: 1, max: 3 }),
    maxIterations: fc.integer({ min: 1, max: 5 }),
    maxPolls: fc.integer({ min: 0, max: 2 }),
    outcomes: fc.array(
      fc.tuple(fc.boolean(), fc.constantFrom("approve", "reject", "pending" as const)),
      {
        minLength: 1,
        maxLength: 12,
      },
    ),
    texts: fc.array(textArb, { minLength: 1, maxLength: 12 }),
    answers: fc.array(answerArb, { minLength: 1, maxLength: 6 }),
    choices: fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
  })
  .map((drawn) => {
    let turn = 0;
    const next = <T>(items: readonly T[]): T => items[turn++ % items.length] as T;
    const loop = plan(
      ...Array.from({ length: drawn.tasks }, (_, index) =>
        task(`t${index}`, {
          iterationControl: { maxIterations: drawn.maxIterations },
          reviewWait: { maxPolls: drawn.maxPolls, intervalMs: 1 },
        }),
      ),
    );
    const concurrent = { ...loop, concurrency: drawn.tasks };
    let pick = 0;
    return {
      plan: concurrent,
      events: drive(
        concurrent,
        {
          step: (effect) => {
            const [passes, review] = next(drawn.outcomes);
            if (effect.step === "generate") return generated({ diff: next(drawn.texts) });
            if (effect.step === "test") return tested(passes ? "pass" : "fail", next(drawn.texts));
            return reviewed(review, next(drawn.texts));
          },
          answer: () => next(drawn.answers),
        },
        (ready) => (drawn.choices[pick++ % drawn.choices.length] ?? 0) % ready,
        300,
      ).events,
    };
  });

describe("packEvent / unpackEvent", () => {
  it("reads every event back exactly as written, whichever earlier decision a decision extends", () => {
    fc.assert(
      fc.property(runArb, fc.array(fc.nat(), { minLength: 1, maxLength: 10 }), (run, picks) => {
        let turn = 0;
        const { read } = roundTrip(run.events, (earlier) => {
          const choice = (picks[turn++ % picks.length] ?? 0) % (earlier.length + 2);
          // The latest (as a running journal has it), any earlier one, or none at all.
          return choice === 0 ? earlier.at(-1) : earlier[choice - 2];
        });
        expect(read.map(written)).toEqual(run.events.map(written));
        // The fold gives the same state from the events read back.
        expect(replay(run.plan, read)).toEqual(replay(run.plan, run.events));
      }),
      { numRuns: 60 },
    );
  });

  it("names a text by the SHA-256 of its UTF-8 bytes, as a Hash object computes it", () => {
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(sha256(text)).toBe(
          createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex"),
        );
      }),
    );
  });

  it("stores each long text once, under its SHA-256", () => {
    fc.assert(
      fc.property(runArb, (run) => {
        const { stored, blobs } = roundTrip(run.events, (earlier) => earlier.at(-1));
        for (const [hash, text] of blobs) {
          expect(hash).toBe(sha256(text));
          expect(text.length).toBeGreaterThanOrEqual(BLOB_MIN_CHARS);
        }
        for (const packed of stored) {
          for (const text of blobs.values())
            expect(packed.body.includes(JSON.stringify(text).slice(1, -1))).toBe(false);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("keeps a decision's stored size the same at attempt 30 as at attempt 3", () => {
    const decisionSizes = (attempts: number) => {
      const { events } = failingRun({ attempts, outputBytes: 4096 });
      const { stored } = roundTrip(events, (earlier) => earlier.at(-1));
      return events.flatMap((event, index) =>
        event.type === "decision-recorded" && event.decision.action === "retry"
          ? [stored[index]?.body.length ?? 0]
          : [],
      );
    };
    const few = decisionSizes(3);
    const many = decisionSizes(30);
    expect(many).toHaveLength(29);
    // Each retry stores the same references, whatever the attempts before it.
    expect(Math.max(...many)).toBeLessThanOrEqual(Math.max(...few) + 16);
  });

  it("copies the whole history when the base is not where it starts", () => {
    const { events } = failingRun({ attempts: 3, outputBytes: 10 });
    const last = events.filter((event) => event.type === "decision-recorded").at(-1);
    if (last?.type !== "decision-recorded") throw new Error("a decision expected");
    const stranger: HistoryBase = {
      seq: 1,
      history: [
        {
          iteration: 1,
          testResult: { status: "pass", output: "" },
          reviewResult: { status: "approve", feedback: "" },
        },
      ],
    };
    const packed = packEvent(last, stranger);
    expect(packed.body).not.toContain("$history");
    expect(packed.body).toContain('"history":[{"iteration":1,');
  });
});
