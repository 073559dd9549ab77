import { decide } from "../../core/decide.js";
import {
  decodeConfigDocument,
  decodeDecideDocument,
  encodeDecision,
} from "../../wire/decide-document.js";
import { parseText } from "../../wire/parse-text.js";
import { render } from "../../wire/render.js";
import { formatOf, type Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { readInput } from "../read-input.js";
import { UsageError } from "../usage-error.js";

/** `loopgate decide`: SPEC §3 iteration control for one evaluated attempt. */
export const decideCommand: Command = {
  help: `Usage: loopgate decide [FILE|-] [--config FILE] [--json]

Reads an iteration_check (the attempt just evaluated: test result, review result,
counters, history) and prints the decision: proceed, retry with focused feedback,
escalate with a question, wait for the reviewer, or abort — with the reason that
decided and every stop condition that fired.

Input is YAML or JSON, from FILE or standard input (- or no FILE).

Options:
  --config FILE   iteration_control and stop_conditions defaults; the input
                  document's own values win over the file's, which win over
                  the built-in defaults
  --json          print JSON instead of YAML (same keys)
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
      { json: { type: "boolean" }, config: { type: "string" } },
      1,
    );
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
        : await readInput(configFile).then(({ text, source }) =>
            decodeConfigDocument(parseText(text, source)),
          );
    const input = await readInput(inputFile);
    const decision = decide(decodeDecideDocument(parseText(input.text, input.source), config));
    stdout(render(encodeDecision(decision), formatOf(values.json)));
    return 0;
  },
};
