import { loadRun, plannedRun, runOver, type LoadedRun } from "../../runner/load-run.js";
import { driveSession } from "../../runner/session.js";
import { latestRun, runOption } from "../../runner/pick-run.js";
import { checkAnswerTasks } from "../../wire/answers-file.js";
import type { LoopPlan } from "../../core/loop/loop-plan.js";
import type { Journal } from "../../runner/journal.js";
import { parseText } from "../../wire/parse-text.js";
import { redactTaskDocument } from "../../wire/redact-task-document.js";
import { decodeTaskFile, planOf } from "../../wire/task-file.js";
import type { Command } from "../command.js";
import { readInput } from "../read-input.js";
import { UsageError } from "../usage-error.js";
import { parseOptions } from "../parse-options.js";
import { givenAnswers, SESSION_HELP, SESSION_OPTIONS, sessionFlags } from "./run.js";

/**
 * Journals the fixed task file in place of the run's, when only its steps changed: the loop it
 * describes (tasks, prompts, caps, policies) must be the run's, so every journaled event still
 * folds; anything else is a new run.
 */
function takeFixedSteps(
  journal: Journal,
  loaded: Pick<LoadedRun, "run" | "plan">,
  document: unknown,
  source: string,
) {
  const loop = (plan: LoopPlan) => JSON.stringify(plan.tasks);
  if (loop(planOf(decodeTaskFile(document))) !== loop(loaded.plan)) {
    throw new UsageError(
      `resume: ${source} changes more than the steps of run ${loaded.run.id} (its tasks, prompts, caps or policies); only steps may change on resume: start a new run with loopgate run ${source} --new`,
    );
  }
  const redacted = redactTaskDocument(document);
  if (JSON.stringify(redacted) === JSON.stringify(loaded.run.document)) return;
  journal.replaceDocument(loaded.run.id, redacted);
  process.stderr.write(
    `loopgate: run ${loaded.run.id} now uses the steps of ${source} (journaled in place of the task file it started with)\n`,
  );
}

/** `loopgate resume`: carries a paused or interrupted run on from its journal. */
export const resumeCommand: Command = {
  help: `Usage: loopgate resume [--run ID] [--concurrency N] [--db PATH] [--answers FILE]
                       [--quiet] [--json]

Rebuilds the run from its journal and carries it on: after an answer, after
exit code 3, or after a crash (kill -9 included). A step whose result was
journaled is not run again; steps cut off mid-way run again (steps are
at-least-once), once what is left of them is killed. Without --run, resumes
the latest run. A run that is over (every task proceeded, aborted or was
cancelled) has nothing to resume: resume says so and exits 0.

Options:
  --run ID        the run to resume (see loopgate status)
  --task-file F   carry the run on with the steps of F, a fixed copy of its
                  task file (a command, cwd, env or timeout that was wrong):
                  journaled in place of the run's task file. Refused (exit 2)
                  when F changes anything but steps
  --concurrency N tasks at once for this resume only (default: the run's own,
                  as given to loopgate run)
${SESSION_HELP}`,
  async run({ args, stdout }) {
    const { values } = parseOptions(
      "resume",
      args,
      { ...SESSION_OPTIONS, run: { type: "string" }, "task-file": { type: "string" } },
      0,
    );
    const flags = sessionFlags("resume", values);
    const answers = await givenAnswers(values.answers, flags.maxInputBytes);
    const given = values["task-file"];
    const fixed =
      given === undefined
        ? undefined
        : parseText((await readInput(given, flags.maxInputBytes)).text, given);
    if (fixed !== undefined) decodeTaskFile(fixed);
    // A resume with nothing to do, or answers for tasks the run does not have, changes nothing.
    const session = { ...flags, answers, mustExist: true, taskDocument: fixed };
    return await driveSession(session, stdout, (journal, hint) => {
      const runId = runOption(values.run) ?? latestRun(journal);
      const over = runOver(journal, runId);
      // A run with work left is read whole (and any damage found) before anything is written.
      const loaded = over ? plannedRun(journal, runId) : loadRun(journal, runId);
      if (fixed !== undefined && given !== undefined) takeFixedSteps(journal, loaded, fixed, given);
      if (answers !== undefined) {
        checkAnswerTasks(
          answers.byTask,
          loaded.plan.tasks.map((task) => task.id),
        );
      }
      return over
        ? { nothing: `run ${runId} is over: nothing to resume (see loopgate status${hint})\n` }
        : runId;
    });
  },
};
