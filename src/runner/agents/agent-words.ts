import type { AgentRun } from "../../core/loop/step-outcome.js";
import { printable } from "../../core/printable.js";

/** What a built-in adapter read of the agent's run: ` · claude-code 4 turns, stopped on its own limit: error_max_turns`. */
export function agentWords(agent: AgentRun | undefined): string {
  if (agent === undefined) return "";
  const turns = agent.turns === undefined ? "" : ` ${agent.turns} turns`;
  const limit = agent.limited
    ? `, stopped on its own limit: ${printable(agent.stopReason ?? "unknown")}`
    : "";
  return ` · ${agent.name}${turns}${limit}`;
}
