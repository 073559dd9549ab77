import type { Approval } from "../counters.js";
import { decide } from "../decide.js";
import type { Decision } from "../decision.js";
import { LoopgateError } from "../errors.js";
import type {
  AnswerGiven,
  DecisionRecorded,
  LoopEvent,
  StepErrored,
  StepFinished,
  StepResumed,
} from "./loop-event.js";
import type { LoopTask } from "./loop-plan.js";
import type { LoopSchedule, LoopState, TaskState } from "./loop-state.js";
import type { StepName } from "./step-outcome.js";
import { decideInputOf } from "./decide-input-of.js";
import { effectsOf, taskEffect } from "./effects-of.js";
import type { LoopEffect } from "./loop-effect.js";
import { answerOptions } from "./question-options.js";
import { cancelledTask } from "./cancel.js";
import { addGrant, answerGrant, grantBasis, withBudgetGrant } from "./answer-grant.js";
import { nextAttempt, started } from "./task-moves.js";
import { attemptsOf } from "../attempts-of.js";
import { withRestoreOptions } from "../standing/restore-options.js";
import { positionOf, rescheduled, standingOf } from "./schedule.js";

/** An event that does not carry out what the state waits for: a corrupt or foreign journal. */
function mismatch(event: LoopEvent, why: string): LoopgateError {
  return new LoopgateError(
    "INVALID_EVENT",
    `event ${event.type} ${event.effectId} does not fit the loop: ${why}`,
  );
}

/**
 * The task and plan an event concerns, found through the schedule's index, never by a scan.
 */
function taskOf(
  state: LoopState,
  event: LoopEvent,
): { position: number; task: TaskState; plan: LoopTask } {
  const position = positionOf(state.schedule, event.taskId);
  const task = position === undefined ? undefined : state.tasks[position];
  const plan = position === undefined ? undefined : state.plan.tasks[position];
  if (position === undefined || task === undefined || plan === undefined) {
    throw mismatch(event, "unknown task");
  }
  return { position, task, plan };
}

/**
 * The task after `event`, once the event is checked against what the task waits for. Tasks are
 * checked one by one, never against each other: events of different tasks may come in any order
 * (several run at once), and a journal replays whatever concurrency wrote it.
 */
export function taskAfter(plan: LoopTask, task: TaskState, event: LoopEvent): TaskState {
  const wanted = {
    "step-started": "run-step",
    "step-finished": "run-step",
    "step-errored": "run-step",
    "step-resumed": "resume-step",
    "decision-recorded": "record-decision",
    "answer-given": "await-answer",
    // Ends the task whatever it waits for.
    "task-cancelled": undefined,
    // Notes a restore beside whatever the task waits for.
    "attempt-restored": undefined,
  }[event.type];
  const effect = taskEffect(plan, task);
  if (effect?.id !== event.effectId) throw mismatch(event, "no such pending effect");
  if (wanted !== undefined && effect.kind !== wanted)
    throw mismatch(event, `the pending effect is ${effect.kind}`);
  return applyToTask(plan, started(task), event);
}

/** The step that follows `step` in a pass, given which steps the task has. */
function stepAfter(step: StepName, plan: LoopTask): StepName | "decide" {
  if (step === "generate" && plan.hasTest) return "test";
  if (step !== "review" && plan.hasReview) return "review";
  return "decide";
}

/** Moves the task to `deciding` with the decision for its current attempt. */
function decideNow(plan: LoopTask, task: TaskState, approval: Approval | null = null): TaskState {
  const input = decideInputOf(plan, task, approval);
  return { ...task, phase: { name: "deciding", input, decision: decide(input) } };
}

function onStepFinished(plan: LoopTask, task: TaskState, event: StepFinished): TaskState {
  const outcome = event.outcome;
  const phase = task.phase;
  if (phase.name !== "running" || phase.step !== outcome.step) {
    throw mismatch(event, `the task is not running its ${outcome.step} step`);
  }
  const measured: TaskState = {
    ...task,
    current: { ...task.current, [outcome.step]: outcome },
    spend: task.spend + outcome.spend,
    tokens: task.tokens + outcome.tokens,
    elapsedMs: task.elapsedMs + outcome.durationMs,
    generateRuns: task.generateRuns + (outcome.step === "generate" ? 1 : 0),
  };
  // A failed generate ends the attempt: testing or reviewing code that was not written is noise.
  const generateFailed =
    outcome.step === "generate" && (outcome.exitCode !== 0 || outcome.timedOut);
  const next = generateFailed ? "decide" : stepAfter(outcome.step, plan);
  return next === "decide"
    ? decideNow(plan, measured)
    : { ...measured, phase: { name: "running", step: next } };
}

/**
 * A step that could not be judged pauses the task. Nothing of the attempt is decided and no
 * feedback is made: the error is the task file's, not the agent's. What the step spent is real,
 * so its spend, tokens and time still count.
 */
function onStepErrored(task: TaskState, event: StepErrored): TaskState {
  const error = event.error;
  const phase = task.phase;
  if (phase.name !== "running" || phase.step !== error.step) {
    throw mismatch(event, `the task is not running its ${error.step} step`);
  }
  return {
    ...task,
    spend: task.spend + error.spend,
    tokens: task.tokens + error.tokens,
    elapsedMs: task.elapsedMs + error.durationMs,
    stepErrors: (task.stepErrors ?? 0) + 1,
    phase: { name: "step-error", step: error.step, error },
  };
}

/** The step that errored is to run again, the attempt otherwise as it was. */
function onStepResumed(task: TaskState, event: StepResumed): TaskState {
  const phase = task.phase;
  if (phase.name !== "step-error" || phase.step !== event.step) {
    throw mismatch(event, `the task's ${event.step} step did not error`);
  }
  return { ...task, phase: { name: "running", step: phase.step } };
}

/** Where a journaled decision takes the task. */
function onDecision(plan: LoopTask, task: TaskState, event: DecisionRecorded): TaskState {
  const decision: Decision = event.decision;
  const recorded: TaskState = {
    ...task,
    decisions: task.decisions + 1,
    lastInput: event.input,
    lastDecision: decision,
  };
  switch (decision.action) {
    case "proceed":
      return {
        ...recorded,
        phase: { name: "done", outcome: "proceeded", reason: decision.reason },
      };
    case "abort":
      return { ...recorded, phase: { name: "done", outcome: "aborted", reason: decision.reason } };
    case "retry":
      return nextAttempt(recorded, decision.iteration, { feedback: decision.feedback });
    case "wait":
      return task.polls < plan.reviewWait.maxPolls
        ? { ...recorded, polls: task.polls + 1, phase: { name: "running", step: "review" } }
        : { ...recorded, phase: { name: "awaiting-answer", decision, options: [] } };
    case "escalate":
      return {
        ...recorded,
        phase: {
          name: "awaiting-answer",
          decision,
          options: withRestoreOptions(
            withBudgetGrant(
              answerOptions(decision.question, decision.options),
              grantBasis(plan, task, decision.reason),
            ),
            attemptsOf(event.input.iterationCheck),
            task.current.generate?.commit !== undefined,
            plan.hasReview,
          ),
        },
      };
  }
}

function onAnswer(plan: LoopTask, task: TaskState, event: AnswerGiven): TaskState {
  const phase = task.phase;
  if (phase.name !== "awaiting-answer") throw mismatch(event, "the task is not paused");
  const answer = event.answer;
  const option =
    answer.kind === "option"
      ? phase.options.find((candidate) => candidate.id === answer.option)
      : undefined;
  if (answer.kind === "option" && option === undefined) {
    throw mismatch(event, `option ${answer.option} is not one of the question's options`);
  }
  const answered: TaskState = { ...task, answers: task.answers + 1 };
  // An option that says "Abort …" or "Approve …" goes through the approval gate like the flags.
  const kind = option === undefined ? answer.kind : option.effect;
  if (kind === "approve" || kind === "abort") {
    return decideNow(plan, answered, {
      decision: kind === "approve" ? "approve" : "reject",
      ...(answer.by === undefined ? {} : { by: answer.by }),
      ...(option !== undefined
        ? { note: option.label }
        : "note" in answer && answer.note !== undefined
          ? { note: answer.note }
          : {}),
    });
  }
  const decision = phase.decision;
  return nextAttempt(answered, task.iteration + 1, {
    // The old feedback predates the attempt that escalated; the answer says what to do now.
    feedback: null,
    answer: {
      answer,
      iteration: task.iteration,
      reason: decision.reason,
      question: decision.action === "escalate" ? decision.question : decision.message,
      ...(option === undefined ? {} : { label: option.label }),
      ...(option?.guidance === undefined ? {} : { guidance: option.guidance }),
      ...(decision.action === "escalate" ? { context: decision.context } : {}),
    },
    grant: addGrant(task.grant, answerGrant(grantBasis(plan, task, decision.reason), answer)),
  });
}

/** Applies an event to the task it concerns. */
function applyToTask(plan: LoopTask, task: TaskState, event: LoopEvent): TaskState {
  switch (event.type) {
    case "step-started":
      // Starting changes nothing (but that a task not started yet has begun): until its result
      // is journaled, the step is still to run.
      return task;
    case "step-finished":
      return onStepFinished(plan, task, event);
    case "step-errored":
      return onStepErrored(task, event);
    case "step-resumed":
      return onStepResumed(task, event);
    case "decision-recorded":
      return onDecision(plan, task, event);
    case "answer-given":
      return onAnswer(plan, task, event);
    case "task-cancelled":
      return cancelledTask(task);
    case "attempt-restored":
      return task;
  }
}

/** One event applied: the task it changed, at its position, and the schedule after it. */
export interface AppliedEvent {
  readonly position: number;
  readonly task: TaskState;
  readonly schedule: LoopSchedule;
}

/**
 * One event applied to the task it concerns, without building the next state: what `transition`
 * and `replay` share. It reads only that task and the schedule, so a fold costs O(events).
 * Throws `INVALID_EVENT` like `transition`.
 */
export function applyEvent(state: LoopState, event: LoopEvent): AppliedEvent {
  const { position, task, plan } = taskOf(state, event);
  const applied = taskAfter(plan, task, event);
  const schedule = rescheduled(
    state.schedule,
    position,
    standingOf(task.phase),
    standingOf(applied.phase),
  );
  return { position, task: applied, schedule };
}

/**
 * The loop, as a pure function: applies one event and returns the next state with the effects
 * it now waits for. No clock, no I/O: a driver journals events, folds them through here, and
 * carries out the effects — so any driver (SQLite, a durable workflow) runs the same loop.
 * Throws `INVALID_EVENT` for an event that does not carry out its task's next effect.
 */
export function transition(
  state: LoopState,
  event: LoopEvent,
): { state: LoopState; effects: LoopEffect[] } {
  const { position, task, schedule } = applyEvent(state, event);
  const tasks = [...state.tasks];
  tasks[position] = task;
  const next: LoopState = { ...state, tasks, schedule };
  return { state: next, effects: effectsOf(next) };
}
