import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { nextEffect, type TaskEffect } from "../core/loop/effects-of.js";
import type { AwaitAnswer, RunStep } from "../core/loop/loop-effect.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { transition } from "../core/loop/transition.js";
import { redact } from "../core/redaction/redaction.js";
import { DEFAULT_OUTPUT_LIMIT } from "../runner/bounded-output.js";
import { executeStep, stepRunEvent } from "../runner/execute-step.js";
import type { Journal, JournalEntry } from "../runner/journal.js";
import { Leases } from "../runner/lease.js";
import { loadRun, type LoadedRun } from "../runner/load-run.js";
import { killOrphans } from "../runner/sqlite-driver.js";
import { answerText, feedbackText } from "../runner/step-files.js";
import { STEP_OWNER_VARIABLE, type RunningStep } from "../runner/step-processes.js";
import { redactTaskDocument } from "../wire/redact-task-document.js";
import type { StepSpec } from "../wire/task-file.js";
import { AGENT_BLOCK_CAP_VARIABLE, type HookConfig } from "./hook-config.js";
import {
  HOOK_SESSION_KEY,
  hookSessionDocument,
  hookSessionOf,
  sessionTaskId,
  type HookSession,
} from "./hook-session.js";
import type { StopHookInput } from "./stop-hook-input.js";

/** What the hook tells the agent: go on with this reason, or stop (with a note for the human). */
export type HookReply =
  | { readonly kind: "block"; readonly reason: string }
  | { readonly kind: "stop"; readonly message: string | null };

/** What one Stop-hook call works with. */
export interface StopHookCall {
  readonly journal: Journal;
  readonly input: StopHookInput;
  /** The config file as given (resolved), and its document as read now, secrets and all. */
  readonly configFile: string;
  readonly configDocument: unknown;
  readonly config: HookConfig;
}

/** Where the journal marks a generate step the hook started: by blocking, or as the agent's own turn. */
type TurnStart = "block" | "turn";

/**
 * A hook step's time limit when the config sets none: a test and a review together stay within
 * Claude Code's 600 s default hook timeout, after which the agent kills the hook.
 */
export const HOOK_STEP_TIMEOUT_MS = 240_000;

/** The step protocol's name for the hook's note on a generate step's start. */
const HOOK_META = "hook";

/** A path as a shell reads it back whole: quoted unless it is plain. */
function shellWord(word: string): string {
  return /^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * The run of the session that is still going on, or a new one: a session whose task proceeded or
 * ended starts over when the agent stops again (a new request in the same session).
 */
function sessionRun(call: StopHookCall): number {
  const { journal, input } = call;
  const ids = journal.runIdsWithDocumentValue(`$.${HOOK_SESSION_KEY}.session_id`, input.sessionId);
  const latest = ids.at(-1);
  if (latest !== undefined) {
    const { state } = loadRun(journal, latest);
    if (state.tasks.some((task) => task.phase.name !== "done")) return latest;
  }
  const session: HookSession = {
    sessionId: input.sessionId,
    taskId: sessionTaskId(input.sessionId),
    configFile: call.configFile,
    blockCap: call.config.blockCap,
  };
  const document = hookSessionDocument(session, redactTaskDocument(call.configDocument));
  return journal.createRun(call.configFile, input.cwd, document);
}

/**
 * The session's test and review steps. Settings and steps hold as the session started; the
 * journal keeps them redacted, so a step with a secret runs from the config read now, which
 * must still redact to the journaled copy.
 */
function sessionSteps(
  loaded: LoadedRun,
  call: StopHookCall,
): { steps: { test?: StepSpec; review?: StepSpec }; note: string | null } {
  const journaled = (loaded.run.document as Record<string, unknown>).config;
  const journaledConfig = hookSessionOf(loaded.run.document).config;
  const same =
    JSON.stringify(redactTaskDocument(call.configDocument)) === JSON.stringify(journaled);
  if (same) return { steps: call.config.steps, note: null };
  const note = `loopgate: ${call.configFile} changed since session run ${loaded.run.id} started; the session keeps its first config (a new session reads the new one)`;
  if (!JSON.stringify(journaled).includes("[REDACTED:")) {
    return { steps: journaledConfig.steps, note };
  }
  throw new Error(
    `${note}, but its steps hold secrets the journal keeps only redacted: restore the config, or start a new session`,
  );
}

/** The latest start of a step the journal holds, if that step has not finished. */
function openStart(entries: readonly JournalEntry[], effectId: string): JournalEntry | undefined {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry?.event.effectId !== effectId) continue;
    return entry.event.type === "step-started" ? entry : undefined;
  }
  return undefined;
}

/**
 * How many times in a row the hook kept the agent going: its blocks since the agent last went
 * on by itself (a turn the hook did not start) or a human answered — never `stop_hook_active`,
 * which agents report unreliably.
 */
export function blocksInARow(entries: readonly JournalEntry[]): number {
  let blocks = 0;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry === undefined || entry.event.type === "answer-given") break;
    if (entry.event.type !== "step-started" || entry.event.step !== "generate") continue;
    if (entry.meta?.[HOOK_META] !== "block") break;
    blocks += 1;
  }
  return blocks;
}

/** The question a paused session asks, its options, and the exact command that answers it. */
function pausedMessage(effect: AwaitAnswer, runId: number, db: string): string {
  const decision = effect.decision;
  const question = decision.action === "escalate" ? decision.question : decision.message;
  // Listed unless the question already lists them, each on its own line.
  const listed = effect.options.every((option) =>
    question.split("\n").some((line) => line.trim() === `${option.id}. ${option.label}`),
  );
  const options = listed
    ? ""
    : effect.options.map((option) => `  ${option.id}. ${option.label}`).join("\n");
  const choices = [
    ...(effect.options.length === 0 ? [] : ["--option N"]),
    '--text "…"',
    "--approve",
    "--abort",
  ].join(" | ");
  return `loopgate: ${effect.taskId} awaits your answer (run ${runId}, attempt ${effect.iteration}, ${decision.reason}).
${question.trimEnd()}
${options === "" ? "" : `\nOptions:\n${options}\n`}
Answer, then tell the agent to go on; its next stop hands your answer to it:
  loopgate answer ${effect.taskId} --db ${shellWord(db)} ${choices}
`;
}

/**
 * One Stop-hook call: the agent's turn ended, so it is journaled as the session's generate step;
 * then the configured test and review run in the hook's `cwd` and the pure loop decides with the
 * session's whole journaled history. A retry blocks the stop with the feedback; a pause lets the
 * agent stop with the question; after a human's answer, the next call hands the answer on.
 */
export async function stopHook(call: StopHookCall): Promise<HookReply> {
  const { journal } = call;
  const runId = sessionRun(call);
  const leases = new Leases(journal);
  const taken = leases.acquire(`run:${runId}`);
  if (!taken.ok) {
    return {
      kind: "stop",
      message: `loopgate: session run ${runId} is being checked by pid ${taken.holder.pid} on ${taken.holder.host}; this stop goes through unchecked`,
    };
  }
  try {
    return await carryOn(call, loadRun(journal, runId), leases.owner);
  } finally {
    leases.releaseAll();
  }
}

async function carryOn(call: StopHookCall, loaded: LoadedRun, owner: string): Promise<HookReply> {
  const { journal, input } = call;
  // Tagged as the runner's steps are, so a call killed before a start was journaled is found.
  const env = { ...process.env, [STEP_OWNER_VARIABLE]: owner };
  const runId = loaded.run.id;
  const { session } = hookSessionOf(loaded.run.document);
  const { steps, note } = sessionSteps(loaded, call);
  if (note !== null) process.stderr.write(`${note}\n`);
  // An earlier call the agent killed (its hook timeout) may have left a step running.
  killOrphans(loaded.entries);
  const entries: JournalEntry[] = [...loaded.entries];
  let state: LoopState = loaded.state;
  const record = (event: LoopEvent, meta: Record<string, unknown> | null = null) => {
    // Applied before it is written, so an event the loop refuses never reaches the journal.
    const next = transition(state, event).state;
    const seq = journal.append(runId, event, meta, next);
    entries.push({ seq, runId, at: new Date().toISOString(), event, meta });
    state = next;
  };
  const base = (effect: TaskEffect) => ({
    effectId: effect.id,
    taskId: effect.taskId,
    iteration: effect.iteration,
  });
  const startTurn = (effect: RunStep, how: TurnStart) =>
    record({ type: "step-started", ...base(effect), step: "generate" }, { [HOOK_META]: how });
  // Whether this call journaled the agent's turn: a generate step due after that is a retry.
  let turnTaken = false;
  for (;;) {
    const task = state.tasks[0];
    const effect = task === undefined ? undefined : nextEffect(state, task);
    if (effect === undefined) {
      const phase = task?.phase;
      return phase?.name === "done" && phase.outcome === "aborted"
        ? { kind: "stop", message: `loopgate: ${session.taskId} was aborted: ${phase.reason}` }
        : { kind: "stop", message: null };
    }
    switch (effect.kind) {
      case "record-decision":
        record({
          type: "decision-recorded",
          ...base(effect),
          input: effect.input,
          decision: effect.decision,
        });
        continue;
      case "await-answer":
        return { kind: "stop", message: pausedMessage(effect, runId, journal.path) };
      case "run-step":
        break;
      default:
        // Work only a loopgate session does (a later kind of pause): the agent is not held up.
        return {
          kind: "stop",
          message: `loopgate: ${session.taskId} waits for ${(effect as { kind: string }).kind} (see loopgate status --db ${shellWord(journal.path)})`,
        };
    }
    if (effect.step !== "generate") {
      const spec = steps[effect.step];
      if (spec === undefined) throw new Error(`session run ${runId} has no ${effect.step} step`);
      const timed = { timeoutMs: HOOK_STEP_TIMEOUT_MS, ...spec };
      await runCheck(call, loaded, effect, timed, record, env);
      continue;
    }
    const started = openStart(entries, effect.id);
    const answered = entries.at(-1)?.event.type === "answer-given";
    if (started === undefined && (turnTaken || answered)) {
      const { feedback, answer } = effect.inputs;
      const reason =
        turnTaken && feedback !== null
          ? feedbackText(feedback, effect.iteration)
          : answer !== null
            ? `${answerText(answer)}\nGo on with the task as the answer says.`
            : "loopgate: the checks failed; try again.";
      const cap = session.blockCap;
      if (cap !== null && blocksInARow(entries) >= cap) {
        return {
          kind: "stop",
          message: `loopgate: ${session.taskId} needs attempt ${effect.iteration}, but the agent allows ${cap} block${cap === 1 ? "" : "s"} in a row (${AGENT_BLOCK_CAP_VARIABLE}, block_cap); loopgate lets it stop rather than be overridden. Tell the agent to go on; it was to be told:\n${reason}`,
        };
      }
      startTurn(effect, "block");
      return { kind: "block", reason };
    }
    if (started === undefined) startTurn(effect, "turn");
    const since = started === undefined ? Date.now() : Date.parse(started.at);
    record({
      type: "step-finished",
      ...base(effect),
      outcome: {
        step: "generate",
        exitCode: 0,
        timedOut: false,
        durationMs: Math.max(0, Date.now() - since),
        spend: 0,
        tokens: 0,
        output: redact((input.lastAssistantMessage ?? "").slice(0, DEFAULT_OUTPUT_LIMIT)),
      },
    });
    turnTaken = true;
  }
}

/** Runs a test or review step of the session in the hook's `cwd`, journaled like the runner's. */
async function runCheck(
  call: StopHookCall,
  loaded: LoadedRun,
  effect: RunStep,
  spec: StepSpec,
  record: (event: LoopEvent, meta?: Record<string, unknown> | null) => void,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  if (effect.delayMs > 0) await sleep(effect.delayMs);
  const base = { effectId: effect.id, taskId: effect.taskId, iteration: effect.iteration };
  let refused: unknown;
  const ran = await executeStep(effect, spec, {
    runDir: loaded.runDir,
    baseDir: loaded.run.baseDir,
    outputLimit: DEFAULT_OUTPUT_LIMIT,
    env,
    onSpawn: (processes: RunningStep) => {
      try {
        record(
          { type: "step-started", ...base, step: effect.step },
          { pid: processes.pid, host: hostname(), ...processes.identity },
        );
      } catch (error) {
        refused = error;
        processes.signal("SIGKILL");
      }
    },
  });
  if (refused !== undefined) throw refused;
  call.journal.checkUnchanged(`${effect.taskId}'s ${effect.step} step ran`, loaded.run.id);
  record(stepRunEvent(effect, ran));
}
