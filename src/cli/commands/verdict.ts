import { verdict } from "../../core/verdict.js";
import { parseText } from "../../wire/parse-text.js";
import { render } from "../../wire/render.js";
import { decodeVerdictDocument, encodeVerdict } from "../../wire/verdict-document.js";
import { formatOf, type Command } from "../command.js";
import { INPUT_LIMIT_HELP, INPUT_LIMIT_OPTION, maxInputBytesOf } from "../input-limit.js";
import { parseOptions } from "../parse-options.js";
import { readInput } from "../read-input.js";

/** `loopgate verdict`: SPEC §2 stop conditions over caller-supplied counters. */
export const verdictCommand: Command = {
  help: `Usage: loopgate verdict [FILE|-] [--json]

Evaluates the stop conditions (APPROVAL_GATE, STOP_SCORE_REACHED, BUDGET_EXHAUSTED,
MAX_ITERATIONS, TIME_LIMIT, NO_PROGRESS) against the counters you supply and prints
the verdict: stop or CONTINUE, the deciding condition, every condition that fired
(in precedence order) with its reason, and the headroom left.

Input is YAML or JSON, from FILE or standard input (- or no FILE).

Options:
  --json    print JSON instead of YAML (same keys)
${INPUT_LIMIT_HELP}
  -h, --help

Example:
  $ printf 'counters: {iteration: 3, spend: 4.2}\\npolicy: {max_iterations: 3, budget_cap: 4}\\n' | loopgate verdict
  verdict:
    stop: true
    condition: BUDGET_EXHAUSTED
    fired:
      - BUDGET_EXHAUSTED
      - MAX_ITERATIONS
    ...

Exit codes: 0 a verdict was printed, 2 invalid input or arguments, 1 internal error.
`,
  async run({ args, stdout }) {
    const { values, positionals } = parseOptions(
      "verdict",
      args,
      { json: { type: "boolean" }, ...INPUT_LIMIT_OPTION },
      1,
    );
    const limit = maxInputBytesOf("verdict", values["max-input-bytes"]);
    const input = await readInput(positionals[0], limit);
    const decoded = decodeVerdictDocument(parseText(input.text, input.source));
    stdout(render(encodeVerdict(verdict(decoded)), formatOf(values.json)));
    return 0;
  },
};
