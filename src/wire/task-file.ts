import * as v from "valibot";
import type { StopConditions } from "../core/decide-input.js";
import { DEFAULT_ITERATION_CONTROL, type IterationControl } from "../core/iteration-check.js";
import {
  DEFAULT_ANSWER_POLICY,
  DEFAULT_REVIEW_WAIT,
  type AnswerPolicy,
  type LoopPlan,
  type ReviewWait,
} from "../core/loop/loop-plan.js";
import { iterationControl, stopConditions } from "./decide-document.js";
import { decodeDocument } from "./decode-document.js";
import { integerAtLeast, list, mapping, name, numberAtLeast, text } from "./fields.js";
import { InputError } from "./input-error.js";

/** A command: an argv array run as is, or a shell string the user wrote, run by `sh -c`. */
const command = v.union(
  [
    v.pipe(
      v.array(text),
      v.minLength(1, "expected a non-empty list"),
      v.description("argv: the program and its arguments, run without a shell"),
    ),
    v.pipe(name, v.description("a shell command line, run with sh -c")),
  ],
  "expected a list of arguments or a shell command string",
);

// Variables are names a shell can export; LOOPGATE_ ones are the step protocol's and reserved.
const ENV_NAME = /^[a-z_]\w*$/i;

const step = mapping(
  {
    command,
    cwd: v.optional(v.pipe(name, v.description("working directory, relative to the task file"))),
    env: v.optional(v.record(v.string(), text, "expected a mapping of variable names to strings")),
    timeout_ms: v.optional(v.pipe(integerAtLeast(1), v.description("default 3600000 (1 hour)"))),
  },
  "expected a mapping with command, cwd, env, timeout_ms",
);

const steps = mapping(
  { generate: step, test: v.optional(step), review: v.optional(step) },
  "expected a mapping with generate, test, review",
);

const stepOverrides = mapping(
  { generate: v.optional(step), test: v.optional(step), review: v.optional(step) },
  "expected a mapping with generate, test, review",
);

const onAnswer = mapping(
  {
    extra_iterations: v.optional(integerAtLeast(1)),
    extra_budget: v.optional(numberAtLeast(0)),
    extra_time_ms: v.optional(numberAtLeast(0)),
  },
  "expected a mapping with extra_iterations, extra_budget, extra_time_ms",
);

const reviewWait = mapping(
  { max_polls: v.optional(integerAtLeast(0)), interval_ms: v.optional(integerAtLeast(0)) },
  "expected a mapping with max_polls, interval_ms",
);

/** Settings a task may override, field by field. */
const settingsEntries = {
  iteration_control: v.optional(iterationControl),
  stop_conditions: v.optional(stopConditions),
  on_answer: v.optional(onAnswer),
  review_wait: v.optional(reviewWait),
};

// Task ids name files and directories of the run, so they stay portable.
const taskId = v.pipe(
  name,
  v.regex(/^[\w.-]+$/, "expected letters, digits, '.', '_' or '-'"),
  v.check((id) => id !== "." && id !== "..", "expected a task id, not a directory name"),
);

const task = mapping(
  { id: taskId, prompt: text, ...settingsEntries, steps: v.optional(stepOverrides) },
  "expected a mapping with id and prompt",
);

/** Schema of a `loopgate run` task file. */
export const taskFileSchema = mapping(
  {
    $schema: v.optional(text),
    ...settingsEntries,
    output_limit_bytes: v.optional(
      v.pipe(integerAtLeast(1024), v.description("captured output kept per step, default 1 MiB")),
    ),
    steps,
    tasks: v.pipe(list(task), v.minLength(1, "expected at least one task")),
  },
  "expected a mapping with steps and tasks",
);

/** A step's command line and environment as the task file gives them. */
export interface StepSpec {
  readonly command: readonly string[] | string;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

/** The steps of a pass; test and review are optional. */
export interface StepSpecs {
  readonly generate: StepSpec;
  readonly test?: StepSpec;
  readonly review?: StepSpec;
}

/** Settings that the file sets for every task and a task may override. */
interface Settings {
  readonly iterationControl?: Partial<IterationControl>;
  readonly stopConditions?: StopConditions;
  readonly onAnswer?: Partial<AnswerPolicy>;
  readonly reviewWait?: Partial<ReviewWait>;
}

/** One entry of `tasks`. */
export interface TaskEntry extends Settings {
  readonly id: string;
  readonly prompt: string;
  readonly steps?: Partial<StepSpecs>;
}

/** A validated task file, camelCased. */
export interface TaskFile extends Settings {
  readonly outputLimitBytes?: number;
  readonly steps: StepSpecs;
  readonly tasks: readonly TaskEntry[];
}

/** Refuses variable names a shell cannot export and the step protocol's own. */
function checkEnv(spec: StepSpec | undefined, path: string): void {
  for (const key of Object.keys(spec?.env ?? {})) {
    const problem = !ENV_NAME.test(key)
      ? "is not an environment variable name"
      : key.startsWith("LOOPGATE_")
        ? "is reserved for loopgate (the step protocol sets it)"
        : undefined;
    if (problem !== undefined)
      throw new InputError(`${path}.env`, `${JSON.stringify(key)} ${problem}`);
  }
}

/** Validates a parsed task file strictly: unknown keys, wrong types and duplicate task ids are errors. */
export function decodeTaskFile(document: unknown): TaskFile {
  const file = decodeDocument(taskFileSchema, document) as TaskFile;
  for (const name of ["generate", "test", "review"] as const) {
    checkEnv(file.steps[name], `steps.${name}`);
    for (const [index, entry] of file.tasks.entries()) {
      checkEnv(entry.steps?.[name], `tasks[${index}].steps.${name}`);
    }
  }
  const seen = new Set<string>();
  for (const [index, entry] of file.tasks.entries()) {
    if (seen.has(entry.id)) {
      throw new InputError(`tasks[${index}].id`, `duplicate task id ${JSON.stringify(entry.id)}`);
    }
    seen.add(entry.id);
  }
  return file;
}

/** A task's steps: its own overrides replace the file's step of the same name. */
export function stepsOf(file: TaskFile, entry: TaskEntry): StepSpecs {
  return { ...file.steps, ...entry.steps };
}

/** The pure loop's plan: each task's settings resolved (task over file over defaults, field by field). */
export function planOf(file: TaskFile): LoopPlan {
  return {
    tasks: file.tasks.map((entry) => {
      const specs = stepsOf(file, entry);
      return {
        id: entry.id,
        prompt: entry.prompt,
        iterationControl: {
          ...DEFAULT_ITERATION_CONTROL,
          ...file.iterationControl,
          ...entry.iterationControl,
        },
        stopConditions: { ...file.stopConditions, ...entry.stopConditions },
        onAnswer: { ...DEFAULT_ANSWER_POLICY, ...file.onAnswer, ...entry.onAnswer },
        reviewWait: { ...DEFAULT_REVIEW_WAIT, ...file.reviewWait, ...entry.reviewWait },
        hasTest: specs.test !== undefined,
        hasReview: specs.review !== undefined,
      };
    }),
  };
}
