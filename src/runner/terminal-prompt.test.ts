import { describe, expect, it } from "vitest";
import type { AwaitAnswer } from "../core/loop/loop-effect.js";
import {
  drive,
  generated,
  plan,
  reviewed,
  task,
  tested,
} from "../core/loop/test-support/loop-world.js";
import { hasUnprintable } from "../core/printable.js";
import { paintFor } from "./paint.js";
import { pauseScreen } from "./terminal-prompt.js";

const HOSTILE = "\u001b]0;pwned\u0007\u009b31m\r\u001b[2Kfake\u202e";

describe("pauseScreen on hostile text", () => {
  it("colours the screen but shows what it quotes as visible escapes", () => {
    const run = drive(plan(task("a", { iterationControl: { maxIterations: 1 } })), {
      step: (effect) =>
        effect.step === "generate"
          ? generated()
          : effect.step === "test"
            ? tested("fail", `FAIL x\nError: boom ${HOSTILE}\n`)
            : reviewed("reject", `Blocking: ${HOSTILE}`),
      answer: () => null,
    });
    const paused = run.effects.find(
      (effect): effect is AwaitAnswer => effect.kind === "await-answer",
    );
    if (paused === undefined) throw new Error("the task should pause");
    if (paused.decision.action !== "escalate") throw new Error("the task should escalate");
    // The journal may hold any text (an older version's, or an edited one): put it everywhere.
    const decision = {
      ...paused.decision,
      question: `${HOSTILE}?`,
      context: { ...paused.decision.context, attemptsSummary: HOSTILE, patternDetected: HOSTILE },
    };
    const screen = pauseScreen({ ...paused, taskId: HOSTILE, decision }, paintFor(true, {}));
    // eslint-disable-next-line no-control-regex -- loopgate's own colours are the only escapes left
    expect(hasUnprintable(screen.replace(/\u001b\[\d+m/g, ""))).toBe(false);
    expect(screen).toContain("\\u001b]0;pwned\\u0007");
  });
});
