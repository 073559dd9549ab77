import { stepErrors } from "../core/loop/effects-of.js";
import { InputError } from "../wire/input-error.js";
import { redactTaskDocument } from "../wire/redact-task-document.js";
import { decodeTaskFile, planOf } from "../wire/task-file.js";
import type { LoadedRun } from "./load-run.js";
import { preflight } from "./preflight.js";
import { readTaskDocument, withStepsOf } from "./step-secrets.js";

/**
 * Checks, before a resume writes anything, that every step the run's unfinished tasks will run
 * can start (see `preflight`): with `document`'s steps when given (a fixed task file, secrets
 * and all), else the run's as loaded. A step that cannot start is an InputError naming the
 * task file's field: the resume exits 2, nothing journaled and no task put back in motion.
 */
export function preflightResume(loaded: LoadedRun, document?: unknown): void {
  const steps = document === undefined ? loaded : withStepsOf(loaded, decodeTaskFile(document));
  const unfinished = loaded.state.tasks.filter((task) => task.phase.name !== "done");
  preflight(steps.file, loaded.run.baseDir, new Set(unfinished.map((task) => task.id)));
}

/**
 * A run paused by a step error, with its steps as the task file gives them now: the fix of a
 * step error is an edit of the task file, so `resume` must read it again rather than reuse the
 * journaled steps, which are the ones that failed. Only steps change: a file whose tasks or
 * settings changed too (their plan differs) is refused, as it is no longer the run's. Returns
 * undefined when no task is paused by a step error (the journaled steps stand).
 */
export function withFixedSteps(loaded: LoadedRun): LoadedRun | undefined {
  if (stepErrors(loaded.state).length === 0) return undefined;
  const { id, taskFile } = loaded.run;
  const document = readTaskDocument(taskFile);
  if (document === undefined) {
    throw new InputError(
      taskFile,
      `run ${id} is paused by a step error and its task file cannot be read; restore it with the step fixed, then resume`,
    );
  }
  const fixed = decodeTaskFile(document);
  const plan = (file: unknown) => JSON.stringify(planOf(decodeTaskFile(file)).tasks);
  if (plan(redactTaskDocument(document)) !== plan(loaded.run.document)) {
    throw new InputError(
      taskFile,
      `run ${id} is paused by a step error, and its tasks or settings changed since it started; change only the steps to fix it, or start a new run`,
    );
  }
  return withStepsOf(loaded, fixed);
}
