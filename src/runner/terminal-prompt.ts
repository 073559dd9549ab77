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

/** Lines of a diff shown by the `diff` reply, and characters at most: a screen, not a file. */
const DIFF_LINES = 120;
const DIFF_CHARS = 12_000;

/** The escalation's diff cut to a screen, with what was left out said; null without a diff. */
export function boundedDiff(effect: AwaitAnswer): string | null {
  const diff = effect.decision.action === "escalate" ? effect.decision.context.diff : undefined;
  if (diff === undefined || diff.trim() === "") return null;
  const lines = diff.trimEnd().split("\n");
  let shown = lines.slice(0, DIFF_LINES).join("\n");
  if (shown.length > DIFF_CHARS) shown = shown.slice(0, DIFF_CHARS);
  const kept = shown.split("\n").length;
  const rest = lines.length - kept;
  return rest <= 0 && shown.length === diff.trimEnd().length
    ? shown
    : `${shown}\n… ${rest > 0 ? `${rest} more lines` : "cut"} (loopgate export --jsonl has the whole diff)`;
}

/**
 * The question without its trailing numbered option lines, which the options list shows once,
 * with their guidance.
 */
export function questionBody(effect: AwaitAnswer): string {
  const text =
    effect.decision.action === "escalate" ? effect.decision.question : effect.decision.message;
  const lines = text.trimEnd().split("\n");
  const numbered = new Set(effect.options.map((option) => `${option.id}. ${option.label}`));
  while (lines.length > 0 && numbered.has((lines.at(-1) ?? "").trim())) lines.pop();
  return lines.join("\n").trimEnd();
}

/** The options, each once, with the guidance the next attempt gets when it is picked. */
export function optionLines(effect: AwaitAnswer): string[] {
  return effect.options.flatMap((option) => [
    `  ${option.id}. ${option.label}`,
    ...(option.guidance === undefined || option.guidance === "" ? [] : [`     ${option.guidance}`]),
  ]);
}

/**
 * What a human sees when a task pauses: the question once, the attempts and pattern when the
 * question does not already tell them, the diff's size (the `diff` reply shows it), and the
 * options once with their guidance. What it quotes is made printable before it is coloured.
 */
export function pauseScreen(effect: AwaitAnswer, paint: Paint): string {
  const decision = effect.decision;
  const body = questionBody(effect);
  const lines = [
    "",
    paint.bold(
      printable(`${effect.taskId} paused after attempt ${effect.iteration}: ${decision.reason}`),
    ),
  ];
  if (decision.action === "escalate") {
    const attempts = decision.context.attemptsSummary.trimEnd();
    if (attempts !== "" && !body.includes(attempts)) {
      lines.push("", paint.bold("Attempts:"), printable(attempts));
    }
    const pattern = decision.context.patternDetected;
    if (pattern !== null && !body.includes(pattern)) {
      lines.push("", `${paint.bold("Pattern:")} ${printable(pattern)}`);
    }
  }
  lines.push("", printable(body));
  if (decision.action === "escalate" && decision.context.diff !== undefined) {
    lines.push(
      "",
      `${paint.bold("Diff:")} ${diffStat(decision.context.diff)} (type "diff" to see it)`,
    );
  }
  if (effect.options.length > 0)
    lines.push("", paint.bold("Options:"), ...optionLines(effect).map(printable));
  const choices = effect.options.length === 0 ? "" : "an option number, ";
  lines.push(
    "",
    paint.dim(
      `Answer with ${choices}guidance text, "approve", "abort", or an empty line to pause.`,
    ),
  );
  return `${lines.join("\n")}\n`;
}

/**
 * Reads a typed reply: an option number, approve, abort, guidance, or nothing (pause); a
 * string is shown before asking again (a wrong option number, the diff).
 */
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
  if (text === "diff") return printable(boundedDiff(effect) ?? "this pause has no diff");
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
