import { formatNumber } from "../core/format-number.js";
import { printable } from "../core/printable.js";
import { describeEnd } from "../core/loop/attempt-of.js";
import { planTaskOf, taskStateOf } from "../core/loop/effects-of.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import type { LoopState, TaskState } from "../core/loop/loop-state.js";
import type { StepOutcome } from "../core/loop/step-outcome.js";
import { agentWords } from "./agents/agent-words.js";
import { tone, type Paint } from "./paint.js";
import type { Progress } from "./progress.js";

/** Where progress goes: a stream and whether it is a live terminal. */
export interface ProgressStream {
  readonly write: (text: string) => void;
  readonly isTTY: boolean;
  /** The terminal's width: the live line is cut to it, as a wrapped line cannot be cleared. */
  readonly columns?: number | undefined;
}

/** `2/3`: the attempt and the cap granted so far. */
function attemptOf(state: LoopState, task: TaskState | undefined, iteration: number): string {
  const plan = task === undefined ? undefined : planTaskOf(state, task.id);
  const cap = (plan?.iterationControl.maxIterations ?? 0) + (task?.grant.iterations ?? 0);
  return `${iteration}/${cap}`;
}

/** ` · spend 1.2/5`, or nothing for a task that spent nothing and has no cap. */
function spendOf(state: LoopState, task: TaskState | undefined): string {
  const plan = task === undefined ? undefined : planTaskOf(state, task.id);
  const cap = plan?.stopConditions.budgetCap;
  const spend = task?.spend ?? 0;
  if (spend === 0 && (cap ?? null) === null) return "";
  const limit =
    cap === null || cap === undefined ? "" : `/${formatNumber(cap + (task?.grant.budget ?? 0))}`;
  return ` · spend ${formatNumber(spend)}${limit}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** `42s`, `3m05s`, `2h07m`: how long a step has run, at a glance. */
export function elapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const pad = (value: number) => String(value).padStart(2, "0");
  if (total < 60) return `${total}s`;
  if (total < 3600) return `${Math.floor(total / 60)}m${pad(total % 60)}s`;
  return `${Math.floor(total / 3600)}h${pad(Math.floor(total / 60) % 60)}m`;
}

/** How often the live line's elapsed time is redrawn. */
const TICK_MS = 1000;

/** One step's outcome in words. */
function outcomeWords(outcome: StepOutcome, paint: Paint): string {
  switch (outcome.step) {
    case "generate":
      return `${
        outcome.exitCode === 0 && !outcome.timedOut
          ? "done"
          : paint.red(`failed (${describeEnd(outcome)})`)
      }${agentWords(outcome.agent)}`;
    case "test":
      return outcome.status === "pass"
        ? paint.green("pass")
        : paint.red(`fail (${describeEnd(outcome)})`);
    case "review": {
      const score =
        outcome.score === undefined || outcome.score === null
          ? ""
          : ` score ${formatNumber(outcome.score)}`;
      return `${tone(paint, outcome.status === "approve" ? "proceed" : "retry")(outcome.status)}${score}`;
    }
  }
}

/**
 * The line an event prints, or null for events that print nothing (a step starting). What the
 * line quotes (feedback, questions, answers, names) is made printable before it is coloured.
 */
export function eventLine(event: LoopEvent, state: LoopState, paint: Paint): string | null {
  const task = taskStateOf(state, event.taskId);
  const head = `${printable(event.taskId)} ${paint.dim(`#${attemptOf(state, task, event.iteration)}`)}`;
  switch (event.type) {
    case "step-started":
      return null;
    case "step-finished":
      return `${head} ${event.outcome.step}: ${outcomeWords(event.outcome, paint)} ${paint.dim(seconds(event.outcome.durationMs))}`;
    case "step-errored":
      return `${head} ${event.error.step}: ${paint.red("step error")} — ${paint.magenta(paint.bold("paused"))} (STEP_ERROR) — ${printable(event.error.message)}`;
    case "step-resumed":
      return `${head} ${event.step}: runs again after its step error`;
    case "decision-recorded": {
      const decision = event.decision;
      const said =
        decision.action === "retry"
          ? decision.feedback.summary
          : decision.action === "escalate"
            ? (decision.question.split("\n")[0] ?? "")
            : decision.action === "abort" && decision.reason === "APPROVAL_GATE"
              ? // The loop records a human's abort as a rejection at the approval gate; the
                // line says what the human did.
                decision.message.replace(/^Rejected/, "Aborted")
              : decision.message;
      const action = tone(paint, decision.action)(paint.bold(decision.action));
      return `${head} ${action} (${decision.reason})${spendOf(state, task)} — ${printable(said)}`;
    }
    case "answer-given": {
      const answer = event.answer;
      const said =
        answer.kind === "option"
          ? `option ${answer.option}`
          : answer.kind === "text"
            ? `guidance: ${answer.text}`
            : answer.kind;
      const by = answer.by === undefined ? "" : ` (by ${answer.by})`;
      const restore =
        answer.kind === "approve" || answer.restore === undefined
          ? ""
          : `, restoring attempt ${answer.restore}`;
      const extra =
        answer.kind === "option" || answer.kind === "text"
          ? [
              ...(answer.extraIterations === undefined
                ? []
                : [`+${answer.extraIterations} attempts`]),
              ...(answer.extraBudget === undefined ? [] : [`+${answer.extraBudget} budget`]),
            ].join(", ")
          : "";
      return `${head} answered: ${printable(`${said}${restore}${extra === "" ? "" : ` [${extra}]`}${by}`)}`;
    }
    case "task-cancelled": {
      const why = event.reason === undefined ? "" : ` — ${event.reason}`;
      const by = event.by === undefined ? "" : ` (by ${event.by})`;
      return `${head} ${paint.bold("cancelled")}${printable(`${by}${why}`)}`;
    }
    case "attempt-restored":
      return `${head} restored attempt ${event.attempt} (commit ${event.commit.slice(0, 12)})${event.tag === undefined ? "" : `; the later attempts are kept as tag ${printable(event.tag)}`}`;
  }
}

/** What the live line says about one running step: alone (before and after its elapsed time), or beside other tasks' steps. */
interface RunningStep {
  readonly alone: readonly [string, string];
  readonly beside: string;
  readonly startedAt: number;
}

/** Cuts a line to the terminal's width. */
function fit(text: string, columns: number | undefined): string {
  return columns === undefined || text.length < columns ? text : `${text.slice(0, columns - 2)}…`;
}

/**
 * Progress as lines: one per step result, decision and answer, each starting with its task's id,
 * so a CI log reads as the story of the run even when tasks run at once. On a terminal a live
 * line shows the steps running (several tasks' steps side by side). While a human is asked, the
 * lines wait and follow the answer.
 */
export function lineProgress(
  stream: ProgressStream,
  paint: Paint,
  now: () => number = () => performance.now(),
): Progress {
  const running = new Map<string, RunningStep>();
  // Redraws the live line while steps run, so that its elapsed time moves.
  let ticker: NodeJS.Timeout | undefined;
  let transient = false;
  let holds = 0;
  const held: (() => void)[] = [];
  const clear = () => {
    if (transient) stream.write("\r\u001b[2K");
    transient = false;
  };
  const redraw = () => {
    clear();
    if (!stream.isTTY || running.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
      return;
    }
    if (holds > 0) return;
    ticker ??= setInterval(redraw, TICK_MS).unref();
    const steps = [...running.values()];
    const at = now();
    const one = steps.length === 1 ? steps[0] : undefined;
    const text =
      one !== undefined
        ? `${one.alone[0]} ${elapsed(at - one.startedAt)}${one.alone[1]}`
        : `running: ${steps.map((step) => `${step.beside} ${elapsed(at - step.startedAt)}`).join(" · ")}`;
    stream.write(paint.dim(fit(text, stream.columns)));
    transient = true;
  };
  const print = (line: string) => {
    clear();
    stream.write(`${line}\n`);
    redraw();
  };
  // Held while a question is on screen; written in order once it is answered.
  const soon = (write: () => void) => (holds > 0 ? held.push(write) : write());
  return {
    // Each line is worded at once, from the state as it is now: the driver keeps updating the
    // state's task list in place, and a line held while a question is on screen is told later.
    stepStarting: (effect, state) => {
      const task = taskStateOf(state, effect.taskId);
      const last = task?.lastDecision;
      const lastWords =
        last === null || last === undefined ? "" : ` · last ${last.action} (${last.reason})`;
      const beside = `${printable(effect.taskId)} #${attemptOf(state, task, effect.iteration)} ${effect.step}`;
      const alone = [`${beside} running`, `${spendOf(state, task)}${lastWords}`] as const;
      soon(() => {
        running.set(effect.taskId, { alone, beside, startedAt: now() });
        redraw();
      });
    },
    recorded: (event, state) => {
      const line = eventLine(event, state, paint);
      soon(() => {
        if (event.type === "step-finished" || event.type === "step-errored") {
          running.delete(event.taskId);
        }
        if (line !== null) print(line);
      });
    },
    notice: (message) => soon(() => print(paint.dim(printable(message)))),
    asking: async (question) => {
      holds += 1;
      clear();
      try {
        return await question();
      } finally {
        holds -= 1;
        if (holds === 0) {
          for (const write of held.splice(0)) write();
          redraw();
        }
      }
    },
  };
}
