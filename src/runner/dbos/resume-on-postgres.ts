import { hostname } from "node:os";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { nextEffect } from "../../core/loop/effects-of.js";
import { answersFrom } from "../answer-source.js";
import { alive } from "../lease.js";
import { loadRun, type LoadedRun } from "../load-run.js";
import type { GivenAnswers } from "../session.js";
import { withOptionRestore } from "../workspace/restore-of.js";
import type { PostgresRunStore } from "../store/postgres/postgres-run-store.js";
import { workOnRun, type PostgresRunResult } from "./dbos-driver.js";
import type { PostgresJournal } from "./postgres-journal.js";
import { TASK_QUEUE, workQueueOf } from "./queues.js";
import { handBackTasks } from "./task-moves.js";
import { taskWorkflowId, UNENDED } from "./task-workflow.js";

/** What `resume` does with a run on a PostgreSQL store. */
export interface PostgresResumeRequest {
  readonly store: PostgresRunStore;
  readonly loaded: LoadedRun;
  /** The fixed task file as read, secrets and all (`resume --task-file`). */
  readonly document?: unknown;
  readonly concurrency?: number | undefined;
  /** Where resume says what it moved and what it left to a live worker. */
  readonly say: (line: string) => void;
  /** Where DBOS's warnings and errors go. */
  readonly warn: (line: string) => void;
  /** Answers given up front (`--answers FILE`): each paused task takes its next one. */
  readonly answers?: GivenAnswers | undefined;
}

/**
 * Whether `executor` is a `run` or `resume` of this host that is gone: their executor ids are
 * `HOST-PID`. A worker's id says nothing of its life (until workers report heartbeats), so only
 * these are taken for dead.
 */
function deadHere(executor: string): boolean {
  const prefix = `${hostname()}-`;
  if (!executor.startsWith(prefix)) return false;
  const pid = executor.slice(prefix.length);
  return /^\d+$/.test(pid) && !alive(Number(pid));
}

/**
 * Gives each task `result` left paused its next answer from the answers file, as `loopgate
 * answer` gives one (sent to the task's workflow and journaled, the file as its source); returns
 * how many it gave. A task the file has no more answers for stays paused.
 */
export async function giveFileAnswers(
  store: PostgresRunStore,
  result: PostgresRunResult,
  answers: GivenAnswers,
): Promise<number> {
  const source = answersFrom(answers.byTask, answers.source);
  const loaded = loadRun(await store.read({ run: result.runId }), result.runId);
  let given = 0;
  for (const effect of result.paused) {
    const task = loaded.state.tasks.find((candidate) => candidate.id === effect.taskId);
    const sourced = task === undefined ? null : await source(effect, task);
    if (sourced === null) continue;
    const place = loaded.entries.filter((entry) => entry.event.taskId === effect.taskId).length;
    const answer = withOptionRestore(sourced.answer, effect.options);
    const base = { effectId: effect.id, taskId: effect.taskId, iteration: effect.iteration };
    const event = { type: "answer-given" as const, ...base, answer };
    const meta = { source: sourced.source };
    // Journaled before it is sent: the woken workflow journals the same event at the same place,
    // noting `loopgate answer` as its source; the first one is kept, and this one names the file.
    await store.append(result.runId, event, meta, place);
    await store.give(result.runId, event, meta, place);
    given += 1;
  }
  return given;
}

/**
 * The work workflow a task workflow started last, when a cancel ended it: the one the task waits
 * for. DBOS records a child's start among its parent's steps, in the child's own transaction.
 */
async function cancelledWork(journal: PostgresJournal, taskWorkflow: string) {
  const found = await journal.pool.query<{ id: string; status: string }>(
    `SELECT w.workflow_uuid AS id, w.status
       FROM dbos.operation_outputs o JOIN dbos.workflow_status w ON w.workflow_uuid = o.child_workflow_id
      WHERE o.workflow_uuid = $1 ORDER BY o.function_id DESC LIMIT 1`,
    [taskWorkflow],
  );
  const last = found.rows[0];
  return last?.status === "CANCELLED" ? last.id : undefined;
}

/**
 * Carries a run on from the store, DBOS's way. For each unfinished task: a step error is
 * journaled as resumed and its workflow (ended, or cancelled first when a `run` handed it back
 * unfinished) rewound to its start, so it folds the task's journal and runs the step again
 * with the run's task file as it is now; a workflow that
 * ended in error is rewound the same way; a cancelled one (with the work it waited for), or one
 * held by a dead `run` or `resume` of this host, is put back on the task queue, where DBOS
 * replays it (its finished steps not run again). Then this process works on the run until no
 * task can move, as `run` does, answering from the answers file (`--answers`) each task that
 * pauses while the file has an answer for it. A task another worker holds is left to it.
 */
export async function resumeOnPostgres(request: PostgresResumeRequest): Promise<PostgresRunResult> {
  const { store, loaded, say } = request;
  const runId = loaded.run.id;
  const client = await store.dbos();
  const unfinished = loaded.state.tasks.filter((task) => task.phase.name !== "done");
  for (const task of unfinished) {
    const id = taskWorkflowId(runId, task.id);
    const effect = nextEffect(loaded.state, task);
    if (effect?.kind === "resume-step") {
      const place = loaded.entries.filter((entry) => entry.event.taskId === task.id).length;
      const base = { effectId: effect.id, taskId: task.id, iteration: effect.iteration };
      await store.journal.append(runId, place, {
        type: "step-resumed",
        ...base,
        step: effect.step,
      });
    }
    const row = await client.getWorkflow(id);
    const status = row?.status;
    const executor = row?.executorId;
    // A `run` that ended before DBOS marked the step-error task's workflow done handed it back
    // unfinished: replayed, it would fold its recorded story (without the resume) and end again
    // while the journal says the step runs next. It is cancelled and rewound like an ended one.
    const stepError = effect?.kind === "resume-step" && status !== undefined;
    if (stepError && UNENDED.has(status)) {
      await client.cancelWorkflows([id], { cancelChildren: true });
    }
    if (status === "SUCCESS" || status === "ERROR" || stepError) {
      await client.rewindWorkflow(id, { startStep: 0, queueName: TASK_QUEUE });
      say(`run ${runId}: ${task.id} goes on from its journal (its workflow had ended)`);
    } else if (status === "PENDING" && executor !== undefined && deadHere(executor)) {
      // Its work in flight too: left on the dead runner, it would wait out the runner's lease
      // (30 s by default) before a live worker moved it. The pid says the runner is gone.
      await handBackTasks(store.journal.pool, executor, async (ids, queueName) => {
        await client.resumeWorkflows([...ids], { queueName });
      });
      say(`run ${runId}: ${task.id} is back on the task queue (its runner ${executor} is gone)`);
    } else if (status === "CANCELLED") {
      // Its cancelled work goes back on its run's work queue too: replayed, it runs its steps
      // from the one in flight and tells the task at once, as if never cancelled.
      const work = await cancelledWork(store.journal, id);
      if (work !== undefined) {
        const queue = workQueueOf(runId, await store.journal.runLimit(runId));
        await client.resumeWorkflow(work, { queueName: queue.name });
      }
      await client.resumeWorkflow(id, { queueName: TASK_QUEUE });
      say(`run ${runId}: ${task.id} is back on the task queue (its workflow was cancelled)`);
    } else if (status === "PENDING") {
      say(`run ${runId}: ${task.id} is held by worker ${executor}: left to it`);
    }
  }
  const { answers } = request;
  const answer =
    answers === undefined
      ? undefined
      : async (waiting: PostgresRunResult) => (await giveFileAnswers(store, waiting, answers)) > 0;
  return workOnRun(store.journal, runId, loaded.plan, { ...request, url: store.url, answer }, () =>
    Promise.resolve(
      unfinished.map((task) => DBOS.retrieveWorkflow(taskWorkflowId(runId, task.id))),
    ),
  );
}
