import { resolve } from "node:path";
import { oneLine } from "../../core/one-line.js";
import { printable } from "../../core/printable.js";
import { redact } from "../../core/redaction/redaction.js";
import { agentBlockCap, decodeHookConfig } from "../../hook/hook-config.js";
import { decodeStopHookInput } from "../../hook/stop-hook-input.js";
import { stopHook, type HookReply } from "../../hook/stop-hook.js";
import { openJournal } from "../../runner/session.js";
import { InputError } from "../../wire/input-error.js";
import { parseText } from "../../wire/parse-text.js";
import type { Command } from "../command.js";
import { INPUT_LIMIT_HELP, INPUT_LIMIT_OPTION, maxInputBytesOf } from "../input-limit.js";
import { parseOptions } from "../parse-options.js";
import { readInput } from "../read-input.js";
import { UsageError } from "../usage-error.js";

/**
 * The exit code of a hook call that failed. Never 2: to Claude Code and Codex, exit 2 from a
 * Stop hook blocks the stop with stderr as the agent's next instruction, so a broken config
 * would be handed to the agent to "fix". Any other code lets the agent stop and shows the error.
 */
export const HOOK_FAILED = 1;

/** Where a config is looked for when `--config` is not given. */
export const DEFAULT_HOOK_CONFIG = "loopgate-hook.yaml";

/** The reply as the agent reads it on stdout: a block, a note for the human, or nothing. */
function replyText(reply: HookReply): string {
  if (reply.kind === "block")
    return `${JSON.stringify({ decision: "block", reason: reply.reason })}\n`;
  return reply.message === null ? "" : `${JSON.stringify({ systemMessage: reply.message })}\n`;
}

/** What `decode` returns; its InputError names `source` first, so the human knows which input is wrong. */
function within<T>(source: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (!InputError.isInputError(error) || error.message.startsWith(`${source}:`)) throw error;
    throw new InputError(source, error.message);
  }
}

/** One Stop-hook call from stdin to the reply; every failure is thrown. */
async function answerStop(args: readonly string[], stdout: (text: string) => void): Promise<void> {
  const { values, positionals } = parseOptions(
    "hook",
    args,
    { config: { type: "string" }, db: { type: "string" }, ...INPUT_LIMIT_OPTION },
    1,
  );
  if (positionals[0] !== "stop") {
    throw new UsageError(
      `hook: expected the event "stop", got ${positionals[0] === undefined ? "nothing" : JSON.stringify(positionals[0])} (see loopgate hook --help)`,
    );
  }
  const limit = maxInputBytesOf("hook", values["max-input-bytes"]);
  const stdin = await readInput("-", limit);
  const input = within("stdin", () => decodeStopHookInput(parseText(stdin.text, "stdin")));
  const configFile = resolve(values.config ?? DEFAULT_HOOK_CONFIG);
  const read = await readInput(configFile, limit);
  const configDocument = parseText(read.text, read.source);
  const config = within(read.source, () =>
    decodeHookConfig(configDocument, agentBlockCap(process.env)),
  );
  const journal = openJournal(values.db, "write");
  try {
    const reply = await stopHook({ journal, input, configFile, configDocument, config });
    if (reply.kind === "stop" && reply.message !== null) process.stderr.write(`${reply.message}\n`);
    stdout(replyText(reply));
  } finally {
    journal.close();
  }
}

/** `loopgate hook stop`: the loop's decision as an agent's Stop hook. */
export const hookCommand: Command = {
  help: `Usage: loopgate hook stop [--config FILE] [--db PATH] [--max-input-bytes N]

An agent's Stop hook (Claude Code, Codex): reads the hook's JSON on stdin
(session_id, cwd, hook_event_name "Stop", stop_hook_active, transcript_path,
last_assistant_message), journals the agent's turn as the session's attempt,
runs the config's test and review steps in the hook's cwd, and decides with the
session's whole journaled history:

  retry     prints {"decision": "block", "reason": "<feedback>"}: the agent goes on
  proceed   prints nothing: the agent stops
  escalate  prints {"systemMessage": "<question, options, loopgate answer …>"}
            (also on stderr): the agent stops and the session waits for
            loopgate answer; the next stop hands the answer to the agent

Options:
  --config FILE   iteration_control, stop_conditions, on_answer, review_wait,
                  block_cap and steps {test, review}; default ${DEFAULT_HOOK_CONFIG}
  --db PATH       the journal; default .loopgate/journal.db here
${INPUT_LIMIT_HELP}

block_cap (default: ${"$"}CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, else 8, Claude Code's own)
bounds the blocks in a row; loopgate lets the agent stop rather than reach it.
See docs/hooks.md for the settings recipes.

Exit codes: 0 the reply was printed; 1 the hook failed (bad stdin, config,
arguments or journal, named on stderr in one error: line) and the agent stops.
Never 2, which an agent reads as "block with stderr as the reason".
`,
  async run({ args, stdout, stderr }) {
    try {
      await answerStop(args, stdout);
      return 0;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      stderr(`error: ${printable(redact(oneLine(message)))}\n`);
      return HOOK_FAILED;
    }
  },
};
