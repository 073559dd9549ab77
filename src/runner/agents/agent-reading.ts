import { isRecord, type JsonRecord } from "../../core/json-record.js";
import type { AgentRun } from "../../core/loop/step-outcome.js";
import type { AgentSpec } from "../../wire/agent-step.js";
import type { StepHeadroom } from "../step-headroom.js";

/** What an adapter read from an agent's output: the attempt's cost and the agent's own account. */
export interface AgentReading {
  readonly spend: number;
  readonly tokens: number;
  readonly run: AgentRun;
  /** `[loopgate] …` lines added to the step's output: what could not be read, or was not priced. */
  readonly notes: readonly string[];
}

/** What an attempt's agent command is built from. */
export interface AgentContext {
  readonly spec: AgentSpec;
  /** The attempt's message for the agent: the prompt, feedback and answer, as text. */
  readonly messageFile: string;
  /** The session to continue, when `resume` is on and an earlier attempt left one. */
  readonly sessionId: string | undefined;
  readonly headroom: StepHeadroom;
}

/** One coding agent: how an attempt runs it, and how its output reads. */
export interface AgentAdapter {
  /** Whether the message goes to the agent's standard input (else an argument names its file). */
  readonly messageOnStdin: boolean;
  /** What this attempt adds to the step's command (its session, its cap, its message). */
  readonly argsFor: (context: AgentContext) => readonly string[];
  readonly read: (stdout: string, spec: AgentSpec) => AgentReading;
}

/** Parses a line as a JSON object, or undefined for anything else. */
export function jsonObject(line: string): JsonRecord | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON objects printed one per line, in order; other lines (progress, warnings) are skipped. */
export function jsonLines(stdout: string): JsonRecord[] {
  return stdout
    .split("\n")
    .map(jsonObject)
    .filter((value) => value !== undefined);
}

/** A count or amount an agent printed: a finite number >= 0, else undefined. */
export function amount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** A non-empty string an agent printed, else undefined. */
export function word(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The agent run with only the fields that were read. */
export function agentRun(
  name: string,
  fields: {
    readonly sessionId?: string | undefined;
    readonly turns?: number | undefined;
    readonly stopReason?: string | undefined;
    readonly limited: boolean;
  },
): AgentRun {
  return {
    name,
    ...(fields.sessionId === undefined ? {} : { sessionId: fields.sessionId }),
    ...(fields.turns === undefined ? {} : { turns: fields.turns }),
    ...(fields.stopReason === undefined ? {} : { stopReason: fields.stopReason }),
    limited: fields.limited,
  };
}
