import fc from "fast-check";
import { format, resolveConfig } from "prettier";
import { describe, expect, it } from "vitest";
import { jsonSchemaOf } from "../wire/json-schema-of.js";
import { MAX_TASK_ID_LENGTH } from "../wire/task-file.js";
import { agentBlockCap, decodeHookConfig, hookConfigSchema } from "./hook-config.js";
import { sessionTaskId } from "./hook-session.js";
import { decodeStopHookInput } from "./stop-hook-input.js";

const test = { command: "npm test" };

describe("decodeHookConfig", () => {
  it("takes the agent's cap unless the config sets a lower one", () => {
    expect(decodeHookConfig({ steps: { test } }, 8).blockCap).toBe(8);
    expect(decodeHookConfig({ steps: { test }, block_cap: 3 }, 8).blockCap).toBe(3);
    expect(decodeHookConfig({ steps: { test }, block_cap: 30 }, null).blockCap).toBe(30);
    expect(decodeHookConfig({ steps: { test } }, null).blockCap).toBeNull();
    expect(() => decodeHookConfig({ steps: { test }, block_cap: 9 }, 8)).toThrow(
      /^block_cap: 9 is above the agent's own cap of 8/,
    );
  });

  it("refuses attempts the cap cannot carry, before and after an answer", () => {
    const attempts = (n: number, extra?: number) => ({
      steps: { test },
      iteration_control: { max_iterations: n },
      ...(extra === undefined ? {} : { on_answer: { extra_iterations: extra } }),
    });
    expect(decodeHookConfig(attempts(3), 2).blockCap).toBe(2);
    expect(() => decodeHookConfig(attempts(4), 2)).toThrow(/^iteration_control.max_iterations: 4/);
    expect(() => decodeHookConfig(attempts(3, 3), 2)).toThrow(/^on_answer.extra_iterations: 3/);
    expect(decodeHookConfig(attempts(40, 40), null).iterationControl?.maxIterations).toBe(40);
  });

  it("is as strict as the task file, and wants a check to run", () => {
    expect(() => decodeHookConfig({ steps: {} }, 8)).toThrow(/^steps: expected a test or a review/);
    expect(() => decodeHookConfig({ steps: { generate: test } }, 8)).toThrow(
      /unknown key "generate"/,
    );
    expect(() => decodeHookConfig({ steps: { test }, block_cap: "3" }, 8)).toThrow(/^block_cap:/);
    expect(() =>
      decodeHookConfig({ steps: { test: { ...test, env: { LOOPGATE_X: "1" } } } }, 8),
    ).toThrow(/^steps.test.env: "LOOPGATE_X" is reserved/);
  });
});

describe("agentBlockCap", () => {
  it("reads Claude Code's variable: unset is 8, 0 is none, anything else is refused", () => {
    expect(agentBlockCap({})).toBe(8);
    expect(agentBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "" })).toBe(8);
    expect(agentBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "50" })).toBe(50);
    expect(agentBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "0" })).toBeNull();
    for (const bad of ["-1", "8.5", "eight", " 8"]) {
      expect(() => agentBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: bad })).toThrow(
        /^CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: expected a whole number/,
      );
    }
  });
});

describe("decodeStopHookInput", () => {
  const claude = {
    session_id: "abc",
    transcript_path: "/home/u/.claude/projects/p/abc.jsonl",
    cwd: "/work/p",
    hook_event_name: "Stop",
    stop_hook_active: true,
    last_assistant_message: "Done.",
  };

  it("reads Claude Code's and Codex's Stop input, leaving fields it does not use alone", () => {
    expect(decodeStopHookInput(claude)).toEqual({
      sessionId: "abc",
      cwd: "/work/p",
      hookEventName: "Stop",
      stopHookActive: true,
      transcriptPath: "/home/u/.claude/projects/p/abc.jsonl",
      lastAssistantMessage: "Done.",
    });
    // Codex: nullable transcript and message, and fields of its own.
    const codex = {
      ...claude,
      transcript_path: null,
      last_assistant_message: null,
      model: "gpt-5",
      permission_mode: "default",
      turn_id: "t1",
    };
    expect(decodeStopHookInput(codex)).toMatchObject({
      transcriptPath: null,
      lastAssistantMessage: null,
    });
    const { stop_hook_active, ...older } = claude;
    expect(stop_hook_active).toBe(true);
    expect(decodeStopHookInput(older).stopHookActive).toBe(false);
  });

  it("names the field that is wrong", () => {
    expect(() => decodeStopHookInput({ ...claude, cwd: "relative" })).toThrow(
      /^cwd: expected an absolute path/,
    );
    expect(() => decodeStopHookInput({ ...claude, hook_event_name: "SubagentStop" })).toThrow(
      /^hook_event_name: expected "Stop"/,
    );
    expect(() => decodeStopHookInput({ ...claude, stop_hook_active: "yes" })).toThrow(
      /^stop_hook_active:/,
    );
    expect(() => decodeStopHookInput([claude])).toThrow(/expected the Stop hook's JSON object/);
  });
});

describe("sessionTaskId", () => {
  it("is the session id when that is a task id, and a valid task id always", () => {
    expect(sessionTaskId("3f0c2d9e-1b7a-4c55")).toBe("3f0c2d9e-1b7a-4c55");
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 300 }), (id) => {
        const task = sessionTaskId(id);
        expect(task).toMatch(/^[\w.-]+$/);
        expect(task.length).toBeLessThanOrEqual(MAX_TASK_ID_LENGTH);
        expect(task.startsWith("-") || task === "." || task === "..").toBe(false);
      }),
    );
  });
});

describe("hook config JSON Schema", () => {
  it("is generated from the validator and shipped as schema/hook-config.schema.json", async () => {
    const file = "../../schema/hook-config.schema.json";
    const schema = jsonSchemaOf(hookConfigSchema, "loopgate hook stop config") as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual([
      "$schema",
      "iteration_control",
      "stop_conditions",
      "on_answer",
      "review_wait",
      "block_cap",
      "steps",
    ]);
    expect(Object.keys(schema.properties.steps?.properties ?? {})).toEqual(["test", "review"]);
    expect(schema.required).toEqual(["steps"]);
    // Formatted as the repository's prettier would, so `prettier --check` and the snapshot agree.
    const options = await resolveConfig(new URL(file, import.meta.url));
    const text = await format(JSON.stringify(schema), { ...options, parser: "json" });
    await expect(text).toMatchFileSnapshot(file);
  });
});
