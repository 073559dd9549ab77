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
import { pauseScreen, readReply } from "./terminal-prompt.js";

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

describe("pauseScreen", () => {
  const diff = [
    "diff --git a/src/login.ts b/src/login.ts",
    "--- a/src/login.ts",
    "+++ b/src/login.ts",
    "@@ -1,3 +1,3 @@",
    ...Array.from({ length: 300 }, (_, index) => `+line ${index}`),
  ].join("\n");
  const run = drive(plan(task("a", { iterationControl: { maxIterations: 2 } })), {
    step: (effect) =>
      effect.step === "generate"
        ? { ...generated(), diff }
        : effect.step === "test"
          ? tested("fail", "FAIL x.test.ts\nExpected: 1\nReceived: 2\n")
          : reviewed("approve", ""),
    answer: () => null,
  });
  const paused = run.effects.find(
    (effect): effect is AwaitAnswer => effect.kind === "await-answer",
  );
  if (paused?.decision.action !== "escalate") throw new Error("the task should escalate");
  const question = paused.decision.question;
  const screen = pauseScreen(paused, paintFor(false));
  const count = (text: string) => screen.split(text).length - 1;

  it("shows the question once and each option once, with its guidance", () => {
    expect(count(question.split("\n")[0] ?? "")).toBe(1);
    expect(paused.options.length).toBeGreaterThan(1);
    for (const option of paused.options) {
      expect(count(option.label)).toBe(1);
      expect(option.guidance).toBeTruthy();
      expect(count(option.guidance ?? "")).toBe(1);
    }
  });

  it("gives the diff's size and shows the diff, bounded, when asked", () => {
    expect(screen).toContain('Diff: 1 file changed, +300 −0 (type "diff" to see it)');
    const shown = readReply("diff", paused);
    expect(typeof shown).toBe("string");
    expect(String(shown)).toContain("+line 0\n");
    expect(String(shown)).not.toContain("+line 200");
    expect(String(shown)).toMatch(
      /… 184 more lines \(loopgate export --jsonl has the whole diff\)$/,
    );
  });
});
