import { agentRun, type AgentAdapter } from "./agent-reading.js";

/** Aider's usage report after each model call: `Cost: $0.05 message, $0.31 session.` */
const COST_LINE = /Cost: \$(\d+(?:\.\d+)?) message, \$(\d+(?:\.\d+)?) session\./;
/** One part of its token report, `12k sent` or `1.2k received` (cache counts are parts too). */
const TOKEN_PART = /^(\d+(?:\.\d+)?)(k?) (sent|received)\.?$/;

/** Tokens sent and received in a `Tokens: 12k sent, 1.2k received.` line; Aider rounds 12,345 to `12k`. */
function tokensOf(line: string): number {
  const at = line.indexOf("Tokens: ");
  if (at === -1) return 0;
  let total = 0;
  // The report ends at its first full stop; the cost report may follow on the same line.
  const report = line.slice(at + "Tokens: ".length).split(". ")[0] ?? "";
  for (const part of report.split(", ")) {
    const match = TOKEN_PART.exec(part.trim());
    if (match !== null) total += Number(match[1]) * (match[2] === "k" ? 1000 : 1);
  }
  return total;
}

/**
 * Aider (`aider --yes-always --message-file FILE`): one request, then it exits. After every
 * model call it prints a usage report; the session figure of the last one is what the whole
 * process spent (Aider resets only the per-message figure). Its token counts are rounded to
 * the thousand above 10k. Aider has no session to resume and no limit of its own to report.
 */
export const aider: AgentAdapter = {
  messageOnStdin: false,
  argsFor: ({ messageFile }) => ["--message-file", messageFile],
  read(stdout) {
    let session: number | undefined;
    let tokens = 0;
    let calls = 0;
    for (const line of stdout.split("\n")) {
      const cost = COST_LINE.exec(line);
      if (cost !== null) {
        session = Number(cost[2]);
        calls += 1;
      }
      tokens += tokensOf(line);
    }
    return {
      spend: session ?? 0,
      tokens,
      run: agentRun("aider", { turns: calls, limited: false }),
      notes:
        session === undefined
          ? ["[loopgate] aider printed no cost line (Cost: $… session.): its spend is counted as 0"]
          : [],
    };
  },
};
