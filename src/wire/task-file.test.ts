import { describe, expect, it } from "vitest";
import { format, resolveConfig } from "prettier";
import { parse } from "yaml";
import { jsonSchemaOf } from "./json-schema-of.js";
import {
  decodeTaskFile,
  MAX_ARGUMENT_BYTES,
  MAX_TASK_ID_LENGTH,
  MAX_TIMER_MS,
  planOf,
  stepsOf,
  taskFileSchema,
} from "./task-file.js";

const minimal = {
  steps: { generate: { command: ["node", "agent.mjs"] } },
  tasks: [{ id: "t1", prompt: "write login()" }],
};

const decode = (document: unknown) => () => decodeTaskFile(document);

describe("decodeTaskFile", () => {
  it("resolves each task's settings: task over file over defaults, field by field", () => {
    const file = decodeTaskFile(
      parse(`
iteration_control: {max_iterations: 5, feedback_max_length: 300}
stop_conditions: {budget_cap: 2}
on_answer: {extra_iterations: 1}
review_wait: {max_polls: 3}
steps:
  generate: {command: "claude -p \\"$(cat $LOOPGATE_PROMPT_FILE)\\"", env: {API_2: x}}
  test: {command: [npm, test], cwd: app, timeout_ms: 60000}
tasks:
  - id: task-003
    prompt: Add login
    iteration_control: {max_iterations: 3}
    on_answer: {extra_budget: 1.5}
    steps: {review: {command: [node, review.mjs]}}
`),
    );
    const [task] = planOf(file).tasks;
    expect(task).toEqual({
      id: "task-003",
      prompt: "Add login",
      iterationControl: {
        maxIterations: 3,
        autoRetryOnTestFail: true,
        autoRetryOnReviewReject: true,
        escalationIncludesDiff: true,
        feedbackMaxLength: 300,
      },
      stopConditions: { budgetCap: 2 },
      onAnswer: { extraIterations: 1, extraBudget: 1.5, extraTimeMs: 0 },
      reviewWait: { maxPolls: 3, intervalMs: 30_000 },
      hasTest: true,
      hasReview: true,
    });
    const entry = file.tasks[0];
    if (entry === undefined) throw new Error("no task");
    // Environment names are data: the codec keeps them as written.
    expect(stepsOf(file, entry).generate.env).toEqual({ API_2: "x" });
    expect(stepsOf(file, entry).test?.timeoutMs).toBe(60_000);
  });

  it("names the misspelled key and suggests the right one", () => {
    expect(decode({ ...minimal, stop_conditions: { budget_capp: 1 } })).toThrow(
      'stop_conditions: unknown key "budget_capp" (did you mean "budget_cap"?)',
    );
    expect(decode({ ...minimal, steps: { generate: { command: ["a"], timeout: 5 } } })).toThrow(
      'steps.generate: unknown key "timeout" (did you mean "timeout_ms"?)',
    );
  });

  it("refuses wrong types, empty commands, reserved variables and bad task ids", () => {
    expect(decode({ ...minimal, steps: { generate: { command: [] } } })).toThrow(
      "steps.generate.command",
    );
    expect(
      decode({ ...minimal, steps: { generate: { command: "x", env: { LOOPGATE_TASK_ID: "1" } } } }),
    ).toThrow(/steps\.generate\.env.*reserved/);
    expect(decode({ ...minimal, tasks: [{ id: "../x", prompt: "p" }] })).toThrow("tasks[0].id");
    expect(decode({ ...minimal, tasks: [] })).toThrow("tasks: expected at least one task");
    expect(decode({ ...minimal, on_answer: { extra_iterations: 0 } })).toThrow(
      "on_answer.extra_iterations: expected an integer >= 1, got 0 (a number)",
    );
    expect(decode({ ...minimal, iteration_control: { max_iterations: "3" } })).toThrow(
      'iteration_control.max_iterations: expected an integer >= 1, got "3" (a string)',
    );
  });

  it("takes a test step's reports, and refuses them on any other step or when blank", () => {
    const withReports = (steps: object) => ({ ...minimal, steps: { ...minimal.steps, ...steps } });
    const file = decodeTaskFile(
      withReports({ test: { command: "npm test", reports: ["reports/*.xml", "go.json"] } }),
    );
    expect(file.steps.test?.reports).toEqual(["reports/*.xml", "go.json"]);
    expect(decode(withReports({ review: { command: "x", reports: ["a.xml"] } }))).toThrow(
      /^steps\.review: unknown key "reports"/,
    );
    expect(decode(withReports({ test: { command: "x", reports: [" "] } }))).toThrow(
      /^steps\.test\.reports\[0\]: expected a file or glob pattern/,
    );
    expect(
      decode(withReports({ test: { command: "x", reports: Array(33).fill("a.xml") } })),
    ).toThrow(/^steps\.test\.reports: expected at most 32 patterns/);
  });

  it("refuses two tasks with the same id", () => {
    const twice = { ...minimal, tasks: [...minimal.tasks, ...minimal.tasks] };
    expect(decode(twice)).toThrow('tasks[1].id: duplicate task id "t1"');
  });

  it("treats a task without test or review steps as such", () => {
    const [task] = planOf(decodeTaskFile(minimal)).tasks;
    expect(task).toMatchObject({ hasTest: false, hasReview: false });
  });
});

describe("task file JSON Schema", () => {
  it("is generated from the validator and shipped as schema/task-file.schema.json", async () => {
    const file = "../../schema/task-file.schema.json";
    const schema = jsonSchemaOf(taskFileSchema, "loopgate task file");
    // Formatted as the repository's prettier would, so `prettier --check` and the snapshot agree.
    const options = await resolveConfig(new URL(file, import.meta.url));
    const text = await format(JSON.stringify(schema), { ...options, parser: "json" });
    await expect(text).toMatchFileSnapshot(file);
  });

  it("describes every key the validator knows, and no other", () => {
    const schema = jsonSchemaOf(taskFileSchema, "loopgate task file") as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(Object.keys(schema.properties)).toEqual([
      "$schema",
      "iteration_control",
      "stop_conditions",
      "on_answer",
      "review_wait",
      "workspace",
      "output_limit_bytes",
      "on_pause",
      "on_finish",
      "steps",
      "tasks",
    ]);
    expect(schema.required).toEqual(["steps", "tasks"]);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties.stop_conditions?.properties ?? {})).toEqual([
      "budget_cap",
      "predict_budget",
      "stop_score",
      "no_progress",
      "time_limit_ms",
    ]);
  });
});

describe("hostile task files are refused up front, naming the field", () => {
  const step = (fields: Record<string, unknown>) => ({
    ...minimal,
    steps: { generate: { command: ["node", "agent.mjs"], ...fields } },
  });
  const task = (fields: Record<string, unknown>) => ({
    ...minimal,
    tasks: [{ id: "t1", prompt: "p", ...fields }],
  });
  const big = "a".repeat(MAX_ARGUMENT_BYTES + 1);

  it.each([
    [
      "an empty program",
      step({ command: [""] }),
      "steps.generate.command[0]: expected a program to run",
    ],
    [
      "a blank program",
      step({ command: [" ", "x"] }),
      "steps.generate.command[0]: expected a program to run",
    ],
    ["an empty argv", step({ command: [] }), "steps.generate.command: expected a non-empty list"],
    [
      "an empty shell line",
      step({ command: "" }),
      "steps.generate.command: expected a list of arguments or a shell command string",
    ],
    [
      "a blank shell line",
      step({ command: " \t\n" }),
      "steps.generate.command: expected a shell command line",
    ],
    [
      "a NUL in the program",
      step({ command: ["no\u0000de"] }),
      "steps.generate.command[0]: expected no NUL byte",
    ],
    [
      "a NUL in an argument",
      step({ command: ["node", "-e\u0000x"] }),
      "steps.generate.command[1]: expected no NUL byte",
    ],
    [
      "a NUL in a shell line",
      step({ command: "echo \u0000" }),
      "steps.generate.command: expected no NUL byte",
    ],
    [
      "a NUL in an env value",
      step({ env: { A: "x\u0000y" } }),
      "steps.generate.env.A: expected no NUL byte",
    ],
    ["a NUL in cwd", step({ cwd: "a\u0000b" }), "steps.generate.cwd: expected no NUL byte"],
    [
      "an argument over the system's limit",
      step({ command: ["node", big] }),
      `steps.generate.command[1]: expected at most ${MAX_ARGUMENT_BYTES} bytes`,
    ],
    [
      "an env entry over the system's limit",
      step({ env: { A: big.slice(2) } }),
      'steps.generate.env: "A" with its value is 131072 bytes',
    ],
    [
      "arguments over the system's limit together",
      step({ command: ["node", ...Array(9).fill(big.slice(1))] }),
      "steps.generate: the command and env take",
    ],
    [
      "a timeout no timer can wait",
      step({ timeout_ms: 3_000_000_000 }),
      `steps.generate.timeout_ms: expected at most ${MAX_TIMER_MS} ms`,
    ],
    [
      "a poll interval no timer can wait",
      { ...minimal, review_wait: { interval_ms: MAX_TIMER_MS + 1 } },
      "review_wait.interval_ms: expected at most",
    ],
    [
      "an iteration cap too large to count with",
      { ...minimal, iteration_control: { max_iterations: 1e300 } },
      "iteration_control.max_iterations: expected an integer >= 1 and <= 9007199254740991",
    ],
    [
      "an output limit over 64 MiB",
      { ...minimal, output_limit_bytes: 2 ** 40 },
      "output_limit_bytes: expected at most 67108864 (64 MiB)",
    ],
    [
      "a task id longer than the limit",
      task({ id: "a".repeat(MAX_TASK_ID_LENGTH + 1) }),
      `tasks[0].id: expected at most ${MAX_TASK_ID_LENGTH} characters`,
    ],
    [
      "a task id that reads as an option",
      task({ id: "-h" }),
      "tasks[0].id: expected a task id that does not start with '-'",
    ],
    [
      "a task id with a path separator",
      task({ id: "a/b" }),
      "tasks[0].id: expected letters, digits",
    ],
    [
      "a task id with a control character",
      task({ id: "a\u001b]0;x" }),
      "tasks[0].id: expected letters, digits",
    ],
    [
      "a task id of dots",
      task({ id: ".." }),
      "tasks[0].id: expected a task id, not a directory name",
    ],
  ])("refuses %s", (_name, document, message) => {
    expect(decode(document)).toThrow(message);
  });

  it("keeps a task id of the longest length and a timeout of the longest timer", () => {
    const file = decodeTaskFile({
      steps: { generate: { command: ["node"], timeout_ms: MAX_TIMER_MS } },
      tasks: [{ id: "a".repeat(MAX_TASK_ID_LENGTH), prompt: "p" }],
    });
    expect(file.steps.generate.timeoutMs).toBe(MAX_TIMER_MS);
  });
});

describe("steps written naturally", () => {
  const file = (steps: string) =>
    decodeTaskFile(parse(`steps:\n${steps}\ntasks: [{id: t1, prompt: p}]`));

  it("takes a step written as its command alone: an argv list or a shell line", () => {
    const decoded = file(`  generate: [claude, -p]\n  test: make check\n  review: {command: [r]}`);
    expect(decoded.steps.generate).toEqual({ command: ["claude", "-p"] });
    expect(decoded.steps.test).toEqual({ command: "make check" });
    expect(decoded.steps.review).toEqual({ command: ["r"] });
    const overridden = decodeTaskFile(
      parse(`steps: {generate: [a]}\ntasks: [{id: t1, prompt: p, steps: {test: [pytest, -q]}}]`),
    );
    expect(overridden.tasks[0]?.steps?.test).toEqual({ command: ["pytest", "-q"] });
  });

  it("passes a number in argv as its text, in either form", () => {
    expect(file(`  generate: [sleep, 1]`).steps.generate.command).toEqual(["sleep", "1"]);
    expect(file(`  generate: {command: [sleep, 0.5, -3]}`).steps.generate.command).toEqual([
      "sleep",
      "0.5",
      "-3",
    ]);
  });

  it("refuses a boolean in argv, saying why and how to pass the word", () => {
    expect(() => file(`  generate: [true]`)).toThrow(
      'steps.generate[0]: expected a string, not a boolean: YAML reads unquoted true and false as booleans; quote it ("true") to pass the word, got true (a boolean)',
    );
    expect(() => file(`  generate: {command: [git, commit, false]}`)).toThrow(
      'steps.generate.command[2]: expected a string, not a boolean: YAML reads unquoted true and false as booleans; quote it ("false")',
    );
    expect(file(`  generate: ["true"]`).steps.generate.command).toEqual(["true"]);
  });

  it("refuses what is no command, in the form it was written", () => {
    expect(() => file(`  generate: []`)).toThrow("steps.generate: expected a non-empty list");
    expect(() => file(`  generate: 3`)).toThrow(
      "steps.generate: expected a mapping with command or agent, cwd, env, timeout_ms, or a command, got 3 (a number)",
    );
    expect(() => file(`  generate: [node, {a: 1}]`)).toThrow(
      "steps.generate[1]: expected a string, got a mapping",
    );
  });

  it.each(["cmd", "args", "argv", "run"])("suggests command for %s", (key) => {
    // A generate step's args are an agent's: without one they are a command misnamed.
    expect(() => file(`  generate: {${key}: [a]}`)).toThrow(
      key === "args"
        ? 'steps.generate.args: args needs an agent (claude-code, codex, aider) (did you mean "command"?)'
        : `steps.generate: unknown key "${key}" (did you mean "command"?)`,
    );
    expect(() => file(`  generate: [a]\n  test: {${key}: [a], reports: [x.xml]}`)).toThrow(
      `steps.test: unknown key "${key}" (did you mean "command"?)`,
    );
  });

  it("still suggests cwd for a misspelled cwd", () => {
    expect(() => file(`  generate: {command: [a], cdw: .}`)).toThrow('(did you mean "cwd"?)');
  });
});
