import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "../test-support/built-cli.js";

// The built-in agent adapters through the built CLI, each against a fake agent put on PATH
// that prints the agent's documented output: what it spent becomes the task's spend with no
// wrapper, and the agent is told (and the Claude Code one capped by) the budget left.

beforeAll(requireBuild);

/** The fake agents record what they were given in the task's directory, per attempt. */
const RECORD = `
dir="$LOOPGATE_TASK_DIR/seen-$LOOPGATE_ITERATION"; mkdir -p "$dir"
printf '%s\\n' "$@" > "$dir/argv"
env | grep '^LOOPGATE_' | sort > "$dir/env"
`;

/** Claude Code: costs $COST an attempt, but stops itself at --max-budget-usd as the real one does. */
const CLAUDE = `#!/bin/sh
${RECORD}
cat > "$dir/stdin"
cap=""; prev=""
for arg in "$@"; do [ "$prev" = "--max-budget-usd" ] && cap="$arg"; prev="$arg"; done
node -e '
  const [cost, cap, iteration] = [Number(process.argv[1]), process.argv[2], process.argv[3]];
  const capped = cap !== "" && cost > Number(cap);
  console.log(JSON.stringify({ type: "result", subtype: capped ? "error_max_budget_usd" : "success",
    is_error: capped, num_turns: 3, session_id: "session-" + iteration,
    total_cost_usd: capped ? Number(cap) : cost, usage: { input_tokens: 100, output_tokens: 20 },
    result: "edited src/login.js" }));
  process.exit(capped ? 1 : 0);
' "\${COST:-0.4}" "$cap" "$LOOPGATE_ITERATION"
`;

const CODEX = `#!/bin/sh
${RECORD}
cat > "$dir/stdin"
echo '{"type":"thread.started","thread_id":"thread-'$LOOPGATE_ITERATION'"}'
echo '{"type":"turn.started"}'
echo '{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"done"}}'
echo '{"type":"turn.completed","usage":{"input_tokens":200000,"cached_input_tokens":100000,"output_tokens":10000}}'
`;

const AIDER = `#!/bin/sh
${RECORD}
prev=""; for arg in "$@"; do [ "$prev" = "--message-file" ] && cp "$arg" "$dir/message"; prev="$arg"; done
echo "Aider v0.86.1"
echo "Tokens: 12k sent, 1.2k received. Cost: \\$0.03 message, \\$0.03 session."
echo "Tokens: 2.5k sent, 300 received. Cost: \\$0.0125 message, \\$0.0425 session."
`;

interface Project {
  readonly dir: string;
  readonly run: (...args: string[]) => ReturnType<typeof cli>;
  readonly seen: (iteration: number, what: string) => string;
  readonly events: () => Record<string, unknown>[];
}

/** A project with the fake agents on PATH and a task file; `run` drives the built CLI in it. */
function project(taskFile: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Project {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-agents-"));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  for (const [name, script] of Object.entries({ claude: CLAUDE, codex: CODEX, aider: AIDER })) {
    writeFileSync(join(bin, name), script);
    chmodSync(join(bin, name), 0o755);
  }
  writeFileSync(join(dir, "loopgate.json"), JSON.stringify(taskFile));
  const db = join(dir, ".loopgate", "journal.db");
  const path = { PATH: `${bin}${delimiter}${process.env.PATH ?? ""}`, ...env };
  const run = (...args: string[]) => cli([...args, "--db", db], path, dir);
  return {
    dir,
    run,
    seen: (iteration, what) =>
      readFileSync(join(dir, ".loopgate", "runs", "1", "t", `seen-${iteration}`, what), "utf8"),
    events: () =>
      run("export", "--jsonl")
        .stdout.trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** A one-task file: generate as given, a test that always fails. */
function taskFile(generate: unknown, settings: Record<string, unknown> = {}) {
  return {
    iteration_control: { max_iterations: 5 },
    ...settings,
    steps: {
      generate,
      test: { command: "echo 'AssertionError: login() returned undefined'; exit 1" },
    },
    tasks: [{ id: "t", prompt: "Add a login() that returns a JWT." }],
  };
}

interface Outcome {
  readonly step: string;
  readonly spend: number;
  readonly tokens: number;
  readonly output: string;
  readonly agent?: Record<string, unknown>;
}

/** The generate steps' journaled outcomes, in order. */
function generated(events: readonly Record<string, unknown>[]): Outcome[] {
  return events
    .filter((event) => event.type === "step-finished")
    .map((event) => event.outcome as Outcome)
    .filter((outcome) => outcome.step === "generate");
}

describe("loopgate run with agent: claude-code", () => {
  const file = taskFile(
    { agent: "claude-code", model: "opus", args: ["--max-turns", "30"], resume: true },
    { stop_conditions: { budget_cap: 1 } },
  );

  it("takes total_cost_usd as the spend, caps each attempt at the budget left, and stops on the cap", () => {
    const p = project(file);
    const run = p.run("run", "loopgate.json");
    expect(run.stderr).not.toContain("internal error");
    expect(run.status).toBe(3);
    expect(run.stdout).toMatch(/t\s+awaiting-answer\s+3\s+1\s+BUDGET_EXHAUSTED/);
    // Two attempts at 0.4, then the third is cut at the 0.2 left: the cap is never passed.
    expect(generated(p.events()).map((outcome) => outcome.spend)).toEqual([0.4, 0.4, 0.2]);
    expect(p.seen(1, "argv").split("\n")).toEqual([
      "-p",
      "--output-format",
      "json",
      "--model",
      "opus",
      "--max-turns",
      "30",
      "--max-budget-usd",
      "1",
      "",
    ]);
    expect(p.seen(2, "argv")).toContain("--resume\nsession-1\n--max-budget-usd\n0.6\n");
    expect(p.seen(3, "argv")).toContain("--max-budget-usd\n0.2\n");
    // The message is on stdin: the prompt first, the feedback on later attempts (resumed, the
    // session has the prompt already).
    expect(p.seen(1, "stdin")).toBe("Add a login() that returns a JWT.\n");
    expect(p.seen(2, "stdin")).toContain("Your last attempt failed. Fix exactly this:");
    expect(p.seen(2, "stdin")).toContain("login() returned undefined");
    expect(p.seen(2, "stdin")).not.toContain("Add a login()");
  });

  it("journals the agent's own account, and shows its own limit in history and explain", () => {
    const p = project(file);
    p.run("run", "loopgate.json");
    const [first, , third] = generated(p.events());
    expect(first?.agent).toEqual({
      name: "claude-code",
      session_id: "session-1",
      turns: 3,
      stop_reason: "success",
      limited: false,
    });
    expect(first?.tokens).toBe(120);
    expect(third?.agent).toMatchObject({ stop_reason: "error_max_budget_usd", limited: true });
    expect(third?.output).toContain(
      "[loopgate] claude-code stopped on its own limit after 3 turns: error_max_budget_usd",
    );
    const history = p.run("history", "t");
    expect(history.stdout).toContain("generate: done · claude-code 3 turns");
    expect(history.stdout).toContain(
      "generate: failed (exit code 1) · claude-code 3 turns, stopped on its own limit: error_max_budget_usd",
    );
    const explain = p.run("explain", "t", "3");
    expect(explain.status).toBe(0);
    expect(explain.stdout).toContain(
      "generate: claude-code 3 turns, stopped on its own limit: error_max_budget_usd, session session-3",
    );
  });

  it("with predict_budget, stops before an attempt the mean cost says it cannot pay, named as predicted", () => {
    const p = project(
      taskFile(
        { agent: "claude-code" },
        { stop_conditions: { budget_cap: 1, predict_budget: true } },
      ),
    );
    const run = p.run("run", "loopgate.json");
    expect(run.status).toBe(3);
    // 0.8 spent, 0.2 left, the mean attempt cost 0.4: the third attempt never runs.
    expect(generated(p.events())).toHaveLength(2);
    const explain = p.run("explain", "t", "2");
    expect(explain.stdout).toContain("escalate — BUDGET_EXHAUSTED");
    expect(explain.stdout).toMatch(
      /BUDGET_EXHAUSTED\s+FIRED\s+predicted: the next attempt is expected to cost 0\.4 \(the mean of 2 attempts\), more than the 0\.2 left of budget_cap 1/,
    );
  });
});

describe("loopgate run with agent: codex", () => {
  it("prices the token usage with the task file's prices per model", () => {
    const p = project(
      taskFile(
        {
          agent: "codex",
          model: "gpt-5",
          resume: true,
          prices: { "gpt-5": { input: 1.25, cached: 0.125, output: 10 } },
        },
        { iteration_control: { max_iterations: 2 } },
      ),
    );
    const run = p.run("run", "loopgate.json");
    expect(run.stderr).not.toContain("internal error");
    const outcomes = generated(p.events());
    // 100k new input × 1.25 + 100k cached × 0.125 + 10k output × 10, per million: 0.2375.
    expect(outcomes.map((outcome) => outcome.spend)).toEqual([0.2375, 0.2375]);
    expect(outcomes[0]?.tokens).toBe(210_000);
    expect(outcomes[0]?.agent).toMatchObject({ name: "codex", session_id: "thread-1", turns: 1 });
    expect(run.stdout).toMatch(/t\s+awaiting-answer\s+2\s+0\.475\s+MAX_ITERATIONS/);
    expect(p.seen(1, "argv").split("\n")).toEqual(["exec", "--json", "--model", "gpt-5", "-", ""]);
    expect(p.seen(2, "argv")).toBe("exec\n--json\n--model\ngpt-5\nresume\nthread-1\n-\n");
    expect(p.seen(1, "stdin")).toBe("Add a login() that returns a JWT.\n");
  });

  it("counts no spend without prices, and says so in the step's output", () => {
    const p = project(taskFile({ agent: "codex" }, { iteration_control: { max_iterations: 1 } }));
    p.run("run", "loopgate.json");
    const [outcome] = generated(p.events());
    expect(outcome?.spend).toBe(0);
    expect(outcome?.output).toContain(
      "[loopgate] codex reports tokens, not a cost, and no model is set: 210000 tokens counted, spend 0",
    );
  });

  it("refuses prices without an entry for the model before anything runs (exit 2)", () => {
    const p = project(
      taskFile({ agent: "codex", model: "gpt-5", prices: { "gpt-4o": { input: 1, output: 2 } } }),
    );
    const run = p.run("run", "loopgate.json");
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      'error: steps.generate.prices: no price for model "gpt-5" (prices has "gpt-4o")\n',
    );
  });
});

describe("loopgate run with agent: aider", () => {
  it("reads its Cost lines and hands it the message as a file", () => {
    const p = project(
      taskFile(
        { agent: "aider", args: ["--no-auto-commits"] },
        {
          iteration_control: { max_iterations: 1 },
        },
      ),
    );
    const run = p.run("run", "loopgate.json");
    expect(run.stderr).not.toContain("internal error");
    const [outcome] = generated(p.events());
    expect(outcome?.spend).toBe(0.0425);
    expect(outcome?.tokens).toBe(12_000 + 1_200 + 2_500 + 300);
    expect(outcome?.agent).toEqual({ name: "aider", turns: 2, limited: false });
    expect(p.seen(1, "argv")).toMatch(
      /^--yes-always\n--no-auto-commits\n--message-file\n\/.+\/agent-message\.md\n$/,
    );
    expect(p.seen(1, "message")).toBe("Add a login() that returns a JWT.\n");
  });
});

describe("loopgate run with a JSON report of any agent", () => {
  it("reads the spend at the report's path, with no wrapper", () => {
    const p = project(
      taskFile(
        {
          command: [
            "node",
            "-e",
            'console.log("thinking…"); console.log(JSON.stringify({ usage: { cost: 0.25, tokens: 900 } }))',
          ],
          report: { spend: "usage.cost", tokens: "usage.tokens" },
        },
        { iteration_control: { max_iterations: 1 } },
      ),
    );
    p.run("run", "loopgate.json");
    const [outcome] = generated(p.events());
    expect(outcome).toMatchObject({ spend: 0.25, tokens: 900 });
  });

  it("stops with exit 2 naming the field when the path finds no number", () => {
    const p = project(
      taskFile({
        command: ["node", "-e", "console.log('{\"usd\": 1}')"],
        report: { spend: "cost" },
      }),
    );
    const run = p.run("run", "loopgate.json");
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("error: report.spend: expected a number >= 0 at cost");
  });
});

describe("every step is told its headroom", () => {
  it("sets LOOPGATE_ITERATIONS_LEFT, LOOPGATE_BUDGET_LEFT and LOOPGATE_TIME_LEFT_MS", () => {
    const record = `${RECORD}echo '{"spend": 0.25}' >> "$LOOPGATE_REPORT_FILE"`;
    const p = project(
      taskFile(
        { command: record },
        {
          iteration_control: { max_iterations: 3 },
          stop_conditions: { budget_cap: 2, time_limit_ms: 600000 },
        },
      ),
    );
    p.run("run", "loopgate.json");
    const env = (iteration: number) =>
      Object.fromEntries(
        p
          .seen(iteration, "env")
          .trim()
          .split("\n")
          .map((line) => line.split("=", 2) as [string, string]),
      );
    expect(env(1)).toMatchObject({ LOOPGATE_ITERATIONS_LEFT: "2", LOOPGATE_BUDGET_LEFT: "2" });
    expect(env(2)).toMatchObject({ LOOPGATE_ITERATIONS_LEFT: "1", LOOPGATE_BUDGET_LEFT: "1.75" });
    expect(env(3)).toMatchObject({ LOOPGATE_ITERATIONS_LEFT: "0", LOOPGATE_BUDGET_LEFT: "1.5" });
    const left = Number(env(2).LOOPGATE_TIME_LEFT_MS);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(Number(env(1).LOOPGATE_TIME_LEFT_MS));
  });

  it("leaves the budget and time empty when uncapped", () => {
    const p = project(taskFile({ command: RECORD }, { iteration_control: { max_iterations: 1 } }));
    p.run("run", "loopgate.json");
    const env = p.seen(1, "env");
    expect(env).toContain("LOOPGATE_ITERATIONS_LEFT=0\n");
    expect(env).toContain("LOOPGATE_BUDGET_LEFT=\n");
    expect(env).toContain("LOOPGATE_TIME_LEFT_MS=\n");
  });
});

describe("agent steps are checked before anything runs", () => {
  it.each([
    [
      { agent: "claude-code", command: ["claude"] },
      "error: steps.generate.command: an agent step builds its own command: give args instead, or drop agent\n",
    ],
    [
      { agent: "claude-code", prices: {} },
      "error: steps.generate.prices: claude-code reports its own cost; prices are read for codex only\n",
    ],
    [
      { command: ["x"], model: "opus" },
      "error: steps.generate.model: model needs an agent (claude-code, codex, aider)\n",
    ],
    [
      { agent: "gemini" },
      'error: steps.generate.agent: expected one of claude-code, codex, aider, got "gemini" (a string)\n',
    ],
  ])("refuses %j with exit 2", (generate, message) => {
    const p = project(taskFile(generate));
    const run = p.run("run", "loopgate.json");
    expect(run.stderr).toBe(message);
    expect(run.status).toBe(2);
  });
});
