import type { Answer, ExtraRoom } from "../../core/loop/answer.js";
import type { AwaitAnswer } from "../../core/loop/loop-effect.js";
import type { LoopState } from "../../core/loop/loop-state.js";
import { awaitedAnswers, nextEffect } from "../../core/loop/effects-of.js";
import { transition } from "../../core/loop/transition.js";
import { isHookSessionDocument } from "../../hook/hook-session.js";
import { isDamage, loadTask, type LoadedRun } from "../../runner/load-run.js";
import { crashPointsFrom } from "../../runner/workspace/crash-points.js";
import { restoreOf, withOptionRestore } from "../../runner/workspace/restore-of.js";
import { Workspaces } from "../../runner/workspace/workspaces.js";
import { whoAmI } from "../../runner/session.js";
import { runOption } from "../../runner/pick-run.js";
import { openRunStore } from "../../runner/store/open-run-store.js";
import type { RunReader, RunStore } from "../../runner/store/run-store.js";
import type { JournalError } from "../../runner/journal-error.js";
import { InputError } from "../../wire/input-error.js";
import { redactStrings } from "../../core/redaction/redact-strings.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { storeHelp, STORE_OPTIONS } from "../store-options.js";
import { SkippedRuns } from "../skipped-runs.js";
import { UsageError } from "../usage-error.js";

/** `--extra-budget X` and `--extra-iterations N`, checked. */
function extraRoomOf(values: { "extra-budget"?: string; "extra-iterations"?: string }): ExtraRoom {
  const budget = values["extra-budget"];
  const iterations = values["extra-iterations"];
  if (
    budget !== undefined &&
    !(/^\d+(?:\.\d+)?$/.test(budget) && Number.isFinite(Number(budget)))
  ) {
    throw new UsageError(
      `answer: --extra-budget expects an amount (0 or more, like 2.5), got ${JSON.stringify(budget)}`,
    );
  }
  if (iterations !== undefined && !(/^\d{1,6}$/.test(iterations) && Number(iterations) >= 1)) {
    throw new UsageError(
      `answer: --extra-iterations expects a whole number of attempts (1 or more), got ${JSON.stringify(iterations)}`,
    );
  }
  return {
    ...(iterations === undefined ? {} : { extraIterations: Number(iterations) }),
    ...(budget === undefined ? {} : { extraBudget: Number(budget) }),
  };
}

/** The flags an answer is made of. */
interface AnswerFlags {
  option?: string;
  text?: string;
  approve?: boolean;
  abort?: boolean;
  note?: string;
  by?: string;
  restore?: string;
  "extra-budget"?: string;
  "extra-iterations"?: string;
}

/**
 * `--restore N` on its own (continue from attempt N), with `--text` (continue with that
 * guidance) or with `--abort` (stop there): the answer with `restore` set.
 */
function restoreAnswerOf(values: AnswerFlags, restore: string): Answer {
  if (!/^\d{1,9}$/.test(restore) || Number(restore) < 1) {
    throw new UsageError(
      `answer: --restore expects an attempt number, got ${JSON.stringify(restore)}`,
    );
  }
  if (values.option !== undefined || values.approve === true) {
    throw new UsageError(
      "answer: --restore goes alone, with --text (guidance) or with --abort (stop there)",
    );
  }
  const attempt = Number(restore);
  const continued =
    values.abort === true || values.text !== undefined
      ? plainAnswerOf(values)
      : plainAnswerOf({ ...values, text: `Attempt ${attempt}'s code is restored: go on from it.` });
  // Never approve: plainAnswerOf gives text or abort here, both of which restore.
  return continued.kind === "approve" ? continued : { ...continued, restore: attempt };
}

/** The answer the flags describe: --restore N, or else exactly one of --option, --text, --approve, --abort. */
function answerOf(values: AnswerFlags): Answer {
  return values.restore === undefined
    ? plainAnswerOf(values)
    : restoreAnswerOf(values, values.restore);
}

/** The answer of exactly one of --option, --text, --approve, --abort. */
function plainAnswerOf(values: AnswerFlags): Answer {
  const given = (["option", "text", "approve", "abort"] as const).filter(
    (flag) => values[flag] !== undefined && values[flag] !== false,
  );
  if (given.length !== 1) {
    throw new UsageError(
      'answer: give exactly one of --option ID, --text "…", --approve, --abort, --restore N (see loopgate answer --help)',
    );
  }
  const by = { by: values.by ?? whoAmI() };
  const note = values.note === undefined ? {} : { note: values.note };
  const extra = extraRoomOf(values);
  if (Object.keys(extra).length > 0 && (values.approve === true || values.abort === true)) {
    throw new UsageError(
      "answer: --extra-budget and --extra-iterations go with --option or --text (an answer that continues)",
    );
  }
  if (values.option !== undefined) {
    if (!/^\d+$/.test(values.option)) {
      throw new UsageError(
        `answer: --option expects an option number, got ${JSON.stringify(values.option)}`,
      );
    }
    return { kind: "option", option: Number(values.option), ...extra, ...by };
  }
  if (values.text !== undefined) {
    if (values.text.trim() === "") throw new UsageError("answer: --text must not be empty");
    return { kind: "text", text: values.text, ...extra, ...by };
  }
  return { kind: values.approve === true ? "approve" : "abort", ...note, ...by };
}

/** The room the answer granted, as `; grants 2 more attempts, 1.5 more budget`; "" for none. */
function grantedText(before: LoopState, after: LoopState, taskId: string): string {
  const grantOf = (state: LoopState) => state.tasks.find((task) => task.id === taskId)?.grant;
  const [was, now] = [grantOf(before), grantOf(after)];
  if (was === undefined || now === undefined) return "";
  const attempts = now.iterations - was.iterations;
  const budget = Math.round((now.budget - was.budget) * 1e6) / 1e6;
  const parts = [
    ...(attempts > 0 ? [`${attempts} more attempt${attempts === 1 ? "" : "s"}`] : []),
    ...(budget > 0 ? [`${budget} more budget`] : []),
  ];
  return parts.length === 0 ? "" : `; grants ${parts.join(", ")}`;
}

/**
 * Why a task that does not await an answer may look as if it did: its answer asked for a
 * restore that was cut off (`loopgate restore` killed part-way), which resume finishes.
 */
function cutOffRestore(awaiting: Awaiting, taskId: string, journalPath: string): string {
  const attempt = new Workspaces(awaiting.loaded, journalPath).pendingRestore(taskId);
  return attempt === undefined
    ? ""
    : `; its answer in run ${awaiting.runId} restores attempt ${attempt}, and that restore was cut off: loopgate resume finishes it`;
}

/** A run and the question its task waits on, if it waits on one. */
interface Awaiting {
  readonly runId: number;
  readonly loaded: LoadedRun;
  readonly state: LoopState;
  readonly effect: AwaitAnswer | undefined;
  /** The run is an agent's Stop-hook session: the agent's next stop carries it on, not resume. */
  readonly hook: boolean;
}

/** The task's state in the run, rebuilt from its events alone, and the question it waits on there. */
function awaitingIn(journal: RunReader, runId: number, taskId: string): Awaiting {
  const loaded = loadTask(journal, runId, taskId);
  const { run, state } = loaded;
  const effect = awaitedAnswers(state).find((awaited) => awaited.taskId === taskId);
  return { runId, loaded, state, effect, hook: isHookSessionDocument(run.document) };
}

/**
 * The run (latest first, among those the task index says have its events) in which the task
 * waits for an answer, the task rebuilt once in each; a damaged one on the way is handed to
 * `skipped` and left out.
 */
function runAwaiting(
  journal: RunReader,
  taskId: string,
  skipped: (error: JournalError) => void,
): Awaiting {
  let latest: Awaiting | undefined;
  for (const runId of journal.runIdsWithTask(taskId).reverse()) {
    try {
      const found = awaitingIn(journal, runId, taskId);
      if (found.effect !== undefined) return found;
      latest ??= found;
    } catch (error) {
      if (!isDamage(error)) throw error;
      skipped(error);
    }
  }
  throw new InputError(
    "TASK",
    `no run has task ${JSON.stringify(taskId)} awaiting an answer (see loopgate status)${latest === undefined ? "" : cutOffRestore(latest, taskId, journal.path)}`,
  );
}

/** Refuses (exit 2) a restore of an attempt the task has no commit of. */
function checkRestorable(workspaces: Workspaces, taskId: string, attempt: number): void {
  const commits = workspaces.attemptCommits(taskId);
  if (commits.has(attempt)) return;
  const known = [...commits.keys()];
  throw new InputError(
    "--restore",
    known.length === 0
      ? `${taskId} has no attempt commits: only a task with a git workspace can be restored (docs/workspaces.md)`
      : `${taskId} has no commit of attempt ${attempt}; its attempts with commits are ${known.join(", ")}`,
  );
}

/** Resets the task's workspace as its journaled answer asked and journals the restore; says what it did. */
async function restoreNow(
  store: RunStore,
  loaded: LoadedRun,
  runId: number,
  after: LoopState,
  workspaces: Workspaces,
  taskId: string,
): Promise<string> {
  const task = after.tasks.find((candidate) => candidate.id === taskId);
  const pending = task === undefined ? undefined : nextEffect(after, task);
  const attempt = workspaces.pendingRestore(taskId);
  if (pending === undefined || attempt === undefined) return "";
  const restored = await workspaces.restore(taskId, attempt);
  const base = { effectId: pending.id, taskId, iteration: pending.iteration };
  // Its place: after the task's events and the answer just journaled.
  const place = loaded.entries.filter((entry) => entry.event.taskId === taskId).length + 1;
  const event = { type: "attempt-restored" as const, ...base, ...restored };
  await store.append(
    runId,
    event,
    { source: "loopgate answer" },
    place,
    transition(after, event).state,
  );
  const kept =
    restored.tag === undefined ? "" : `; the later attempts are kept as tag ${restored.tag}`;
  return `restored attempt ${attempt} (commit ${restored.commit.slice(0, 12)})${kept}\n`;
}

/** `loopgate answer`: records a human's answer to a paused task. */
export const answerCommand: Command = {
  help: `Usage: loopgate answer TASK (--option ID | --text "…" | --approve | --abort)
                       [--restore N] [--note TEXT] [--by NAME] [--run ID]
                       [--store URL | --db PATH]

Records the answer to a task that paused for a human (exit code 3 of run or
resume); loopgate resume then carries the run on.

  --option ID    continue with the question's numbered option ID
  --text "…"     continue with free-text guidance
  --approve      accept the attempt as it is: the task proceeds (APPROVAL_GATE)
  --abort        give up on the task; the run goes on with the next task
  --restore N    first reset the task's git workspace to attempt N's commit
                 (later attempts kept as a tag), then continue from it: alone,
                 or with --text for guidance, or with --abort to stop there
  --note TEXT    a note for --approve or --abort, kept in the journal
  --extra-budget X      with --option or --text: add X to the task's
                 budget_cap instead of the on_answer default
  --extra-iterations N  with --option or --text: N more attempts instead of
                 the on_answer default
  --by NAME      who answers (default: your user name)
  --run ID       the run (default: the latest run where TASK awaits an answer)
${storeHelp(17)}

On a PostgreSQL store the answer is sent to the task's workflow (DBOS), which
journals it when it receives it and carries the task on in its worker; if no
live worker holds the task, loopgate resume moves it on.

On --option and --text, the answer reaches the task's next generate step
(LOOPGATE_ANSWER_FILE) and the task's caps are re-granted by its on_answer
policy (default: 2 more attempts; on a task paused because its budget ran
out, also the budget those attempts are expected to cost: its mean attempt
cost so far times the attempts granted, shown in the options), unless
--extra-budget / --extra-iterations say otherwise.

Looking for TASK, a damaged run is left out and named on stderr.

Exit codes: 0 recorded, 2 invalid arguments (no such task or option), 5 the run
or journal is damaged (see loopgate doctor), 1 internal error.
`,
  async run({ args, stdout, stderr }) {
    const { values, positionals } = parseOptions(
      "answer",
      args,
      {
        option: { type: "string" },
        text: { type: "string" },
        approve: { type: "boolean" },
        abort: { type: "boolean" },
        note: { type: "string" },
        by: { type: "string" },
        "extra-budget": { type: "string" },
        "extra-iterations": { type: "string" },
        restore: { type: "string" },
        run: { type: "string" },
        ...STORE_OPTIONS,
      },
      1,
    );
    const taskId = positionals[0];
    if (taskId === undefined)
      throw new UsageError("answer: missing TASK (see loopgate answer --help)");
    // Redacted before it is journaled: the answer reaches history, export and the next step.
    const flagged = redactStrings(answerOf(values));
    const chosen = runOption(values.run);
    const store = await openRunStore("answer", values, "write", { mustExist: true });
    const { hint } = store;
    try {
      const journal = await store.read({ run: chosen, task: taskId });
      const awaiting =
        chosen === undefined
          ? runAwaiting(journal, taskId, new SkippedRuns(stderr).skip)
          : awaitingIn(journal, chosen, taskId);
      const { runId, loaded, state, effect, hook } = awaiting;
      if (effect === undefined) {
        throw new InputError(
          "TASK",
          `task ${JSON.stringify(taskId)} does not await an answer in run ${runId}${cutOffRestore(awaiting, taskId, store.path)}`,
        );
      }
      if (
        flagged.kind === "option" &&
        !effect.options.some((option) => option.id === flagged.option)
      ) {
        const offered = effect.options.map((option) => `${option.id}. ${option.label}`).join("; ");
        throw new InputError(
          "--option",
          `no option ${flagged.option}; ${offered === "" ? "the question has no numbered options (use --text)" : `the options are: ${offered}`}`,
        );
      }
      const answer = withOptionRestore(flagged, effect.options);
      const workspaces = new Workspaces(loaded, store.path, crashPointsFrom(process.env));
      const restore = restoreOf(answer);
      if (restore !== undefined) checkRestorable(workspaces, taskId, restore);
      const event = {
        type: "answer-given" as const,
        effectId: effect.id,
        taskId,
        iteration: effect.iteration,
        answer,
      };
      const after = transition(state, event).state;
      await store.give(runId, event, { source: "loopgate answer" }, loaded.entries.length, after);
      workspaces.note(event);
      // Journaled first, then done: a restore cut off here is finished by the next resume.
      const restored =
        restore === undefined
          ? ""
          : await restoreNow(store, loaded, runId, after, workspaces, taskId);
      const granted = grantedText(state, after, taskId);
      const label =
        answer.kind === "option"
          ? effect.options.find((o) => o.id === answer.option)?.label
          : undefined;
      stdout(
        `recorded for ${taskId} (run ${runId}): ${answer.kind}${answer.kind === "option" ? ` ${answer.option}${label === undefined ? "" : ` — ${label}`}` : ""}${granted}\n${restored}next: ${hook ? "tell the agent to go on: its next stop hands it this answer" : `loopgate resume${hint}`}\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
