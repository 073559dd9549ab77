import { describe, expect, it } from "vitest";
import type { RunStep } from "../core/loop/loop-effect.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import { effectsOf } from "../core/loop/effects-of.js";
import { startLoop } from "../core/loop/start-loop.js";
import { generated, plan, task } from "../core/loop/test-support/loop-world.js";
import { elapsed, lineProgress } from "./line-progress.js";
import { paintFor } from "./paint.js";
import { hasUnprintable } from "../core/printable.js";

const state = startLoop({ ...plan(task("a"), task("b")), concurrency: 2 }).state;
const [stepA, stepB] = effectsOf(state) as RunStep[];
if (stepA === undefined || stepB === undefined) throw new Error("two steps expected");

const finished = (effect: RunStep): LoopEvent => ({
  type: "step-finished",
  effectId: effect.id,
  taskId: effect.taskId,
  iteration: effect.iteration,
  outcome: generated(),
});

/** A progress stream that keeps what was written. */
function screen(isTTY: boolean, columns?: number) {
  let text = "";
  return {
    stream: { write: (more: string) => (text += more), isTTY, columns },
    text: () => text,
  };
}

describe("lineProgress", () => {
  it("starts each line with its task, and holds the lines while a human is asked", async () => {
    const out = screen(false);
    const progress = lineProgress(out.stream, paintFor(false));
    const answer = progress.asking(async () => {
      progress.recorded(finished(stepB), state);
      out.stream.write("b's question\n");
      return "go on";
    });
    expect(await answer).toBe("go on");
    progress.recorded(finished(stepA), state);
    expect(out.text()).toBe(
      "b's question\nb #1/3 generate: done 0.0s\na #1/3 generate: done 0.0s\n",
    );
  });

  it("shows every running step on the live line, cut to the terminal's width", () => {
    const out = screen(true, 40);
    let clock = 0;
    const progress = lineProgress(out.stream, paintFor(false), () => clock);
    progress.stepStarting(stepA, state);
    expect(out.text()).toBe("a #1/3 generate running 0s");
    clock = 65_000;
    progress.stepStarting(stepB, state);
    expect(out.text().split("\r\u001b[2K").at(-1)).toBe("running: a #1/3 generate 1m05s · b #1/…");
    clock = 70_000;
    progress.recorded(finished(stepA), state);
    // The finished step's line, then the live line again for the step still running.
    expect(out.text().split("\r\u001b[2K").at(-1)).toBe(
      "a #1/3 generate: done 0.0s\nb #1/3 generate running 5s",
    );
    progress.recorded(finished(stepB), state);
  });
});

describe("elapsed", () => {
  it("reads in seconds, then minutes, then hours", () => {
    expect([0, 999, 59_999, 60_000, 185_000, 3_600_000, 7_620_000].map(elapsed)).toEqual([
      "0s",
      "0s",
      "59s",
      "1m00s",
      "3m05s",
      "1h00m",
      "2h07m",
    ]);
  });
});

describe("lineProgress on hostile text", () => {
  const hostile = "\u001b]0;pwned\u0007\u009b31m\r\u001b[2Kfake\u202e";
  // What loopgate itself writes: its colours, and the live line's clearing.
  // eslint-disable-next-line no-control-regex -- looking for escape sequences is the point
  const OWN_ESCAPES = /\u001b\[(?:\d+m|2K)|\r(?=\u001b\[2K)/g;

  it("colours the line but shows quoted answers and names as visible escapes", () => {
    const out = screen(true);
    const progress = lineProgress(out.stream, paintFor(true, {}));
    progress.recorded(
      {
        type: "answer-given",
        effectId: "e",
        taskId: "a",
        iteration: 1,
        answer: { kind: "text", text: hostile, by: hostile },
      },
      state,
    );
    progress.notice(`waiting for ${hostile}`);
    const text = out.text();
    expect(text).toContain("\\u001b]0;pwned\\u0007\\u009b31m\\u000d");
    expect(hasUnprintable(text.replace(OWN_ESCAPES, ""))).toBe(false);
  });
});
