import { isRecord } from "../core/json-record.js";
import { InputError } from "../wire/input-error.js";
import { MAX_TASK_ID_LENGTH, type StepSpec, type TaskFile } from "../wire/task-file.js";
import { decodeHookConfig, type HookConfig } from "./hook-config.js";

/** The key that marks a journaled run as a Stop-hook session rather than a task file's run. */
export const HOOK_SESSION_KEY = "loopgate_hook_session";

/** What the journal keeps about a Stop-hook session besides its config. */
export interface HookSession {
  readonly sessionId: string;
  /** The session's task id: its session id when that is a valid task id, else one derived from it. */
  readonly taskId: string;
  /** The config file as given when the session started. */
  readonly configFile: string;
  /** Consecutive blocks loopgate allows itself in this session; null for no cap. */
  readonly blockCap: number | null;
}

/**
 * The agent's turn, as the generate step of a hook session: the agent is the generator and
 * loopgate never runs it; `resume` refuses a hook session (see sqlite-driver.ts).
 */
const AGENT_TURN: StepSpec = Object.freeze({ command: ["(the agent's own turn)"] });

/** A task id for a session id: itself when it is one, else its safe characters and a length cut. */
export function sessionTaskId(sessionId: string): string {
  const safe = sessionId.replace(/[^\w.-]/g, "_").replace(/^[-.]+/, "");
  const id = safe.slice(0, MAX_TASK_ID_LENGTH);
  return id === "" ? "session" : id;
}

/** The run document the journal keeps for a session: the marker, and the config (redacted). */
export function hookSessionDocument(session: HookSession, config: unknown): unknown {
  return {
    [HOOK_SESSION_KEY]: {
      session_id: session.sessionId,
      task_id: session.taskId,
      config_file: session.configFile,
      block_cap: session.blockCap,
    },
    config,
  };
}

/** Whether a journaled run document is a Stop-hook session's. */
export function isHookSessionDocument(document: unknown): boolean {
  return isRecord(document) && isRecord(document[HOOK_SESSION_KEY]);
}

/** The session a journaled document records, read strictly; an InputError when it does not read. */
export function hookSessionOf(document: unknown): { session: HookSession; config: HookConfig } {
  const marker = isRecord(document) ? document[HOOK_SESSION_KEY] : undefined;
  const fields = isRecord(marker) ? marker : {};
  const { session_id, task_id, config_file, block_cap } = fields;
  if (
    typeof session_id !== "string" ||
    typeof task_id !== "string" ||
    typeof config_file !== "string" ||
    !(block_cap === null || (typeof block_cap === "number" && Number.isInteger(block_cap)))
  ) {
    throw new InputError(HOOK_SESSION_KEY, "expected a hook session's record");
  }
  // The cap was resolved when the session started; the journaled one holds for its whole life.
  const config = decodeHookConfig(isRecord(document) ? document.config : undefined, null);
  const session = { sessionId: session_id, taskId: task_id, configFile: config_file };
  return {
    session: { ...session, blockCap: block_cap },
    config: { ...config, blockCap: block_cap },
  };
}

/** The task file a session runs as: one task, the agent's turn as its generate step. */
export function sessionTaskFile(session: HookSession, config: HookConfig): TaskFile {
  const settings = {
    iterationControl: config.iterationControl,
    stopConditions: config.stopConditions,
    onAnswer: config.onAnswer,
  };
  return {
    ...(Object.fromEntries(
      Object.entries(settings).filter(([, value]) => value !== undefined),
    ) as Partial<typeof settings>),
    // A pending review pauses at once unless the config polls it: each poll keeps the agent waiting.
    reviewWait: { maxPolls: 0, ...config.reviewWait },
    steps: { generate: AGENT_TURN, ...config.steps },
    tasks: [{ id: session.taskId, prompt: "" }],
  };
}
