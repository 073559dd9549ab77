import { describe, expect, it } from "vitest";
import { format, resolveConfig } from "prettier";
import { parse } from "yaml";
import { jsonSchemaOf } from "./json-schema-of.js";
import { decodeTaskFile, planOf, stepsOf, taskFileSchema } from "./task-file.js";

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
      "output_limit_bytes",
      "steps",
      "tasks",
    ]);
    expect(schema.required).toEqual(["steps", "tasks"]);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties.stop_conditions?.properties ?? {})).toEqual([
      "budget_cap",
      "stop_score",
      "no_progress",
      "time_limit_ms",
    ]);
  });
});
