import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RunStep } from "../../core/loop/loop-effect.js";
import type { AgentRun } from "../../core/loop/step-outcome.js";
import type { AgentName } from "../../wire/agent-step.js";
import type { StepSpec } from "../../wire/task-file.js";
import type { CommandResult } from "../run-command.js";
import { answerText, feedbackText } from "../step-files.js";
import type { StepHeadroom } from "../step-headroom.js";
import type { AgentAdapter } from "./agent-reading.js";
import { aider } from "./aider.js";
import { claudeCode } from "./claude-code.js";
import { codex } from "./codex.js";
import { readJsonReport } from "./json-report.js";

const ADAPTERS: Readonly<Record<AgentName, AgentAdapter>> = {
  "claude-code": claudeCode,
  codex,
  aider,
};

/** What a step's output said it cost, beyond its report file. */
export interface OutputReading {
  readonly spend: number;
  readonly tokens: number;
  /** Present when a built-in adapter ran the agent. */
  readonly agent?: AgentRun;
  /** Lines for the step's output: what could not be read, what was not priced, a limit hit. */
  readonly notes: readonly string[];
}

/** How a step runs this time: its command, what it reads on stdin, and how its output reads. */
export interface StepInvocation {
  readonly command: readonly string[] | string;
  readonly stdinFile?: string;
  readonly read: (result: CommandResult) => OutputReading;
}

/**
 * The attempt's message for an agent, as the step protocol's files hold it: the prompt (left
 * out when the agent continues the session that already has it), then the feedback and the
 * human's answer, each introduced.
 */
function agentMessage(effect: RunStep, resuming: boolean): string {
  const { prompt, feedback, answer } = effect.inputs;
  const parts = [
    resuming ? "" : prompt.trimEnd(),
    feedback === null
      ? ""
      : `Your last attempt failed. Fix exactly this:\n\n${feedbackText(feedback, effect.iteration).trimEnd()}`,
    answer === null ? "" : `A human answered your question:\n\n${answerText(answer).trimEnd()}`,
  ];
  return `${parts.filter((part) => part !== "").join("\n\n")}\n`;
}

/** The command's result with the adapter's notes after its output, each on a line of its own. */
export function withNotes(result: CommandResult, notes: readonly string[]): CommandResult {
  if (notes.length === 0) return result;
  const gap = result.output === "" || result.output.endsWith("\n") ? "" : "\n";
  return { ...result, output: `${result.output}${gap}${notes.join("\n")}\n` };
}

/** Where a task's agent session is kept between attempts (and across `resume`). */
function sessionFile(taskDir: string): string {
  return join(taskDir, "agent-session.json");
}

/** The session an earlier attempt of the same agent left, if any. */
function lastSession(taskDir: string, name: AgentName): string | undefined {
  try {
    const saved = JSON.parse(readFileSync(sessionFile(taskDir), "utf8")) as {
      agent?: unknown;
      session_id?: unknown;
    };
    return saved.agent === name && typeof saved.session_id === "string"
      ? saved.session_id
      : undefined;
  } catch {
    return undefined;
  }
}

/** Says when the agent ended on a limit of its own: the attempt did not fail on its merits. */
function limitNote(run: AgentRun): string[] {
  if (!run.limited) return [];
  const turns = run.turns === undefined ? "" : ` after ${run.turns} turns`;
  return [
    `[loopgate] ${run.name} stopped on its own limit${turns}: ${run.stopReason ?? "unknown"}`,
  ];
}

/**
 * How the step runs this time. A plain command runs as written; one with a `report` has its
 * JSON output read for its cost; an agent's command gets this attempt's session, budget cap
 * and message, and its own output is read for spend, tokens, turns, session and stop reason.
 * Nothing from the prompt, feedback or answer reaches the command line: the message is a file.
 */
export function stepInvocation(
  spec: StepSpec,
  effect: RunStep,
  env: Readonly<Record<string, string>>,
  headroom: StepHeadroom,
): StepInvocation {
  const agent = spec.agent;
  if (agent === undefined || effect.step !== "generate") {
    const report = spec.report;
    return {
      command: spec.command,
      read: (result) =>
        report === undefined || effect.step !== "generate"
          ? { spend: 0, tokens: 0, notes: [] }
          : readJsonReport(result.stdout, report, result.exitCode === 0 && !result.timedOut),
    };
  }
  const taskDir = env.LOOPGATE_TASK_DIR ?? dirname(env.LOOPGATE_PROMPT_FILE ?? ".");
  const adapter = ADAPTERS[agent.name];
  const sessionId = agent.resume ? lastSession(taskDir, agent.name) : undefined;
  const messageFile = join(dirname(env.LOOPGATE_PROMPT_FILE ?? taskDir), "agent-message.md");
  writeFileSync(messageFile, agentMessage(effect, sessionId !== undefined));
  const base = typeof spec.command === "string" ? [spec.command] : spec.command;
  return {
    command: [...base, ...adapter.argsFor({ spec: agent, messageFile, sessionId, headroom })],
    ...(adapter.messageOnStdin ? { stdinFile: messageFile } : {}),
    read(result) {
      const reading = adapter.read(result.stdout, agent);
      const session = reading.run.sessionId;
      if (session !== undefined) {
        writeFileSync(
          sessionFile(taskDir),
          `${JSON.stringify({ agent: agent.name, session_id: session })}\n`,
        );
      }
      return {
        ...reading,
        agent: reading.run,
        notes: [...reading.notes, ...limitNote(reading.run)],
      };
    },
  };
}
