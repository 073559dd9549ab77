import { isRecord } from "../../core/json-record.js";
import { formatNumber, roundNumber } from "../../core/format-number.js";
import type { TokenPrice } from "../../wire/agent-step.js";
import { amount, agentRun, jsonLines, word, type AgentAdapter } from "./agent-reading.js";

/** Token counts of a Codex run, summed over its turns. */
interface CodexUsage {
  readonly input: number;
  readonly cached: number;
  readonly output: number;
}

/**
 * What the tokens cost at a price per million: cached input at its own price (the input price
 * when none is given), the rest of the input and the output at theirs.
 */
export function tokenCost(usage: CodexUsage, price: TokenPrice): number {
  const cached = Math.min(usage.cached, usage.input);
  return roundNumber(
    ((usage.input - cached) * price.input +
      cached * (price.cached ?? price.input) +
      usage.output * price.output) /
      1_000_000,
  );
}

/**
 * Codex (`codex exec --json`): the message on stdin (`-`), an earlier thread continued with
 * `codex exec resume <thread id>`. It prints JSON Lines events — `thread.started` with the
 * thread id, `turn.completed` with the turn's token `usage`, `turn.failed` with an error — and
 * never a cost: spend is the tokens at the price the task file gives for the model, and nothing
 * without one (said in the step's output).
 */
export const codex: AgentAdapter = {
  messageOnStdin: true,
  argsFor: ({ sessionId }) => (sessionId === undefined ? ["-"] : ["resume", sessionId, "-"]),
  read(stdout, spec) {
    let thread: string | undefined;
    let turns = 0;
    let failure: string | undefined;
    const usage = { input: 0, cached: 0, output: 0 };
    for (const event of jsonLines(stdout)) {
      if (event.type === "thread.started") thread = word(event.thread_id) ?? thread;
      else if (event.type === "turn.completed") {
        turns += 1;
        const counts = isRecord(event.usage) ? event.usage : {};
        usage.input += amount(counts.input_tokens) ?? 0;
        usage.cached += amount(counts.cached_input_tokens) ?? 0;
        usage.output += amount(counts.output_tokens) ?? 0;
      } else if (event.type === "turn.failed") {
        turns += 1;
        const error = isRecord(event.error) ? word(event.error.message) : undefined;
        failure = `turn.failed${error === undefined ? "" : `: ${error}`}`;
      }
    }
    const tokens = usage.input + usage.output;
    const price = spec.model === undefined ? undefined : spec.prices?.[spec.model];
    const notes =
      price === undefined
        ? [
            `[loopgate] codex reports tokens, not a cost, and ${spec.model === undefined ? "no model is set" : `prices has no entry for model ${JSON.stringify(spec.model)}`}: ${formatNumber(tokens)} tokens counted, spend 0`,
          ]
        : [];
    return {
      spend: price === undefined ? 0 : tokenCost(usage, price),
      tokens,
      run: agentRun("codex", {
        sessionId: thread,
        turns,
        stopReason: failure,
        limited: failure !== undefined,
      }),
      notes,
    };
  },
};
