import type { TaskOutcome, TaskSummary } from "../core/loop/run-summary.js";
import { STEP_ERROR } from "../core/loop/step-error.js";
import type { AwaitingBrief, StepErrorBrief } from "../core/loop/task-brief.js";
import { oneLine } from "../core/one-line.js";
import { printable } from "../core/printable.js";
import type { RunStatus } from "../core/loop/run-status.js";
import { columns } from "../runner/summary-table.js";

/** One run as `status` shows it, and as `status --json` prints it. */
export interface RunView {
  readonly run: number;
  readonly startedAt: string;
  readonly taskFile: string;
  readonly status: RunStatus;
  readonly active: string | null;
  readonly awaiting: AwaitingBrief | null;
  readonly awaitingTasks: readonly AwaitingBrief[];
  readonly stepErrors: readonly StepErrorBrief[];
  readonly tasks: readonly TaskSummary[];
  /** On a PostgreSQL store, the workers (DBOS executor ids) holding its unfinished tasks. */
  readonly workers?: readonly WorkerView[];
}

/** A task a worker holds, and the state of its workflow (`PENDING`, `ENQUEUED`). */
export interface WorkerView {
  readonly taskId: string;
  readonly executor: string;
  readonly status: string;
}

/** Runs of at most this many tasks name each task and its outcome in their row. */
export const TASKS_NAMED = 10;
/** Paused and failed tasks told one by one per run, unless `--all`; the rest are counted. */
export const TASKS_TOLD = 20;
/** Characters of a question's first line shown under its task's line. */
const QUESTION_SHOWN = 160;

/** Outcomes in the order they are counted: done first, then paused, then still to move. */
const OUTCOMES: readonly TaskOutcome[] = [
  "proceeded",
  "aborted",
  "cancelled",
  "awaiting-answer",
  "step-error",
  "running",
  "pending",
];

/** The tasks of each outcome, in OUTCOMES order, each with its count per deciding condition. */
function byOutcome(tasks: readonly TaskSummary[]) {
  const groups = new Map<TaskOutcome, { count: number; reasons: Map<string, number> }>();
  for (const task of tasks) {
    const group = groups.get(task.outcome) ?? { count: 0, reasons: new Map<string, number>() };
    group.count += 1;
    const reason = task.reason ?? "-";
    group.reasons.set(reason, (group.reasons.get(reason) ?? 0) + 1);
    groups.set(task.outcome, group);
  }
  return OUTCOMES.flatMap((outcome) => {
    const group = groups.get(outcome);
    return group === undefined ? [] : [{ outcome, ...group }];
  });
}

/** The row's tasks cell: each task named with its outcome, or, past TASKS_NAMED, counts. */
function tasksCell(run: RunView): string {
  if (run.tasks.length <= TASKS_NAMED) {
    return run.tasks.map((task) => `${task.taskId}:${task.outcome}`).join(" ");
  }
  const counts = byOutcome(run.tasks).map(({ outcome, count }) => `${count} ${outcome}`);
  return `${run.tasks.length} tasks: ${counts.join(", ")}`;
}

/** At most `limit` of `items` (all when `limit` is undefined), and how many are left out. */
function told<T>(items: readonly T[], limit: number | undefined): [readonly T[], number] {
  if (limit === undefined || items.length <= limit) return [items, 0];
  return [items.slice(0, limit), items.length - limit];
}

/** Counts by outcome and condition, the failed tasks by name, and every task with `all`. */
function countsText(run: RunView, all: boolean): string {
  const groups = byOutcome(run.tasks);
  const rows = groups.map(({ outcome, count, reasons }) => [
    outcome,
    String(count),
    [...reasons].map(([reason, times]) => `${reason} ${times}`).join(", "),
  ]);
  let text = `\nrun ${run.run}: ${run.tasks.length} tasks\n`;
  text += columns(["outcome", "tasks", "by condition"], rows).replace(/^(?=.)/gm, "  ");
  if (all) {
    const every = run.tasks.map((task) => [
      task.taskId,
      task.outcome,
      String(task.iterations),
      task.reason ?? "-",
    ]);
    return `${text}\n${columns(["task", "outcome", "iterations", "condition"], every).replace(/^(?=.)/gm, "  ")}`;
  }
  for (const outcome of ["aborted", "cancelled"] as const) {
    const failed = run.tasks.filter((task) => task.outcome === outcome);
    const [named, more] = told(failed, TASKS_TOLD);
    if (named.length === 0) continue;
    const rest = more === 0 ? "" : `, … and ${more} more (loopgate status --all)`;
    text += `  ${outcome}: ${named.map((task) => task.taskId).join(", ")}${rest}\n`;
  }
  return text;
}

/** A paused task's lines: why, the question, the options, and the command that answers it. */
function awaitingText(run: number, awaiting: AwaitingBrief, hint: string): string {
  const options = awaiting.options.map((option) => `${option.id}. ${option.label}`).join("; ");
  // The question's first line says what it asks; the attempts it sums up follow in `explain`.
  const asked = oneLine(awaiting.question.trimStart().split("\n")[0] ?? "");
  const question = asked.length > QUESTION_SHOWN ? `${asked.slice(0, QUESTION_SHOWN - 1)}…` : asked;
  return `\nrun ${run}: ${awaiting.taskId} awaits an answer after attempt ${awaiting.iteration} (${awaiting.reason})${options === "" ? "" : ` — options: ${options}`}\n${question === "" ? "" : `  ${question}\n`}  loopgate answer ${awaiting.taskId} --option N | --text "…" | --approve | --abort${hint}\n`;
}

/**
 * What `status` prints: a row per run, then per run with more than TASKS_NAMED tasks the counts
 * by outcome and condition; then the paused tasks with their questions. Without `all`, at most
 * TASKS_TOLD paused or failed tasks are told one by one per run and the others are counted,
 * so a run of thousands of tasks stays a screenful; `all` tells every task. `hint` is the
 * journal option the printed commands need.
 */
export function statusText(runs: readonly RunView[], all: boolean, hint: string): string {
  const rows = runs.map((run) => [
    String(run.run),
    run.startedAt.slice(0, 19).replace("T", " "),
    run.status,
    tasksCell(run),
    run.taskFile,
  ]);
  let text = columns(["run", "started", "status", "tasks", "task file"], rows);
  const limit = all ? undefined : TASKS_TOLD;
  for (const run of runs) {
    if (run.tasks.length > TASKS_NAMED) text += countsText(run, all);
    const [errored, moreErrored] = told(run.stepErrors, limit);
    for (const { taskId, iteration, error } of errored) {
      text += `\nrun ${run.run}: ${taskId} is paused by a step error at attempt ${iteration} (${STEP_ERROR}): ${error.message}\n  fix the task file, then: loopgate resume --run ${run.run}\n`;
    }
    if (moreErrored > 0) {
      text += `\nrun ${run.run}: … and ${moreErrored} more tasks paused by a step error (loopgate status --all)\n`;
    }
    const [held, moreHeld] = told(run.workers ?? [], limit);
    if (held.length > 0) {
      text += `\nrun ${run.run}: held by workers: ${held.map((w) => `${w.taskId} → ${w.executor}`).join(", ")}${moreHeld > 0 ? ` and ${moreHeld} more` : ""}\n`;
    }
    const [awaited, moreAwaited] = told(run.awaitingTasks, limit);
    for (const awaiting of awaited) text += awaitingText(run.run, awaiting, hint);
    if (moreAwaited > 0) {
      text += `\nrun ${run.run}: … and ${moreAwaited} more tasks await an answer (loopgate status --all lists each, --json with its options)\n`;
    }
  }
  return printable(text);
}
