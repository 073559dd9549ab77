import { isRecord } from "../../core/json-record.js";
import { amount, agentRun, jsonLines, word, type AgentAdapter } from "./agent-reading.js";

/** Result subtypes Claude Code ends with when it stops on a limit it was given. */
const OWN_LIMITS: ReadonlySet<string> = new Set(["error_max_turns", "error_max_budget_usd"]);

/** Tokens Claude Code's `usage` counts: new input, cache writes and reads, and output. */
const USAGE_FIELDS = [
  "input_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
  "output_tokens",
] as const;

/**
 * Claude Code in print mode (`claude -p --output-format json`): the message on stdin, the
 * budget left as `--max-budget-usd` so the agent stops itself at the task's cap, and the
 * session continued with `--resume`. It prints one result object at the end (`stream-json`
 * prints it last of its lines): `total_cost_usd` is the attempt's spend.
 */
export const claudeCode: AgentAdapter = {
  messageOnStdin: true,
  argsFor: ({ sessionId, headroom }) => [
    ...(sessionId === undefined ? [] : ["--resume", sessionId]),
    ...(headroom.budgetLeft === null ? [] : ["--max-budget-usd", String(headroom.budgetLeft)]),
  ],
  read(stdout) {
    const result = jsonLines(stdout)
      .filter((line) => line.type === "result")
      .at(-1);
    if (result === undefined) {
      return {
        spend: 0,
        tokens: 0,
        run: agentRun("claude-code", { limited: false }),
        notes: [
          "[loopgate] claude-code printed no result object: its spend and tokens are unknown (counted as 0)",
        ],
      };
    }
    const usage = isRecord(result.usage) ? result.usage : {};
    const tokens = USAGE_FIELDS.reduce((sum, field) => sum + (amount(usage[field]) ?? 0), 0);
    const spend = amount(result.total_cost_usd);
    const subtype = word(result.subtype);
    return {
      spend: spend ?? 0,
      tokens,
      run: agentRun("claude-code", {
        sessionId: word(result.session_id),
        turns: amount(result.num_turns),
        stopReason: subtype,
        limited: subtype !== undefined && OWN_LIMITS.has(subtype),
      }),
      notes:
        spend === undefined
          ? ["[loopgate] claude-code's result has no total_cost_usd: its spend is counted as 0"]
          : [],
    };
  },
};
