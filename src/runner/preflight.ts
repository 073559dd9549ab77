import { accessSync, constants, readdirSync, statSync, type Stats } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { distance } from "../wire/closest-key.js";
import { InputError } from "../wire/input-error.js";
import type { StepSpec, StepSpecs, TaskFile } from "../wire/task-file.js";

/** Why a step cannot start: the field to fix and what is wrong with it. */
export interface StepProblem {
  /** The field under the step: `cwd`, `command` or `command[0]`. */
  readonly field: string;
  readonly message: string;
}

/** Where `execvp` looks when the environment has no PATH. */
const DEFAULT_PATH = "/usr/bin:/bin";

/**
 * Words `sh` runs itself or reads as syntax: a shell line starting with one names no program to
 * look for.
 */
const SHELL_WORDS = new Set(
  (
    ". : [ [[ ! { } alias bg break builtin case cd command continue do done echo elif else esac " +
    "eval exec exit export false fc fg fi for function getopts hash if jobs kill let local " +
    "printf pwd read readonly return set shift source test then time times trap true type " +
    "ulimit umask unalias unset until wait while"
  ).split(" "),
);

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function isExecutableFile(path: string): boolean {
  if (statOf(path)?.isFile() !== true) return false;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program a shell line starts with, when it plainly names one (not a builtin, not syntax). */
function shellProgram(line: string): string | undefined {
  const word = /^\s*([\w./+-]+)(?=\s|$)/.exec(line)?.[1];
  return word === undefined || SHELL_WORDS.has(word) ? undefined : word;
}

/** The executable on PATH closest to a name that is not there, when one is close enough. */
function closestProgram(name: string, path: readonly string[]): string | undefined {
  let best: { name: string; score: number } | undefined;
  for (const dir of new Set(path)) {
    let names: string[];
    try {
      names = readdirSync(dir || ".");
    } catch {
      continue;
    }
    for (const candidate of names) {
      if (Math.abs(candidate.length - name.length) > 2) continue;
      const score = distance(name, candidate);
      if (
        best === undefined ||
        score < best.score ||
        (score === best.score && candidate < best.name)
      ) {
        if (isExecutableFile(join(dir, candidate))) best = { name: candidate, score };
      }
    }
  }
  const tolerance = Math.max(1, Math.floor(name.length / 3));
  return best !== undefined && best.score > 0 && best.score <= tolerance ? best.name : undefined;
}

/**
 * Why `program` cannot be run from `cwd`, as `spawn` (execvp) would look for it: a name with a
 * slash is a path from the step's directory, any other is looked for on the step's PATH.
 */
export function programProblem(
  program: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (program.includes("/")) {
    const path = resolve(cwd, program);
    const stat = statOf(path);
    if (stat === undefined) return `program ${JSON.stringify(program)} does not exist (${path})`;
    if (!stat.isFile()) return `program ${JSON.stringify(program)} is not a file (${path})`;
    return isExecutableFile(path)
      ? undefined
      : `program ${JSON.stringify(program)} is not executable (${path}): chmod +x it, or run it through its interpreter, e.g. [sh, ${program}]`;
  }
  const path = (env.PATH ?? DEFAULT_PATH).split(delimiter);
  if (path.some((dir) => isExecutableFile(resolve(cwd, dir, program)))) return undefined;
  const near = closestProgram(program, path);
  const hint = near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`;
  return `program ${JSON.stringify(program)} not found on PATH${hint}`;
}

/**
 * Why a step cannot start, or undefined when it can: its `cwd` must be a directory and the
 * program it names must resolve and be executable. A shell line is checked for the program it
 * starts with, when it plainly names one; the rest of a shell line is the shell's to run.
 */
export function stepProblem(
  spec: StepSpec,
  baseDir: string,
  env: NodeJS.ProcessEnv = process.env,
): StepProblem | undefined {
  const cwd = resolve(baseDir, spec.cwd ?? ".");
  const stat = statOf(cwd);
  if (stat === undefined || !stat.isDirectory()) {
    const what = stat === undefined ? "does not exist" : "is not a directory";
    return {
      field: "cwd",
      message: `directory ${JSON.stringify(spec.cwd ?? ".")} ${what} (${cwd})`,
    };
  }
  const stepEnv = { ...env, ...spec.env };
  if (typeof spec.command === "string") {
    const program = shellProgram(spec.command);
    const message = program === undefined ? undefined : programProblem(program, cwd, stepEnv);
    return message === undefined ? undefined : { field: "command", message };
  }
  const message = programProblem(spec.command[0] ?? "", cwd, stepEnv);
  return message === undefined ? undefined : { field: "command[0]", message };
}

const STEP_NAMES = ["generate", "test", "review"] as const;

/**
 * Checks, before anything runs, that every step the tasks will run can start (see
 * `stepProblem`): the first that cannot is an InputError naming the task file's field, so the
 * CLI exits 2 with nothing started. Only the tasks `taskIds` names are checked, when given (a
 * resume skips finished tasks).
 */
export function preflight(
  file: TaskFile,
  baseDir: string,
  taskIds?: ReadonlySet<string>,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const tasks = file.tasks
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => taskIds === undefined || taskIds.has(entry.id));
  const check = (spec: StepSpec | undefined, path: string) => {
    const problem = spec === undefined ? undefined : stepProblem(spec, baseDir, env);
    if (problem !== undefined) throw new InputError(`${path}.${problem.field}`, problem.message);
  };
  for (const name of STEP_NAMES) {
    // The file's step, when a task runs it (no task replaces it).
    if (tasks.some(({ entry }) => entry.steps?.[name] === undefined)) {
      check(file.steps[name], `steps.${name}`);
    }
    for (const { entry, index } of tasks) {
      check(
        (entry.steps as Partial<StepSpecs> | undefined)?.[name],
        `tasks[${index}].steps.${name}`,
      );
    }
  }
}
