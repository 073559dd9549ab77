import { isOver } from "../../runner/find-runs.js";
import { loadRun } from "../../runner/load-run.js";
import { driveSession } from "../../runner/session.js";
import { latestRun, runOption } from "../../runner/pick-run.js";
import { checkAnswerTasks } from "../../wire/answers-file.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { givenAnswers, SESSION_HELP, SESSION_OPTIONS, sessionFlags } from "./run.js";

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
  --concurrency N tasks at once for this resume only (default: the run's own,
                  as given to loopgate run)
${SESSION_HELP}`,
  async run({ args, stdout }) {
    const { values } = parseOptions(
      "resume",
      args,
      { ...SESSION_OPTIONS, run: { type: "string" } },
      0,
    );
    const flags = sessionFlags("resume", values);
    const answers = await givenAnswers(values.answers, flags.maxInputBytes);
    // A resume with nothing to do, or answers for tasks the run does not have, changes nothing.
    return await driveSession({ ...flags, answers, mustExist: true }, stdout, (journal, hint) => {
      const runId = runOption(values.run) ?? latestRun(journal);
      const loaded = loadRun(journal, runId);
      if (answers !== undefined) {
        checkAnswerTasks(
          answers.byTask,
          loaded.plan.tasks.map((task) => task.id),
        );
      }
      return isOver(loaded.state)
        ? { nothing: `run ${runId} is over: nothing to resume (see loopgate status${hint})\n` }
        : runId;
    });
  },
};
