import { LoopgateError } from "../core/errors.js";
import { oneLine } from "../core/one-line.js";
import { JournalError } from "../runner/journal-error.js";
import { redact } from "../core/redaction/redaction.js";
import { printable } from "../core/printable.js";
import type { Command } from "./command.js";
import { UsageError } from "./usage-error.js";
import { refuseUnreadStore } from "../runner/store-url.js";
import { loopgateVersion } from "../runner/loopgate-version.js";

/** Commands load on demand so that a run pays only for the command it uses. */
const COMMANDS: Readonly<Record<string, { summary: string; load: () => Promise<Command> }>> = {
  verdict: {
    summary: "which stop condition fired, from counters and a policy (SPEC §2)",
    load: async () => (await import("./commands/verdict.js")).verdictCommand,
  },
  decide: {
    summary: "proceed, retry, escalate, wait or abort after an attempt (SPEC §3)",
    load: async () => (await import("./commands/decide.js")).decideCommand,
  },
  feedback: {
    summary: "focused feedback from a test log of any size or a review (SPEC §4)",
    load: async () => (await import("./commands/feedback.js")).feedbackCommand,
  },
  run: {
    summary: "run the loop over a task file, journaled; pauses for a human (exit 3)",
    load: async () => (await import("./commands/run.js")).runCommand,
  },
  answer: {
    summary: "answer a paused task: an option, guidance, approve or abort",
    load: async () => (await import("./commands/answer.js")).answerCommand,
  },
  restore: {
    summary: "bring a paused task's earlier attempt back (git workspaces) and go on from it",
    load: async () => (await import("./commands/restore.js")).restoreCommand,
  },
  resume: {
    summary: "carry a paused or interrupted run on from its journal",
    load: async () => (await import("./commands/resume.js")).resumeCommand,
  },
  cancel: {
    summary: "end a run or a task for good, with a journaled reason",
    load: async () => (await import("./commands/cancel.js")).cancelCommand,
  },
  status: {
    summary: "runs in the journal and the tasks awaiting an answer",
    load: async () => (await import("./commands/status.js")).statusCommand,
  },
  history: {
    summary: "the whole story of a run or a task: steps, decisions, answers",
    load: async () => (await import("./commands/history.js")).historyCommand,
  },
  diff: {
    summary: "what an attempt changed: its journaled diff (git workspaces)",
    load: async () => (await import("./commands/diff.js")).diffCommand,
  },
  explain: {
    summary: "why a decision was taken: each condition evaluated with its values",
    load: async () => (await import("./commands/explain.js")).explainCommand,
  },
  logs: {
    summary: "what a task's step printed, as the journal captured it",
    load: async () => (await import("./commands/logs.js")).logsCommand,
  },
  export: {
    summary: "every journaled event as JSON lines",
    load: async () => (await import("./commands/export.js")).exportCommand,
  },
  hook: {
    summary: "an agent's Stop hook: check its turn, block with feedback or let it stop",
    load: async () => (await import("./commands/hook.js")).hookCommand,
  },
  db: {
    summary: "create or upgrade a store's schema (SQLite or PostgreSQL)",
    load: async () => (await import("./commands/db.js")).dbCommand,
  },
  worker: {
    summary: "work on a PostgreSQL store's queued tasks until stopped",
    load: async () => (await import("./commands/worker.js")).workerCommand,
  },
  doctor: {
    summary: "the journal's state: schema, integrity, size, damaged runs and events",
    load: async () => (await import("./commands/doctor.js")).doctorCommand,
  },
};

function overview(): string {
  const lines = Object.entries(COMMANDS).map(
    ([name, entry]) => `  ${name.padEnd(10)}${entry.summary}`,
  );
  return `loopgate — iteration control for refinement loops (generate → test → review → decide)

Usage: loopgate <command> [FILE|-] [options]

Commands:
${lines.join("\n")}

Options:
  -h, --help     show help (loopgate <command> --help for a command's own)
  -v, --version  print the version

Exit codes: 0 a decision or verdict was printed (run: every task proceeded or
ended), 2 invalid input or arguments (a journal missing, empty or not
loopgate's included), 1 internal error; run and resume also exit 3 when a task
awaits an answer and 4 when another runner holds the run; commands on a journal
exit 5 when it is damaged or changed under the runner (see loopgate doctor).
`;
}

/** Where the CLI prints; tests pass their own. */
export interface Streams {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Runs the CLI and returns its exit code. Errors become one line on stderr; stdout stays empty. */
export async function main(argv: readonly string[], streams: Streams): Promise<number> {
  const [name, ...args] = argv;
  try {
    if (name === undefined) throw new UsageError("missing command (see loopgate --help)");
    if (name === "help" && args[0] !== undefined) return await main([args[0], "--help"], streams);
    if (name === "-h" || name === "--help" || name === "help") {
      streams.stdout(overview());
      return 0;
    }
    if (name === "-v" || name === "--version") {
      streams.stdout(`${loopgateVersion()}\n`);
      return 0;
    }
    const entry = COMMANDS[name];
    if (entry === undefined)
      throw new UsageError(`unknown command "${name}" (see loopgate --help)`);
    const command = await entry.load();
    if (args.includes("--help") || args.includes("-h")) {
      streams.stdout(command.help);
      return 0;
    }
    refuseUnreadStore(name);
    // Everything printed passes here: controls and escape sequences in journaled or given text
    // (answers, test output, reviews, file names) reach the terminal as visible escapes.
    let output = "";
    const code = await command.run({
      args,
      stdout: (text, painted) => (output += painted === true ? text : printable(text)),
      stderr: streams.stderr,
    });
    // Redacted where it enters and once more where it leaves: nothing a command prints carries a
    // secret, whatever path the text took.
    streams.stdout(redact(output));
    return code;
  } catch (error) {
    if (
      LoopgateError.is(error) &&
      (error.code === "INVALID_INPUT" || error.code === "INVALID_USAGE")
    ) {
      streams.stderr(`error: ${printable(redact(oneLine(error.message)))}\n`);
      return 2;
    }
    // A journal that is missing, foreign (2), damaged or changed (5): one line, as bad input.
    if (JournalError.isJournalError(error)) {
      streams.stderr(`error: ${printable(redact(oneLine(error.message)))}\n`);
      return error.exitCode;
    }
    streams.stderr(
      `internal error: ${printable(redact(error instanceof Error ? (error.stack ?? error.message) : String(error)))}\n`,
    );
    return 1;
  }
}
