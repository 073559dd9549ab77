import { describe, expect, it } from "vitest";
import type { AgentSpec } from "../../wire/agent-step.js";
import { aider } from "./aider.js";
import { claudeCode } from "./claude-code.js";
import { codex, tokenCost } from "./codex.js";
import { readJsonReport } from "./json-report.js";

const claudeSpec: AgentSpec = { name: "claude-code", resume: false };
const room = { iterationsLeft: 2, budgetLeft: 0.6, timeLeftMs: null };
const context = { spec: claudeSpec, messageFile: "/m.md", sessionId: undefined, headroom: room };

// Outputs in the shapes the agents document (see docs/runner.md for the versions).
const claudeResult = (fields: Record<string, unknown>) =>
  JSON.stringify({
    type: "result",
    subtype: "success",
    is_error: false,
    num_turns: 4,
    session_id: "0b6c-session",
    total_cost_usd: 0.0421,
    usage: {
      input_tokens: 120,
      cache_creation_input_tokens: 30,
      cache_read_input_tokens: 50,
      output_tokens: 200,
    },
    result: "Done.",
    ...fields,
  });

describe("claude-code adapter", () => {
  it("reads total_cost_usd as spend, and the usage, turns, session and subtype", () => {
    const reading = claudeCode.read(`${claudeResult({})}\n`, claudeSpec);
    expect(reading).toEqual({
      spend: 0.0421,
      tokens: 400,
      run: {
        name: "claude-code",
        sessionId: "0b6c-session",
        turns: 4,
        stopReason: "success",
        limited: false,
      },
      notes: [],
    });
  });

  it("reads the result object last of stream-json's lines", () => {
    const stream = [
      JSON.stringify({ type: "system", subtype: "init", session_id: "s" }),
      JSON.stringify({ type: "assistant", message: { content: [] } }),
      claudeResult({ total_cost_usd: 1.5 }),
    ].join("\n");
    expect(claudeCode.read(stream, claudeSpec).spend).toBe(1.5);
  });

  it("reports its own limits as limits", () => {
    for (const subtype of ["error_max_turns", "error_max_budget_usd"]) {
      const reading = claudeCode.read(claudeResult({ subtype, is_error: true }), claudeSpec);
      expect(reading.run).toMatchObject({ stopReason: subtype, limited: true });
    }
    const failed = claudeCode.read(claudeResult({ subtype: "error_during_execution" }), claudeSpec);
    expect(failed.run).toMatchObject({ stopReason: "error_during_execution", limited: false });
  });

  it("says so when it printed no result, and counts nothing", () => {
    const reading = claudeCode.read("Error: not logged in\n", claudeSpec);
    expect(reading.spend).toBe(0);
    expect(reading.notes[0]).toContain("printed no result object");
  });

  it("passes the budget left as --max-budget-usd and the session to resume", () => {
    expect(claudeCode.argsFor(context)).toEqual(["--max-budget-usd", "0.6"]);
    expect(
      claudeCode.argsFor({
        ...context,
        sessionId: "abc",
        headroom: { ...room, budgetLeft: null },
      }),
    ).toEqual(["--resume", "abc"]);
  });
});

const codexSpec: AgentSpec = {
  name: "codex",
  resume: true,
  model: "gpt-5",
  prices: { "gpt-5": { input: 1.25, cached: 0.125, output: 10 } },
};

const codexRun = [
  { type: "thread.started", thread_id: "0199a213-81c0-7800-8aa1-bbab2a035a53" },
  { type: "turn.started" },
  { type: "item.completed", item: { id: "item_0", type: "agent_message", text: "Done" } },
  {
    type: "turn.completed",
    usage: { input_tokens: 24_763, cached_input_tokens: 24_448, output_tokens: 122 },
  },
]
  .map((event) => JSON.stringify(event))
  .join("\n");

describe("codex adapter", () => {
  it("prices the turns' tokens per million, cached input at its own price", () => {
    const reading = codex.read(codexRun, codexSpec);
    // (24,763 − 24,448) × 1.25 + 24,448 × 0.125 + 122 × 10, per million tokens.
    expect(reading.spend).toBeCloseTo((315 * 1.25 + 24_448 * 0.125 + 122 * 10) / 1e6, 12);
    expect(reading.tokens).toBe(24_885);
    expect(reading.run).toEqual({
      name: "codex",
      sessionId: "0199a213-81c0-7800-8aa1-bbab2a035a53",
      turns: 1,
      limited: false,
    });
    expect(reading.notes).toEqual([]);
  });

  it("counts no spend without a price, and says so", () => {
    const reading = codex.read(codexRun, { name: "codex", resume: false });
    expect(reading.spend).toBe(0);
    expect(reading.tokens).toBe(24_885);
    expect(reading.notes).toEqual([
      "[loopgate] codex reports tokens, not a cost, and no model is set: 24885 tokens counted, spend 0",
    ]);
  });

  it("reports a failed turn as the agent's own stop", () => {
    const failed = `${codexRun}\n${JSON.stringify({ type: "turn.failed", error: { message: "usage limit reached" } })}`;
    expect(codex.read(failed, codexSpec).run).toMatchObject({
      stopReason: "turn.failed: usage limit reached",
      limited: true,
      turns: 2,
    });
  });

  it("reads the message from stdin, resuming the thread with exec resume", () => {
    const base = { spec: codexSpec, messageFile: "/m.md", headroom: room };
    expect(codex.argsFor({ ...base, sessionId: undefined })).toEqual(["-"]);
    expect(codex.argsFor({ ...base, sessionId: "t-1" })).toEqual(["resume", "t-1", "-"]);
  });

  it("never prices cached tokens above the input they are part of", () => {
    expect(tokenCost({ input: 10, cached: 50, output: 0 }, { input: 1e6, output: 0 })).toBe(10);
  });
});

describe("aider adapter", () => {
  const spec: AgentSpec = { name: "aider", resume: false };

  it("reads the last session cost and sums the token reports", () => {
    const output = [
      "Aider v0.86.1",
      "Tokens: 12k sent, 1.2k received. Cost: $0.05 message, $0.05 session.",
      "Applied edit to src/login.js",
      "Tokens: 4.2k sent, 2.1k cache write, 1.1k cache hit, 523 received.",
      "Cost: $0.0042 message, $0.0542 session.",
    ].join("\n");
    const reading = aider.read(output, spec);
    expect(reading.spend).toBe(0.0542);
    expect(reading.tokens).toBe(12_000 + 1_200 + 4_200 + 523);
    expect(reading.run).toEqual({ name: "aider", turns: 2, limited: false });
  });

  it("says so when it printed no cost line", () => {
    const reading = aider.read("Model: local/llama\n", spec);
    expect(reading.spend).toBe(0);
    expect(reading.notes[0]).toContain("no cost line");
  });

  it("names the message file on its command line", () => {
    expect(aider.argsFor({ ...context, spec })).toEqual(["--message-file", "/m.md"]);
  });
});

describe("a JSON report of any agent", () => {
  it("reads the paths in the last JSON object printed", () => {
    const stdout = 'working…\n{"usage": {"cost": 0.3, "turns": [{"tokens": 9}]}}\n';
    expect(
      readJsonReport(stdout, { spend: "usage.cost", tokens: "usage.turns.0.tokens" }, true),
    ).toEqual({ spend: 0.3, tokens: 9, notes: [] });
  });

  it("reads one pretty-printed object", () => {
    expect(readJsonReport('{\n  "cost": 2\n}\n', { spend: "cost" }, true).spend).toBe(2);
  });

  it("refuses a path with no number when the step succeeded, naming the field", () => {
    expect(() => readJsonReport('{"costs": 1}', { spend: "cost" }, true)).toThrow(
      "report.spend: expected a number >= 0 at cost in the generate step's JSON output, but it has nothing at cost",
    );
  });

  it("counts 0 for a failed step that printed nothing, and says so", () => {
    const read = readJsonReport("", { spend: "cost" }, false);
    expect(read.spend).toBe(0);
    expect(read.notes).toEqual([
      "[loopgate] the generate step failed and printed no JSON object: its spend is counted as 0",
    ]);
  });
});
