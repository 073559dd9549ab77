import { readFileSync } from "node:fs";
import { isRecord } from "../core/json-record.js";
import { InputError } from "../wire/input-error.js";
import { parseText } from "../wire/parse-text.js";
import { redactTaskDocument } from "../wire/redact-task-document.js";
import { decodeTaskFile, type TaskEntry, type TaskFile } from "../wire/task-file.js";
import type { LoadedRun } from "./load-run.js";

/**
 * What of a task file's document runs or is reached: the step specs (the file's own and each
 * task's overrides) and the notifications, whose commands and webhook URLs may hold secrets.
 */
function stepsOf(document: unknown): unknown[] {
  if (!isRecord(document)) return [];
  const tasks = Array.isArray(document.tasks) ? document.tasks : [];
  return [
    document.steps,
    document.on_pause,
    document.on_finish,
    ...tasks.map((task) => (isRecord(task) ? task.steps : undefined)),
  ];
}

/** The task file as it is now, or undefined when it cannot be read or parsed. */
export function readTaskDocument(file: string): unknown {
  try {
    return parseText(readFileSync(file, "utf8"), file);
  } catch {
    return undefined;
  }
}

/**
 * The run with its steps as the task file gives them. The journal keeps a redacted copy of the
 * task file, which is all a step's prompt, history and export need; but a step's command and
 * `env` must reach it whole. When the journaled steps hold redacted secrets, they are taken from
 * `document` (the task file `run` just read) or read again from the run's task file, which must
 * still redact to exactly the journaled copy.
 */
export function withStepSecrets(loaded: LoadedRun, document?: unknown): LoadedRun {
  const journaled = loaded.run.document;
  if (!JSON.stringify(stepsOf(journaled)).includes("[REDACTED:")) return loaded;
  const given = document ?? readTaskDocument(loaded.run.taskFile);
  const same = JSON.stringify(redactTaskDocument(given)) === JSON.stringify(journaled);
  if (given === undefined || !same) {
    throw new InputError(
      loaded.run.taskFile,
      `run ${loaded.run.id}'s steps hold secrets the journal keeps only redacted, and this task file is gone or changed since the run started; restore it, or start a new run`,
    );
  }
  return withStepsOf(loaded, decodeTaskFile(given));
}

/** A task entry without step overrides. */
function withoutSteps(task: TaskEntry): TaskEntry {
  return Object.fromEntries(Object.entries(task).filter(([key]) => key !== "steps")) as TaskEntry;
}

/** The run with `file`'s steps (the file's own and each task's overrides) instead of its own. */
export function withStepsOf(loaded: LoadedRun, file: TaskFile): LoadedRun {
  return {
    ...loaded,
    file: {
      ...loaded.file,
      steps: file.steps,
      ...(file.onPause === undefined ? {} : { onPause: file.onPause }),
      ...(file.onFinish === undefined ? {} : { onFinish: file.onFinish }),
      tasks: loaded.file.tasks.map((task, index) => {
        const steps = file.tasks[index]?.steps;
        return steps === undefined ? withoutSteps(task) : { ...task, steps };
      }),
    },
  };
}
