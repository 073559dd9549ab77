import { decide } from "../../core/decide.js";
import { printable } from "../../core/printable.js";
import type { Decision } from "../../core/decision.js";
import {
  applySummarizer,
  DEFAULT_SUMMARIZER_TIMEOUT_MS,
} from "../../escalation-summarizer/apply-summarizer.js";
import { commandSummarizer } from "../../escalation-summarizer/command-summarizer.js";
import {
  decodeConfigDocument,
  decodeDecideDocument,
  encodeDecision,
} from "../../wire/decide-document.js";
import { parseText } from "../../wire/parse-text.js";
import { render } from "../../wire/render.js";
import { formatOf, type Command } from "../command.js";
import { INPUT_LIMIT_HELP, INPUT_LIMIT_OPTION, maxInputBytesOf } from "../input-limit.js";
import { parseOptions } from "../parse-options.js";
import { readInput } from "../read-input.js";
import { UsageError } from "../usage-error.js";

/** `--summarizer-timeout MS`, checked before anything runs. */
function timeoutOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_SUMMARIZER_TIMEOUT_MS;
  const ms = Number(value);
  if (!/^\d+$/.test(value) || ms < 1) {
    throw new UsageError(
      `decide: \`--summarizer-timeout\` expects a whole number of ms >= 1, got "${value}"`,
    );
  }
  return ms;
}

/** An escalation as the summarizer command rewrote it, or as decided when it failed (with a warning). */
async function summarized(
  decision: Decision,
  command: string | undefined,
  timeoutMs: number,
): Promise<Decision> {
  if (command === undefined || decision.action !== "escalate") return decision;
  const outcome = await applySummarizer(decision, commandSummarizer(command), timeoutMs);
  if (!outcome.rewritten) {
    process.stderr.write(
      `warning: summarizer ignored, deterministic escalation printed: ${printable(outcome.error.replace(/\s+/g, " "))}\n`,
    );
  }
  return outcome.decision;
}

/** `loopgate decide`: SPEC §3 iteration control for one evaluated attempt. */
export const decideCommand: Command = {
  help: `Usage: loopgate decide [FILE|-] [--config FILE] [--summarizer CMD] [--json]

Reads an iteration_check (the attempt just evaluated: test result, review result,
counters, history) and prints the decision: proceed, retry with focused feedback,
escalate with a question, wait for the reviewer, or abort — with the reason that
decided and every stop condition that fired.

Input is YAML or JSON, from FILE or standard input (- or no FILE).

Options:
  --config FILE   iteration_control and stop_conditions defaults; the input
                  document's own values win over the file's, which win over
                  the built-in defaults
  --summarizer CMD
                  let a shell command rewrite an escalation's attempts_summary,
                  pattern_detected and question: it reads the escalation as
                  JSON on stdin and writes JSON (see docs/escalation.md); on
                  failure, timeout or invalid output the deterministic
                  escalation is printed and a warning goes to stderr
  --summarizer-timeout MS
                  how long the summarizer may take (default 30000)
  --json          print JSON instead of YAML (same keys)
${INPUT_LIMIT_HELP}
  -h, --help

Example:
  $ loopgate decide examples/seed/iteration-check.yaml
  decision:
    action: retry
    task_id: task-003
    iteration: 3
    reason: TEST_FAILED
    ...

Exit codes: 0 a decision was printed, 2 invalid input or arguments, 1 internal error.
`,
  async run({ args, stdout }) {
    const { values, positionals } = parseOptions(
      "decide",
      args,
      {
        json: { type: "boolean" },
        config: { type: "string" },
        summarizer: { type: "string" },
        "summarizer-timeout": { type: "string" },
        ...INPUT_LIMIT_OPTION,
      },
      1,
    );
    const limit = maxInputBytesOf("decide", values["max-input-bytes"]);
    const configFile = values.config;
    const inputFile = positionals[0];
    if (configFile === "-" && (inputFile === undefined || inputFile === "-")) {
      throw new UsageError(
        "decide: --config - and the document cannot both come from standard input",
      );
    }
    const config =
      configFile === undefined
        ? {}
        : await readInput(configFile, limit).then(({ text, source }) =>
            decodeConfigDocument(parseText(text, source)),
          );
    const input = await readInput(inputFile, limit);
    const timeoutMs = timeoutOf(values["summarizer-timeout"]);
    const decided = decide(decodeDecideDocument(parseText(input.text, input.source), config));
    const decision = await summarized(decided, values.summarizer, timeoutMs);
    stdout(render(encodeDecision(decision), formatOf(values.json)));
    return 0;
  },
};
