import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Feedback } from "../core/feedback/feedback.js";
import type { GivenAnswer } from "../core/loop/answer.js";
import type { RunStep } from "../core/loop/loop-effect.js";
import { toWire } from "../wire/codec.js";

/** The feedback as a person or a model reads it. */
export function feedbackText(feedback: Feedback, iteration: number): string {
  const items = feedback.actionableItems.map((item) => `- ${item}`).join("\n");
  return `Feedback on attempt ${iteration - 1} (priority ${feedback.priority}):\n${feedback.summary}\n${items === "" ? "" : `\n${items}\n`}`;
}

/** The human's answer with the question it answers, as a person or a model reads it. */
export function answerText(given: GivenAnswer): string {
  const answer = given.answer;
  const said =
    answer.kind === "option"
      ? `Answer: option ${answer.option}${given.label === undefined ? "" : ` — ${given.label}`}${given.guidance === undefined ? "" : `\nGuidance: ${given.guidance}`}`
      : answer.kind === "text"
        ? `Guidance: ${answer.text}`
        : `Answer: ${answer.kind}`;
  return `After attempt ${given.iteration} loopgate paused (${given.reason}) and asked:\n\n${given.question.trimEnd()}\n\n${said}\n`;
}

/** Writes a JSON document and its text sibling (`x.json`, `x.txt`); returns the JSON file's path. */
function writePair(dir: string, name: string, value: unknown, text: string): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(toWire(value), null, 2)}\n`);
  writeFileSync(join(dir, `${name}.txt`), text);
  return file;
}

/**
 * Writes what a step is handed into files and returns the step protocol's variables naming
 * them, and the report file the step may append its cost to. Nothing from the prompt, feedback
 * or answer ever reaches a command line. Synchronous on purpose: the files are small, and each
 * promise-based call is a thread-pool round trip (open, write, close), which cost more than the
 * writes themselves (measured with bench/runner.mjs).
 */
export function stepFiles(
  runDir: string,
  effect: RunStep,
): { env: Record<string, string>; reportFile: string } {
  const taskDir = join(runDir, effect.taskId);
  const dir = join(taskDir, String(effect.iteration));
  mkdirSync(dir, { recursive: true });
  const prompt = join(dir, "prompt.md");
  writeFileSync(prompt, effect.inputs.prompt);
  const report = join(dir, `${effect.step}-${effect.poll}.report.jsonl`);
  writeFileSync(report, "");
  const env: Record<string, string> = {
    LOOPGATE_TASK_ID: effect.taskId,
    LOOPGATE_ITERATION: String(effect.iteration),
    LOOPGATE_STEP: effect.step,
    LOOPGATE_TASK_DIR: taskDir,
    LOOPGATE_PROMPT_FILE: prompt,
    LOOPGATE_REPORT_FILE: report,
  };
  const { feedback, answer } = effect.inputs;
  if (feedback !== null) {
    env.LOOPGATE_FEEDBACK_FILE = writePair(
      dir,
      "feedback",
      feedback,
      feedbackText(feedback, effect.iteration),
    );
  }
  if (answer !== null) {
    env.LOOPGATE_ANSWER_FILE = writePair(dir, "answer", answer, answerText(answer));
  }
  return { env, reportFile: report };
}
