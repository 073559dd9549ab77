import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type { Feedback } from "../core/feedback/feedback.js";
import type { GivenAnswer } from "../core/loop/answer.js";
import type { RunStep } from "../core/loop/loop-effect.js";
import { toWire } from "../wire/codec.js";
import { withoutStacks } from "./without-stacks.js";

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

/** A file as loopgate last wrote it: identity, size and change time, and what it holds. */
interface WrittenFile {
  readonly text: string;
  readonly ino: bigint;
  readonly size: bigint;
  readonly ctimeNs: bigint;
}

/**
 * The files steps are handed, for one runner. What an attempt is handed (its prompt, feedback
 * and answer) is the same for each of its steps: it is written for the attempt's first step and
 * written again only when a step changed or removed it (its inode, size or change time differ),
 * so every step still reads exactly what loopgate wrote. Only each task's latest attempt is
 * remembered, and a finished task's not at all (`forget`): memory does not grow with the run.
 */
export class StepFiles {
  /** Per task: the attempt whose files were written, and how. */
  private readonly attempts = new Map<
    string,
    { readonly iteration: number; readonly files: Map<string, WrittenFile> }
  >();

  constructor(private readonly runDir: string) {}

  /**
   * Writes what a step is handed into files and returns the step protocol's variables naming
   * them, and the report file the step may append its cost to (none there as the step starts).
   * Nothing from the prompt, feedback or answer ever reaches a command line. Synchronous on
   * purpose: the files are small, and each promise-based call is a thread-pool round trip
   * (open, write, close), which cost more than the writes themselves (measured with
   * bench/runner.mjs).
   */
  prepare(effect: RunStep): { env: Record<string, string>; reportFile: string } {
    const taskDir = join(this.runDir, effect.taskId);
    const dir = join(taskDir, String(effect.iteration));
    let attempt = this.attempts.get(effect.taskId);
    if (attempt?.iteration !== effect.iteration) {
      attempt = { iteration: effect.iteration, files: new Map() };
      this.attempts.set(effect.taskId, attempt);
      // Made once, before its first file: a write that fails first costs more than the mkdir.
      mkdirSync(dir, { recursive: true });
    }
    const files = attempt.files;
    const put = (name: string, text: string): string => {
      const path = join(dir, name);
      const known = files.get(path);
      if (known === undefined || known.text !== text || !unchanged(path, known)) {
        files.set(
          path,
          inDir(dir, () => write(path, text)),
        );
      }
      return path;
    };
    const prompt = put("prompt.md", effect.inputs.prompt);
    const report = join(dir, `${effect.step}-${effect.poll}.report.jsonl`);
    // Removed, not created: a step that reports makes it by appending (`>>`), and the many that
    // do not cost no new file; one left by a cut-off run of the same step is not read again.
    removeIfThere(report);
    const env: Record<string, string> = {
      LOOPGATE_TASK_ID: effect.taskId,
      LOOPGATE_ITERATION: String(effect.iteration),
      LOOPGATE_STEP: effect.step,
      LOOPGATE_TASK_DIR: taskDir,
      LOOPGATE_PROMPT_FILE: prompt,
      LOOPGATE_REPORT_FILE: report,
    };
    /** A JSON document and its text sibling (`x.json`, `x.txt`); returns the JSON file's path. */
    const pair = (name: string, value: unknown, text: string): string => {
      put(`${name}.txt`, text);
      return put(`${name}.json`, `${JSON.stringify(toWire(value), null, 2)}\n`);
    };
    const { feedback, answer } = effect.inputs;
    if (feedback !== null) {
      env.LOOPGATE_FEEDBACK_FILE = pair(
        "feedback",
        feedback,
        feedbackText(feedback, effect.iteration),
      );
    }
    if (answer !== null) env.LOOPGATE_ANSWER_FILE = pair("answer", answer, answerText(answer));
    return { env, reportFile: report };
  }

  /** Forgets a finished task: its files stay, and no later step of it will be handed them. */
  forget(taskId: string): void {
    this.attempts.delete(taskId);
  }
}

/** Runs a write in `dir`, making the directory again when it is not there (a step removed it). */
function inDir<T>(dir: string, action: () => T): T {
  try {
    return action();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dir, { recursive: true });
    return action();
  }
}

/** Removes the file at `path`, if there is one. */
function removeIfThere(path: string): void {
  try {
    // Not there, for nearly every step: the failure is the usual case, so it comes cheap.
    withoutStacks(() => unlinkSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Writes `text` to `path` and notes how the file is then. */
function write(path: string, text: string): WrittenFile {
  const fd = openSync(path, "w");
  try {
    writeSync(fd, text);
    const stats = fstatSync(fd, { bigint: true });
    return { text, ino: stats.ino, size: stats.size, ctimeNs: stats.ctimeNs };
  } finally {
    closeSync(fd);
  }
}

/** Whether `path` is still the file as `known` notes it: any write or replacement changes its ctime or inode. */
function unchanged(path: string, known: WrittenFile): boolean {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  return (
    stats !== undefined &&
    stats.ino === known.ino &&
    stats.size === known.size &&
    stats.ctimeNs === known.ctimeNs
  );
}
