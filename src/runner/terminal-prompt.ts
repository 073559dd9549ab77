import { createInterface } from "node:readline/promises";
import type { Answer } from "../core/loop/answer.js";
import { printable } from "../core/printable.js";
import type { AwaitAnswer } from "../core/loop/loop-effect.js";
import type { AnswerSource } from "./answer-source.js";
import type { Paint } from "./paint.js";
import { redactStrings } from "../core/redaction/redact-strings.js";

/** `3 files changed, +12 −4`: the size of a diff at a glance. */
export function diffStat(diff: string): string {
  let added = 0;
  let removed = 0;
  let files = 0;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++")) files += 1;
    else if (line.startsWith("+")) added += 1;
    else if (line.startsWith("-") && !line.startsWith("---")) removed += 1;
  }
  return `${files} file${files === 1 ? "" : "s"} changed, +${added} −${removed}`;
}

/**
 * What a human sees when a task pauses: attempts, pattern, diff stat, question, options. What it
 * quotes is made printable before it is coloured.
 */
export function pauseScreen(effect: AwaitAnswer, paint: Paint): string {
  const decision = effect.decision;
  const lines = [
    "",
    paint.bold(
      printable(`${effect.taskId} paused after attempt ${effect.iteration}: ${decision.reason}`),
    ),
  ];
  if (decision.action === "escalate") {
    lines.push("", paint.bold("Attempts:"), printable(decision.context.attemptsSummary.trimEnd()));
    if (decision.context.patternDetected !== null) {
      lines.push("", `${paint.bold("Pattern:")} ${printable(decision.context.patternDetected)}`);
    }
    if (decision.context.diff !== undefined) {
      lines.push(`${paint.bold("Diff:")} ${diffStat(decision.context.diff)}`);
    }
    lines.push("", printable(decision.question.trimEnd()));
  } else {
    lines.push("", printable(decision.message));
  }
  const choices = effect.options.length === 0 ? "" : "an option number, ";
  lines.push(
    "",
    paint.dim(
      `Answer with ${choices}guidance text, "approve", "abort", or an empty line to pause.`,
    ),
  );
  return `${lines.join("\n")}\n`;
}

/** Reads a typed reply: an option number, approve, abort, guidance, or nothing (pause). */
export function readReply(reply: string, effect: AwaitAnswer): Answer | null | string {
  const text = reply.trim();
  if (text === "") return null;
  if (/^\d+$/.test(text)) {
    const option = Number(text);
    return effect.options.some((candidate) => candidate.id === option)
      ? { kind: "option", option }
      : `there is no option ${option}`;
  }
  if (text === "approve" || text === "abort") return { kind: text };
  return { kind: "text", text };
}

/**
 * Asks on the terminal; a wrong option number asks again. The driver asks one question at a time
 * and holds other tasks' progress meanwhile, so the screen shows one task's question at once.
 */
export function terminalPrompt(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  paint: Paint,
  by: string,
): AnswerSource {
  return async (effect, _task, signal) => {
    const readline = createInterface({ input, output, terminal: true });
    try {
      output.write(pauseScreen(effect, paint));
      for (;;) {
        const reply = readReply(
          await readline.question("> ", signal === undefined ? {} : { signal }),
          effect,
        );
        if (typeof reply !== "string") {
          if (reply === null) return null;
          return { answer: redactStrings({ ...reply, by }), source: "terminal" };
        }
        output.write(`${reply}\n`);
      }
    } finally {
      readline.close();
    }
  };
}
