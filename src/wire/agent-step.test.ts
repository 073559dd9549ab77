import { describe, expect, it } from "vitest";
import { decodeTaskFile } from "./task-file.js";

const file = (generate: unknown, taskSteps?: unknown) =>
  decodeTaskFile({
    steps: { generate },
    tasks: [{ id: "t", prompt: "p", ...(taskSteps === undefined ? {} : { steps: taskSteps }) }],
  });

describe("a generate step's agent", () => {
  it("is resolved into the agent's command, model and args after loopgate's flags", () => {
    const decoded = file({ agent: "claude-code", model: "opus", args: ["--max-turns", "9"] });
    expect(decoded.steps.generate).toEqual({
      command: ["claude", "-p", "--output-format", "json", "--model", "opus", "--max-turns", "9"],
      agent: { name: "claude-code", resume: false, model: "opus" },
    });
  });

  it("keeps model names in prices as written", () => {
    const decoded = file({
      agent: "codex",
      model: "gpt_5_mini",
      resume: true,
      prices: { gpt_5_mini: { input: 0.25, output: 2 } },
    });
    expect(decoded.steps.generate.command).toEqual([
      "codex",
      "exec",
      "--json",
      "--model",
      "gpt_5_mini",
    ]);
    expect(decoded.steps.generate.agent).toEqual({
      name: "codex",
      resume: true,
      model: "gpt_5_mini",
      prices: { gpt_5_mini: { input: 0.25, output: 2 } },
    });
  });

  it("is resolved in a task's own generate step too, and checked there", () => {
    const decoded = file({ command: ["true"] }, { generate: { agent: "aider" } });
    expect(decoded.tasks[0]?.steps?.generate?.command).toEqual(["aider", "--yes-always"]);
    expect(() =>
      file({ command: ["true"] }, { generate: { agent: "aider", command: "x" } }),
    ).toThrow("tasks[0].steps.generate.command: an agent step builds its own command");
  });

  it("leaves a plain command as it was, with its JSON report", () => {
    const decoded = file({ command: "my-agent --json", report: { spend: "cost.usd" } });
    expect(decoded.steps.generate).toEqual({
      command: "my-agent --json",
      report: { spend: "cost.usd" },
    });
  });

  it.each([
    [{}, "steps.generate.command: expected a command to run, or an agent"],
    [
      { agent: "codex", prices: { m: { input: 1, output: 1 } } },
      "steps.generate.model: prices are looked up by model: set model",
    ],
    [
      { agent: "codex", model: "m", prices: { m: { input: 1 } } },
      "steps.generate.prices.m.output: is required but missing",
    ],
    [
      { agent: "aider", report: { spend: "x" } },
      "steps.generate.report: aider's own output is read",
    ],
    [
      { command: ["x"], report: { spend: "a..b" } },
      "steps.generate.report.spend: expected a dotted path",
    ],
    [{ command: ["x"], resume: true }, "steps.generate.resume: resume needs an agent"],
  ])("refuses %j, naming the field", (generate, message) => {
    expect(() => file(generate)).toThrow(message);
  });
});
