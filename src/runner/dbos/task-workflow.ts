import { DBOS } from "@dbos-inc/dbos-sdk";
import type { Answer } from "../../core/loop/answer.js";
import { effectsOf } from "../../core/loop/effects-of.js";
import type { LoopEvent } from "../../core/loop/loop-event.js";
import type { RunRecord } from "../journal.js";
import { startLoop } from "../../core/loop/start-loop.js";
import { transition } from "../../core/loop/transition.js";
import {
  carrying,
  loadedRunOf,
  registerWorkWorkflow,
  taskPlanOf,
  workWorkflowId,
  type TaskWorkflowContext,
} from "./work-workflow.js";
import { workQueueOf, type WorkQueue } from "./queues.js";
import type { AwaitAnswer } from "../../core/loop/loop-effect.js";
import type { LoopState } from "../../core/loop/loop-state.js";
import { runSummary } from "../../core/loop/run-summary.js";
import { decodeTaskFile, planOf } from "../../wire/task-file.js";
import { Notifier } from "../notify/notifier.js";
import { isOver } from "../find-runs.js";
import { wholeRunState } from "./whole-run-state.js";

/** The name the task workflow is registered and enqueued under. */
export const TASK_WORKFLOW = "loopgate-task";

/** The DBOS topic a paused task receives its answer on. */
export const ANSWER_TOPIC = "answer";

/** The DBOS event a task workflow publishes its state under (see `TaskStatus`). */
export const STATUS_EVENT = "status";

/** A task workflow's state as published: the answer it waits for (its pause told), or running. */
export type TaskStatus = { readonly awaiting: string } | { readonly running: true };

/** How long one `recv` waits before the task waits again (a durable wait costs one row a turn). */
const ANSWER_WAIT_SECONDS = 3_600;

/**
 * How long a task waits for its work's message before it looks at the work workflow's state:
 * the work tells its end by a message (no polling); a work cancelled or failed tells nothing.
 */
const WORK_WAIT_SECONDS = 60;

/** DBOS's states of a workflow that has not ended (which DBOS refuses to rewind). */
export const UNENDED: ReadonlySet<string> = new Set(["PENDING", "ENQUEUED", "DELAYED"]);

/** DBOS's states of a work workflow that ended without events for its task. */
const ENDED_WITHOUT_EVENTS = new Set(["CANCELLED", "ERROR", "MAX_RECOVERY_ATTEMPTS_EXCEEDED"]);

/**
 * The workflow id of a run's `on_finish` notification: one id per run, so of the workers that
 * each see the run finished as their task ends, DBOS runs the notification once.
 */
export function finishWorkflowId(runId: number): string {
  return `loopgate-run-${runId}-finish`;
}

/** The workflow id of a task of a run: one workflow per task, the same on every worker. */
export function taskWorkflowId(runId: number, taskId: string): string {
  return `loopgate-run-${runId}-task-${taskId}`;
}

/** The run and task a task workflow id names (`taskWorkflowId`'s inverse), or undefined. */
export function taskOfTaskWorkflow(
  id: string,
): { readonly runId: number; readonly taskId: string } | undefined {
  const found = /^loopgate-run-(\d+)-task-(.+)$/.exec(id);
  const [, run, taskId] = found ?? [];
  return run === undefined || taskId === undefined ? undefined : { runId: Number(run), taskId };
}

/** How a task's workflow ended: the task finished, or it waits for a human or a fixed task file. */
export type TaskEnd = "done" | "step-error";

/**
 * Registers the task workflow with DBOS (before `DBOS.launch`): it folds one task's events
 * through the pure loop, from its start, and carries out each effect. Steps go to a work workflow
 * on the throttled work queue (`registerWorkWorkflow`), which returns the events they journaled;
 * decisions are journaled by a DBOS step here; a paused task waits here in `DBOS.recv` for its
 * answer. The task workflow runs on the task queue, which has no limit: its waits hold none of
 * the work queue's places. On recovery DBOS replays it: recorded steps and finished work
 * workflows give their events back, the work in flight runs on, so the fold reaches the same state.
 */
export function registerTaskWorkflow(
  context: TaskWorkflowContext,
): (runId: number, taskId: string) => Promise<TaskEnd> {
  const { journal } = context;
  // The run, and its own `--concurrency` if it was given one: its work goes on that limit's queue.
  const loadRun = DBOS.registerStep(
    async (runId: number) => ({
      run: await journal.run(runId),
      limit: (await journal.runLimit(runId)) ?? null,
    }),
    { name: "loopgate-load-run" },
  );
  // The task's story, and the work workflows of the task that ended without events: a `resume`
  // that rewound the task may find one of them at the place its story ends (see `workFrom`).
  const loadStory = DBOS.registerStep(
    async (runId: number, taskId: string) => {
      const story = (await journal.taskEvents(runId, taskId)).map((entry) => entry.event);
      const ended = await journal.pool.query<{ workflow_uuid: string }>(
        "SELECT workflow_uuid FROM dbos.workflow_status WHERE parent_workflow_id = $1 AND status = ANY($2)",
        [taskWorkflowId(runId, taskId), [...ENDED_WITHOUT_EVENTS]],
      );
      return { story, ended: ended.rows.map((row) => row.workflow_uuid) };
    },
    { name: "loopgate-load-story" },
  );
  const append = DBOS.registerStep(
    async (runId: number, taskSeq: number, event: LoopEvent) => {
      // `loopgate answer` journals its answer at the same place, with this note, as it sends it.
      const meta = event.type === "answer-given" ? { source: "loopgate answer" } : null;
      await journal.append(runId, taskSeq, event, meta);
      return event;
    },
    { name: "loopgate-append" },
  );
  // DBOS's own `getWorkflowStatus` inside a workflow holds a connection of DBOS's pool while it
  // takes another: ten tasks asking at once (the pool's size) wait for each other for good. This
  // is asked only when a work's message did not come.
  const workState = DBOS.registerStep(
    async (workflowId: string) =>
      (
        await journal.pool.query<{ status: string }>(
          "SELECT status FROM dbos.workflow_status WHERE workflow_uuid = $1",
          [workflowId],
        )
      ).rows[0]?.status ?? "",
    { name: "loopgate-work-state" },
  );
  const work = registerWorkWorkflow(context);
  /** The whole run's state, every task's events folded. */
  const runStateOf = (run: RunRecord): Promise<LoopState> =>
    wholeRunState(journal, planOf(decodeTaskFile(run.document)), run.id);
  /** A notifier of `run`, its targets from the task file as this process has it. */
  const notifierOf = (run: RunRecord): Notifier => {
    const notifier = new Notifier(context.store, context.warn);
    notifier.configure(loadedRunOf(run, context));
    return notifier;
  };
  // A step: a replay after the pause was told finds it recorded and tells nobody again.
  const notifyPause = DBOS.registerStep(
    async (run: RunRecord, effect: AwaitAnswer) => {
      const notifier = notifierOf(run);
      notifier.paused(effect);
      await notifier.settled();
    },
    { name: "loopgate-notify-pause" },
  );
  const runFinished = DBOS.registerStep(async (run: RunRecord) => isOver(await runStateOf(run)), {
    name: "loopgate-run-finished",
  });
  const notifyFinish = DBOS.registerWorkflow(
    async (run: RunRecord) => {
      await DBOS.runStep(
        async () => {
          const notifier = notifierOf(run);
          notifier.finished(runSummary(await runStateOf(run)));
          await notifier.settled();
        },
        { name: "loopgate-notify-finish" },
      );
    },
    { name: "loopgate-finish" },
  );

  return DBOS.registerWorkflow(
    async (runId: number, taskId: string): Promise<TaskEnd> => {
      context.gate.enter();
      try {
        return await carryOut(runId, taskId);
      } finally {
        context.gate.leave();
      }
    },
    { name: TASK_WORKFLOW },
  );

  /**
   * The events of the task's work from the end of `story` on, carried out by a work workflow on
   * the work queue. A work of its id may have ended without events before this task workflow
   * started (`ended`: a `resume` rewound the task after it): the next attempt's id is used then.
   * So is it when the work is cancelled (a cancel that `resume` took back).
   */
  async function workFrom(
    run: RunRecord,
    queue: WorkQueue,
    taskId: string,
    story: readonly LoopEvent[],
    ended: ReadonlySet<string>,
  ): Promise<readonly LoopEvent[]> {
    for (let attempt = 0; ; attempt += 1) {
      const id = workWorkflowId(run.id, taskId, story.length, attempt);
      if (ended.has(id)) continue;
      const handle = await DBOS.startWorkflow(work, {
        workflowID: id,
        queueName: queue.name,
        ...(queue.partition === undefined
          ? {}
          : { enqueueOptions: { queuePartitionKey: queue.partition } }),
      })(taskWorkflowId(run.id, taskId), run, taskId, [...story]);
      // Waiting for the work is nothing a stop has to wait for: the work counts itself.
      context.gate.leave();
      try {
        for (;;) {
          const told = await DBOS.recv<LoopEvent[]>(id, WORK_WAIT_SECONDS);
          if (told !== null) return told;
          if (!UNENDED.has(await workState(id))) break;
        }
        return await handle.getResult();
      } catch (error) {
        if ((await workState(id)) !== "CANCELLED") throw error;
      } finally {
        context.gate.enter();
      }
    }
  }

  /** The task's story from its start, or from where a recovery replays it. */
  async function carryOut(runId: number, taskId: string): Promise<TaskEnd> {
    const { run, limit } = await loadRun(runId);
    const queue = workQueueOf(runId, limit ?? undefined);
    let state = startLoop(taskPlanOf(run, taskId)).state;
    // What the task journaled before this workflow started (nothing, unless `resume` rewound
    // it after a step error): folded, so the workflow carries the task on from there.
    const loaded = await loadStory(runId, taskId);
    const story = [...loaded.story];
    const ended = new Set(loaded.ended);
    for (const event of story) state = transition(state, event).state;
    const told = new Set<string>();
    // Only a run that asks for `on_finish` reads the whole run as each task ends.
    const tellsFinish = decodeTaskFile(run.document).onFinish !== undefined;
    for (;;) {
      // A stopping worker starts nothing new: the task is handed back to the queue.
      if (context.gate.isClosed) await context.gate.park();
      const effect = effectsOf(state)[0];
      let events: readonly LoopEvent[];
      switch (effect?.kind) {
        case undefined:
        case "finish":
          // Each task looks once its end is journaled, so the last to end sees every end.
          if (tellsFinish && (await runFinished(run))) {
            // Waited for: the process must not stop before the notification is out.
            const finish = await DBOS.startWorkflow(notifyFinish, {
              workflowID: finishWorkflowId(runId),
            })(run);
            await finish.getResult();
          }
          return "done";
        case "resume-step":
          return "step-error";
        case "run-step":
          events = await workFrom(run, queue, taskId, story, ended);
          break;
        case "record-decision":
          events = [
            await append(runId, story.length, {
              type: "decision-recorded",
              ...carrying(effect),
              input: effect.input,
              decision: effect.decision,
            }),
          ];
          break;
        case "await-answer": {
          // A wait that timed out waits again: its pause was told already.
          if (!told.has(effect.id)) {
            await notifyPause(run, effect);
            told.add(effect.id);
          }
          await DBOS.setEvent<TaskStatus>(STATUS_EVENT, { awaiting: effect.id });
          // The answer command checks an answer before it sends it here. A task waiting for
          // one is nothing a stop has to wait for.
          context.gate.leave();
          const answer = await DBOS.recv<Answer>(ANSWER_TOPIC, ANSWER_WAIT_SECONDS).finally(() =>
            context.gate.enter(),
          );
          if (answer === null) continue;
          events = [
            await append(runId, story.length, {
              type: "answer-given",
              ...carrying(effect),
              answer,
            }),
          ];
          await DBOS.setEvent<TaskStatus>(STATUS_EVENT, { running: true });
          break;
        }
      }
      for (const event of events) state = transition(state, event).state;
      story.push(...events);
    }
  }
}
