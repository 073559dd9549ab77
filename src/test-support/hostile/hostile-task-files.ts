import fc from "fast-check";
import {
  MAX_ARGUMENT_BYTES,
  MAX_OUTPUT_LIMIT_BYTES,
  MAX_TASK_ID_LENGTH,
  MAX_TIMER_MS,
} from "../../wire/task-file.js";

type Doc = Record<string, unknown>;

/** A task file that breaks one rule, and the field its refusal must name. */
export interface HostileTaskFile {
  readonly kind: string;
  readonly document: Doc;
  /** The field path the one error line starts with, e.g. `tasks[0].id`. */
  readonly field: string;
}

/** Where a step may be written: the file's steps, or a task's overrides. */
const STEP_PLACES = [
  { path: ["steps", "generate"], field: "steps.generate" },
  { path: ["steps", "test"], field: "steps.test" },
  { path: ["tasks", 0, "steps", "review"], field: "tasks[0].steps.review" },
] as const;

/** A valid task file with every step, for a mutation to break. */
function baseFile(): Doc {
  return {
    steps: {
      generate: { command: ["node", "-e", "0"], env: { MODEL: "x" }, timeout_ms: 60_000 },
      test: { command: "exit 0", cwd: "." },
      review: { command: ["node", "-e", "0"] },
    },
    tasks: [
      { id: "task-1", prompt: "p", steps: { review: { command: ["node", "-e", "0"] } } },
      { id: "task-2", prompt: "q" },
    ],
  };
}

/** The file with `value` set at `path` (a fresh copy: the base is never shared). */
function withValue(path: readonly (string | number)[], value: unknown): Doc {
  const root = baseFile();
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1) ?? ""] = value;
  return root;
}

const place = fc.constantFrom(...STEP_PLACES);

/** Text with a NUL byte somewhere in it. */
const withNul = fc
  .tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }))
  .map(([before, after]) => `${before}\u0000${after}`);

/** A character a task id may not hold: separators, spaces, C0 and C1 controls, quotes, … */
const badIdCharacter = fc.constantFrom(
  "/",
  "\\",
  " ",
  "\u0000",
  "\u001b",
  "\n",
  "\r",
  "\t",
  "\u007f",
  "\u009b",
  ":",
  "*",
  '"',
  "'",
  "$",
  "é",
  "\u202e",
);

const idCharacter = fc.constantFrom(..."abcXYZ019._-");

const kinds: fc.Arbitrary<HostileTaskFile>[] = [
  place.chain(({ path, field }) =>
    fc.constantFrom("", " ", "\t", "  \n").map((program) => ({
      kind: "empty program",
      document: withValue([...path, "command"], [program, "x"]),
      field: `${field}.command[0]`,
    })),
  ),
  place.map(({ path, field }) => ({
    kind: "empty argv",
    document: withValue([...path, "command"], []),
    field: `${field}.command`,
  })),
  place.chain(({ path, field }) =>
    fc.constantFrom("", " ", "\n\t ").map((line) => ({
      kind: "blank shell line",
      document: withValue([...path, "command"], line),
      field: `${field}.command`,
    })),
  ),
  place.chain(({ path, field }) =>
    fc.tuple(withNul, fc.nat({ max: 3 })).map(([bad, index]) => {
      const argv = ["node", "-e", "0", "x"];
      argv[index] = bad;
      return {
        kind: "NUL in argv",
        document: withValue([...path, "command"], argv),
        field: `${field}.command[${index}]`,
      };
    }),
  ),
  place.chain(({ path, field }) =>
    withNul.map((bad) => ({
      kind: "NUL in a shell line",
      document: withValue([...path, "command"], `echo ${bad}`),
      field: `${field}.command`,
    })),
  ),
  place.chain(({ path, field }) =>
    withNul.map((bad) => ({
      kind: "NUL in an env value",
      document: withValue([...path, "env"], { OK: "1", BAD: bad }),
      field: `${field}.env.BAD`,
    })),
  ),
  place.chain(({ path, field }) =>
    fc.constantFrom("1A", "A-B", "A=B", "A\u0000", "", " A", "LOOPGATE_STEP", "é").map((name) => ({
      kind: "bad env name",
      document: withValue([...path, "env"], { [name]: "x" }),
      field: `${field}.env`,
    })),
  ),
  place.chain(({ path, field }) =>
    withNul.map((bad) => ({
      kind: "NUL in cwd",
      document: withValue([...path, "cwd"], `a${bad}`),
      field: `${field}.cwd`,
    })),
  ),
  place.chain(({ path, field }) =>
    fc.integer({ min: 1, max: 64 }).map((extra) => ({
      kind: "argument over the system's limit",
      document: withValue([...path, "command"], ["node", "a".repeat(MAX_ARGUMENT_BYTES + extra)]),
      field: `${field}.command[1]`,
    })),
  ),
  place.chain(({ path, field }) =>
    fc
      .oneof(
        fc.integer({ min: MAX_TIMER_MS + 1, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom(0, -1, 1.5, 1e300, Number.MAX_SAFE_INTEGER + 2),
      )
      .map((timeout) => ({
        kind: "timeout no timer can wait",
        document: withValue([...path, "timeout_ms"], timeout),
        field: `${field}.timeout_ms`,
      })),
  ),
  fc.integer({ min: MAX_TIMER_MS + 1, max: Number.MAX_SAFE_INTEGER }).map((interval) => ({
    kind: "poll interval no timer can wait",
    document: { ...baseFile(), review_wait: { interval_ms: interval } },
    field: "review_wait.interval_ms",
  })),
  fc
    .oneof(
      fc.integer({ min: MAX_OUTPUT_LIMIT_BYTES + 1, max: Number.MAX_SAFE_INTEGER }),
      fc.integer({ min: -10, max: 1023 }),
    )
    .map((limit) => ({
      kind: "output limit out of range",
      document: { ...baseFile(), output_limit_bytes: limit },
      field: "output_limit_bytes",
    })),
  fc.constantFrom(1e16, 2 ** 60, 1e300).map((count) => ({
    kind: "count too large to count with",
    document: { ...baseFile(), iteration_control: { max_iterations: count } },
    field: "iteration_control.max_iterations",
  })),
  fc
    .array(idCharacter, { minLength: MAX_TASK_ID_LENGTH + 1, maxLength: MAX_TASK_ID_LENGTH + 200 })
    .map((characters) => ({
      kind: "task id too long",
      document: withValue(["tasks", 1, "id"], characters.join("")),
      field: "tasks[1].id",
    })),
  fc.array(idCharacter, { maxLength: 20 }).map((characters) => ({
    kind: "task id that reads as an option",
    document: withValue(["tasks", 0, "id"], `-${characters.join("")}`),
    field: "tasks[0].id",
  })),
  fc
    .tuple(fc.array(idCharacter, { maxLength: 10 }), badIdCharacter, fc.array(idCharacter))
    .map(([before, bad, after]) => ({
      kind: "task id with a character no file name should hold",
      document: withValue(["tasks", 1, "id"], `${before.join("")}${bad}${after.join("")}`),
      field: "tasks[1].id",
    })),
  fc.constantFrom(".", "..", "").map((id) => ({
    kind: "task id that is no name",
    document: withValue(["tasks", 0, "id"], id),
    field: "tasks[0].id",
  })),
];

/** Task files that break one rule each, every rule the decoder enforces for a step or a task. */
export const hostileTaskFile: fc.Arbitrary<HostileTaskFile> = fc.oneof(...kinds);

/** The valid file the hostile ones are made from. */
export const validTaskFile: () => Doc = baseFile;
