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
import { decodeDocument, describeValue } from "./decode-document.js";
import {
  finiteNumber,
  integerAtLeast,
  list,
  mapping,
  name,
  numberAtLeast,
  text,
} from "./fields.js";
import { InputError } from "./input-error.js";
import {
  agentEntries,
  resolveGenerate,
  type AgentSpec,
  type DecodedGenerate,
  type JsonReportSpec,
} from "./agent-step.js";
import { workspaceSchema, type WorkspaceSpec } from "./workspace-spec.js";

/** Longest task id: ids name a run's files and directories, and file names stop at 255 bytes. */
export const MAX_TASK_ID_LENGTH = 128;

/** Longest timer Node can set, 2^31 − 1 ms (about 24.8 days): a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Longest argument, or environment entry `NAME=value`, Linux hands a program (MAX_ARG_STRLEN). */
export const MAX_ARGUMENT_BYTES = 131_071;

/**
 * Most bytes of one step's arguments and environment entries together: the system's limit
 * (ARG_MAX, 2 MiB on Linux) also counts the environment loopgate passes on.
 */
export const MAX_STEP_ARGUMENT_BYTES = 1_048_576;

/** Largest `output_limit_bytes`: the captured output is held in memory and journaled. */
export const MAX_OUTPUT_LIMIT_BYTES = 64 * 1024 * 1024;

const NO_NUL = "expected no NUL byte (a program cannot receive one)";
const NOT_TOO_LONG = `expected at most ${MAX_ARGUMENT_BYTES} bytes (the system's limit on one argument)`;

const utf8 = new TextEncoder();

const hasNoNul = (value: string) => !value.includes("\u0000");

/** A UTF-16 code unit is 1 to 3 UTF-8 bytes: most strings are judged without being encoded. */
const fitsOneArgument = (value: string) =>
  value.length * 3 <= MAX_ARGUMENT_BYTES ||
  (value.length <= MAX_ARGUMENT_BYTES && utf8.encode(value).length <= MAX_ARGUMENT_BYTES);

/** Why a program cannot receive this string as an argument or a variable, if it cannot. */
function argumentProblem(value: string): string | undefined {
  if (!hasNoNul(value)) return NO_NUL;
  return fitsOneArgument(value) ? undefined : NOT_TOO_LONG;
}

/** A string a program can receive: no NUL byte (it would end the string there) and not too long. */
const argument = v.pipe(text, v.check(hasNoNul, NO_NUL), v.check(fitsOneArgument, NOT_TOO_LONG));

const notBlank = (value: string) => value.trim() !== "";

/**
 * A schema that picks its form from the input's shape, so an error is reported inside the form
 * the user wrote (a union would only say "none matched"). `forms` lists every form, for the JSON
 * Schema (json-schema-of.ts).
 */
function byShape(
  pick: (input: unknown) => v.GenericSchema,
  forms: readonly v.GenericSchema[],
): v.GenericSchema {
  return Object.assign(v.lazy(pick), { forms });
}

/** A number in argv, passed as JavaScript writes it (`1`, `0.5`, `1e+21`). */
const numberArgument = v.pipe(finiteNumber, v.transform(String));

/**
 * One argument of an argv list. A number is its text (`[sleep, 1]` runs `sleep 1`): YAML reads
 * `1` as a number, but a program only ever receives strings. A boolean is refused rather than
 * turned into a word: `[true]` reads as a boolean in YAML, and `true`, `True` and `TRUE` all do,
 * so which word the user typed is lost.
 */
const argvItem = byShape(
  (input) =>
    typeof input === "number"
      ? numberArgument
      : typeof input === "boolean"
        ? v.custom<never>(
            () => false,
            `expected a string, not a boolean: YAML reads unquoted true and false as booleans; quote it ("${String(input)}") to pass the word`,
          )
        : text,
  [text, numberArgument],
);

/** An argv array, run as is: the program and its arguments. */
const argv = v.pipe(
  // The arguments' limits are checked after decoding (checkStepLimits), with their paths.
  v.array(argvItem as v.GenericSchema<unknown, string>, "expected a list of arguments"),
  v.minLength(1, "expected a non-empty list"),
  v.forward(
    v.check((items) => notBlank(items[0] ?? ""), "expected a program to run"),
    [0],
  ),
  v.description("argv: the program and its arguments, run without a shell"),
);

/** A shell command line the user wrote, run by `sh -c`. */
const shellLine = v.pipe(
  v.string("expected a list of arguments or a shell command string"),
  v.nonEmpty("expected a list of arguments or a shell command string"),
  argument,
  v.check(notBlank, "expected a shell command line with something to run"),
  v.description("a shell command line, run with sh -c"),
);

/** A command: an argv array run as is, or a shell string the user wrote, run by `sh -c`. */
const command = byShape((input) => (Array.isArray(input) ? argv : shellLine), [argv, shellLine]);

// Variables are names a shell can export; LOOPGATE_ ones are the step protocol's and reserved.
const ENV_NAME = /^[a-z_]\w*$/i;

/** A timer's length in ms, from `min` to the longest Node can set. */
function timerMs(min: number) {
  return v.pipe(
    integerAtLeast(min),
    v.maxValue(
      MAX_TIMER_MS,
      `expected at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest timer)`,
    ),
  );
}

const stepEntries = {
  command,
  cwd: v.optional(
    v.pipe(name, argument, v.description("working directory, relative to the task file")),
  ),
  env: v.optional(
    v.record(v.string(), argument, "expected a mapping of variable names to strings"),
  ),
  timeout_ms: v.optional(v.pipe(timerMs(1), v.description("default 3600000 (1 hour)"))),
};

/**
 * A step written as its command alone (`generate: [claude, -p]`, `test: make check`) is the
 * step with that command and every other field at its default.
 */
function stepForm(full: v.GenericSchema): v.GenericSchema {
  const short = v.pipe(
    command,
    v.transform((given) => ({ command: given })),
  );
  return byShape(
    (input) => (Array.isArray(input) || typeof input === "string" ? short : full),
    [full, command],
  );
}

const step = stepForm(
  mapping(stepEntries, "expected a mapping with command, cwd, env, timeout_ms, or a command"),
);

/** Most `reports` patterns of a test step. */
export const MAX_REPORT_PATTERNS = 32;

/** A file or glob pattern, relative to the step's directory: where the runner writes a report. */
const reportPattern = v.pipe(
  name,
  argument,
  v.check(notBlank, "expected a file or glob pattern"),
  v.description("a report file or glob (reports/*.xml), relative to the step's cwd"),
);

// The generate step may name an agent instead of a command (resolveGenerate checks which).
const generateStep = stepForm(
  mapping(
    { ...stepEntries, command: v.optional(command), ...agentEntries },
    "expected a mapping with command or agent, cwd, env, timeout_ms, or a command",
  ),
);

// Only a test step has reports: its runner writes them; a report of a generate or review step
// would have no reader.
const testStep = stepForm(
  mapping(
    {
      ...stepEntries,
      reports: v.optional(
        v.pipe(
          list(reportPattern),
          v.maxLength(MAX_REPORT_PATTERNS, `expected at most ${MAX_REPORT_PATTERNS} patterns`),
        ),
      ),
    },
    "expected a mapping with command, cwd, env, timeout_ms, reports, or a command",
  ),
);

const steps = mapping(
  { generate: generateStep, test: v.optional(testStep), review: v.optional(step) },
  "expected a mapping with generate, test, review",
);

const stepOverrides = mapping(
  { generate: v.optional(generateStep), test: v.optional(testStep), review: v.optional(step) },
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
  { max_polls: v.optional(integerAtLeast(0)), interval_ms: v.optional(timerMs(0)) },
  "expected a mapping with max_polls, interval_ms",
);

/** Most delivery attempts of a webhook beyond the first. */
export const MAX_NOTIFY_RETRIES = 10;

/** An http(s) URL to POST a notification to. */
const webhookUrl = v.pipe(
  name,
  v.check(
    (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
    "expected an http:// or https:// URL",
  ),
  v.description("POSTed the notification as JSON"),
);

/** Who is told when a task pauses for a human (`on_pause`) or the run finishes (`on_finish`). */
const notification = v.pipe(
  mapping(
    {
      command: v.optional(command),
      webhook: v.optional(webhookUrl),
      timeout_ms: v.optional(
        v.pipe(timerMs(1), v.description("per delivery attempt, default 10000")),
      ),
      retries: v.optional(
        v.pipe(
          integerAtLeast(0),
          v.maxValue(MAX_NOTIFY_RETRIES, `expected at most ${MAX_NOTIFY_RETRIES}`),
          v.description("webhook attempts after the first, default 2"),
        ),
      ),
    },
    "expected a mapping with command, webhook, timeout_ms, retries",
  ),
  v.check(
    (entry) => entry.command !== undefined || entry.webhook !== undefined,
    "expected a command, a webhook or both",
  ),
);

/** Settings a task may override, field by field. */
const settingsEntries = {
  iteration_control: v.optional(iterationControl),
  stop_conditions: v.optional(stopConditions),
  on_answer: v.optional(onAnswer),
  review_wait: v.optional(reviewWait),
  workspace: v.optional(workspaceSchema),
};

// Task ids name files and directories of the run, so they stay portable, and they are operands
// of `loopgate answer`, `history` and `explain`, so none reads as an option.
const taskId = v.pipe(
  name,
  v.maxLength(MAX_TASK_ID_LENGTH, `expected at most ${MAX_TASK_ID_LENGTH} characters`),
  v.regex(/^[\w.-]+$/, "expected letters, digits, '.', '_' or '-'"),
  v.check((id) => !id.startsWith("-"), "expected a task id that does not start with '-'"),
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
      v.pipe(
        integerAtLeast(1024),
        v.maxValue(MAX_OUTPUT_LIMIT_BYTES, `expected at most ${MAX_OUTPUT_LIMIT_BYTES} (64 MiB)`),
        v.description("captured output kept per step, default 1 MiB"),
      ),
    ),
    on_pause: v.optional(notification),
    on_finish: v.optional(notification),
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
  /** Test step only: the machine-readable reports its runner writes, as files or globs. */
  readonly reports?: readonly string[];
  /** Generate step only: the agent whose command loopgate built and whose output it reads. */
  readonly agent?: AgentSpec;
  /** Generate step only: where the step's printed JSON holds its cost and tokens. */
  readonly report?: JsonReportSpec;
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
  /** Where the task's steps run (docs/workspaces.md); none: the task file's directory. */
  readonly workspace?: WorkspaceSpec;
}

/** One entry of `tasks`. */
export interface TaskEntry extends Settings {
  readonly id: string;
  readonly prompt: string;
  readonly steps?: Partial<StepSpecs>;
}

/** A notification as the task file gives it: a command, a webhook, or both. */
export interface NotificationSpec {
  readonly command?: readonly string[] | string;
  readonly webhook?: string;
  readonly timeoutMs?: number;
  readonly retries?: number;
}

/** A validated task file, camelCased. */
export interface TaskFile extends Settings {
  readonly outputLimitBytes?: number;
  /** Told when a task pauses for a human. */
  readonly onPause?: NotificationSpec;
  /** Told when the run finishes. */
  readonly onFinish?: NotificationSpec;
  readonly steps: StepSpecs;
  readonly tasks: readonly TaskEntry[];
}

/**
 * Refuses variable names a shell cannot export and the step protocol's own, entries longer than
 * a program can receive, and a step whose arguments and environment pass the system's limit.
 */
function checkStepLimits(spec: StepSpec | undefined, path: string): void {
  if (spec === undefined) return;
  const argv = typeof spec.command === "string" ? ["sh", "-c", spec.command] : spec.command;
  if (typeof spec.command !== "string") {
    for (const [index, item] of spec.command.entries()) {
      const problem = argumentProblem(item);
      if (problem !== undefined)
        throw new InputError(`${path}.command[${index}]`, `${problem}, got ${describeValue(item)}`);
    }
  }
  let total = argv.reduce((sum, item) => sum + utf8.encode(item).length + 1, 0);
  for (const [key, value] of Object.entries(spec.env ?? {})) {
    const entry = utf8.encode(`${key}=${value}`).length;
    total += entry + 1;
    const problem = !ENV_NAME.test(key)
      ? "is not an environment variable name"
      : key.startsWith("LOOPGATE_")
        ? "is reserved for loopgate (the step protocol sets it)"
        : entry > MAX_ARGUMENT_BYTES
          ? `with its value is ${entry} bytes, over ${MAX_ARGUMENT_BYTES} (the system's limit on one entry)`
          : undefined;
    if (problem !== undefined)
      throw new InputError(`${path}.env`, `${JSON.stringify(key.slice(0, 60))} ${problem}`);
  }
  if (total > MAX_STEP_ARGUMENT_BYTES) {
    throw new InputError(
      path,
      `the command and env take ${total} bytes, over ${MAX_STEP_ARGUMENT_BYTES} (the system limits a program's arguments and environment)`,
    );
  }
}

/** Validates a parsed task file strictly: unknown keys, wrong types and duplicate task ids are errors. */
export function decodeTaskFile(document: unknown): TaskFile {
  const file = withAgentCommands(decodeDocument(taskFileSchema, document) as TaskFile);
  for (const name of ["generate", "test", "review"] as const) {
    checkStepLimits(file.steps[name], `steps.${name}`);
    for (const [index, entry] of file.tasks.entries()) {
      checkStepLimits(entry.steps?.[name], `tasks[${index}].steps.${name}`);
    }
  }
  for (const [path, spec] of [
    ["on_pause", file.onPause],
    ["on_finish", file.onFinish],
  ] as const) {
    if (spec?.command !== undefined) checkStepLimits({ command: spec.command }, path);
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

/** The file with every generate step's agent resolved into the command it runs. */
function withAgentCommands(file: TaskFile): TaskFile {
  const resolve = (decoded: StepSpec, path: string): StepSpec => {
    // As decoded, `agent` is the agent's name and its settings are fields of the step.
    const { agent, args, model, resume, prices, report, command, ...spec } =
      decoded as unknown as DecodedGenerate & Omit<StepSpec, keyof DecodedGenerate>;
    return {
      ...spec,
      ...resolveGenerate({ agent, args, model, resume, prices, report, command }, path),
    };
  };
  return {
    ...file,
    steps: { ...file.steps, generate: resolve(file.steps.generate, "steps.generate") },
    tasks: file.tasks.map((entry, index) => {
      const generate = entry.steps?.generate;
      return generate === undefined
        ? entry
        : {
            ...entry,
            steps: {
              ...entry.steps,
              generate: resolve(generate, `tasks[${index}].steps.generate`),
            },
          };
    }),
  };
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

/**
 * Schema pieces the Stop-hook config (src/hook/hook-config.ts) shares with the task file, so
 * both read a step, a setting and a limit the same way.
 */
export const taskFileParts = {
  step,
  testStep,
  settingsEntries,
  checkStepLimits,
};
