import { formatNumber } from "../core/format-number.js";
import { describeEnd } from "../core/loop/attempt-of.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import type { LoopState, TaskState } from "../core/loop/loop-state.js";
import type { StepOutcome } from "../core/loop/step-outcome.js";
import { tone, type Paint } from "./paint.js";
import type { Progress } from "./progress.js";

/** Where progress goes: a stream and whether it is a live terminal. */
export interface ProgressStream {
  readonly write: (text: string) => void;
  readonly isTTY: boolean;
}

/** `2/3`: the attempt and the cap granted so far. */
function attemptOf(state: LoopState, task: TaskState | undefined, iteration: number): string {
  const plan = state.plan.tasks.find((candidate) => candidate.id === task?.id);
  const cap = (plan?.iterationControl.maxIterations ?? 0) + (task?.grant.iterations ?? 0);
  return `${iteration}/${cap}`;
}

/** ` · spend 1.2/5`, or nothing for a task that spent nothing and has no cap. */
function spendOf(state: LoopState, task: TaskState | undefined): string {
  const plan = state.plan.tasks.find((candidate) => candidate.id === task?.id);
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

/** One step's outcome in words. */
function outcomeWords(outcome: StepOutcome, paint: Paint): string {
  switch (outcome.step) {
    case "generate":
      return outcome.exitCode === 0 && !outcome.timedOut
        ? "done"
        : paint.red(`failed (${describeEnd(outcome)})`);
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

/** The line an event prints, or null for events that print nothing (a step starting). */
export function eventLine(event: LoopEvent, state: LoopState, paint: Paint): string | null {
  const task = state.tasks.find((candidate) => candidate.id === event.taskId);
  const head = `${event.taskId} ${paint.dim(`#${attemptOf(state, task, event.iteration)}`)}`;
  switch (event.type) {
    case "step-started":
      return null;
    case "step-finished":
      return `${head} ${event.outcome.step}: ${outcomeWords(event.outcome, paint)} ${paint.dim(seconds(event.outcome.durationMs))}`;
    case "decision-recorded": {
      const decision = event.decision;
      const said =
        decision.action === "retry"
          ? decision.feedback.summary
          : decision.action === "escalate"
            ? (decision.question.split("\n")[0] ?? "")
            : decision.message;
      const action = tone(paint, decision.action)(paint.bold(decision.action));
      return `${head} ${action} (${decision.reason})${spendOf(state, task)} — ${said}`;
    }
    case "answer-given": {
      const answer = event.answer;
      const said =
        answer.kind === "option"
          ? `option ${answer.option}`
          : answer.kind === "text"
            ? `guidance: ${answer.text}`
            : answer.kind;
      return `${head} answered: ${said}${answer.by === undefined ? "" : ` (by ${answer.by})`}`;
    }
  }
}

/**
 * Progress as lines: one per step result, decision and answer, so a CI log reads as the story
 * of the run. On a terminal a transient line shows the step that is running.
 */
export function lineProgress(stream: ProgressStream, paint: Paint): Progress {
  let transient = false;
  const clear = () => {
    if (transient) stream.write("\r\u001b[2K");
    transient = false;
  };
  return {
    stepStarting: (effect, state) => {
      if (!stream.isTTY) return;
      clear();
      const task = state.tasks.find((candidate) => candidate.id === effect.taskId);
      const last = task?.lastDecision;
      const lastWords =
        last === null || last === undefined ? "" : ` · last ${last.action} (${last.reason})`;
      stream.write(
        paint.dim(
          `${effect.taskId} #${attemptOf(state, task, effect.iteration)} ${effect.step} running…${spendOf(state, task)}${lastWords}`,
        ),
      );
      transient = true;
    },
    recorded: (event, state) => {
      const line = eventLine(event, state, paint);
      if (line === null) return;
      clear();
      stream.write(`${line}\n`);
    },
    notice: (message) => {
      clear();
      stream.write(`${paint.dim(message)}\n`);
    },
  };
}
