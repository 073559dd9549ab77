import * as v from "valibot";
import { flag, list, mapping, name, numberAtLeast } from "./fields.js";
import { InputError } from "./input-error.js";

/** The coding agents loopgate can run as the generate step without a wrapper. */
export const AGENT_NAMES = ["claude-code", "codex", "aider"] as const;

/** A built-in agent adapter's name. */
export type AgentName = (typeof AGENT_NAMES)[number];

/** What one million tokens cost, in the unit of `budget_cap` (USD for every agent's own figures). */
export interface TokenPrice {
  readonly input: number;
  /** Cached input tokens; the input price when absent. */
  readonly cached?: number;
  readonly output: number;
}

/** A generate step run by a built-in adapter: loopgate builds its command and reads its output. */
export interface AgentSpec {
  readonly name: AgentName;
  readonly model?: string;
  /** Continue the previous attempt's session instead of starting a new one. */
  readonly resume: boolean;
  /** Codex only: prices per model, since Codex reports tokens and never a cost. */
  readonly prices?: Readonly<Record<string, TokenPrice>>;
}

/** Where in a step's JSON output its cost and tokens are, for an agent with no built-in adapter. */
export interface JsonReportSpec {
  readonly spend?: string;
  readonly tokens?: string;
}

/** How each agent runs one request headless and prints what it spent, before loopgate's own additions. */
const AGENT_COMMANDS: Readonly<Record<AgentName, readonly string[]>> = {
  "claude-code": ["claude", "-p", "--output-format", "json"],
  codex: ["codex", "exec", "--json"],
  aider: ["aider", "--yes-always"],
};

/**
 * A dotted path into a JSON object, `total_cost_usd` or `usage.cost.total`; a number segment
 * indexes a list (`turns.0.cost`).
 */
const jsonPath = v.pipe(
  name,
  v.regex(/^[\w-]+(?:\.[\w-]+)*$/, "expected a dotted path such as usage.total_cost"),
  v.description("a dotted path to a number in the JSON object the step prints last"),
);

const tokenPrice = mapping(
  {
    input: numberAtLeast(0),
    cached: v.optional(numberAtLeast(0)),
    output: numberAtLeast(0),
  },
  "expected a mapping with input, cached, output (per million tokens)",
);

/** The generate step's fields beyond a plain step's: an agent adapter, or a JSON report to read. */
export const agentEntries = {
  agent: v.optional(
    v.pipe(
      v.picklist(AGENT_NAMES, `expected one of ${AGENT_NAMES.join(", ")}`),
      v.description("a coding agent loopgate runs and reads: its command is built, not written"),
    ),
  ),
  args: v.optional(v.pipe(list(name), v.description("extra arguments for the agent"))),
  model: v.optional(v.pipe(name, v.description("the agent's --model"))),
  resume: v.optional(
    v.pipe(flag, v.description("continue the previous attempt's agent session; default false")),
  ),
  prices: v.optional(
    v.pipe(
      v.record(v.string(), tokenPrice, "expected a mapping of model names to prices"),
      v.description("codex: price per million tokens for each model; no price means no spend"),
    ),
  ),
  report: v.optional(
    mapping(
      { spend: v.optional(jsonPath), tokens: v.optional(jsonPath) },
      "expected a mapping with spend, tokens",
    ),
  ),
};

/** A generate step's command and agent fields as decoded, before they are resolved. */
export interface DecodedGenerate {
  readonly command?: readonly string[] | string | undefined;
  readonly agent?: AgentName | undefined;
  readonly args?: readonly string[] | undefined;
  readonly model?: string | undefined;
  readonly resume?: boolean | undefined;
  readonly prices?: Readonly<Record<string, TokenPrice>> | undefined;
  readonly report?: JsonReportSpec | undefined;
}

/** The fields a generate step has once its agent, if any, is resolved into a command. */
export interface ResolvedGenerate {
  readonly command: readonly string[] | string;
  readonly agent?: AgentSpec;
  readonly report?: JsonReportSpec;
}

/**
 * Checks a generate step's agent fields against each other and builds an agent's command (its
 * program and fixed flags, then `model`, then `args`); what changes per attempt — the session
 * to resume, the budget left, the message file — the adapter adds when it runs.
 */
export function resolveGenerate(step: DecodedGenerate, path: string): ResolvedGenerate {
  const { command, agent, args, model, resume, prices, report } = step;
  if (agent === undefined) {
    for (const [key, value] of Object.entries({ args, model, resume, prices })) {
      // `{args: [make, fix]}` is most often a plain command under another name.
      const meant = key === "args" && command === undefined ? ' (did you mean "command"?)' : "";
      if (value !== undefined)
        throw new InputError(
          `${path}.${key}`,
          `${key} needs an agent (${AGENT_NAMES.join(", ")})${meant}`,
        );
    }
    if (command === undefined) {
      throw new InputError(`${path}.command`, "expected a command to run, or an agent");
    }
    return { command, ...(report === undefined ? {} : { report }) };
  }
  if (command !== undefined) {
    throw new InputError(
      `${path}.command`,
      `an agent step builds its own command: give args instead, or drop agent`,
    );
  }
  if (report !== undefined) {
    throw new InputError(`${path}.report`, `${agent}'s own output is read: report is for commands`);
  }
  if (prices !== undefined && agent !== "codex") {
    throw new InputError(
      `${path}.prices`,
      `${agent} reports its own cost; prices are read for codex only`,
    );
  }
  if (prices !== undefined && model === undefined) {
    throw new InputError(`${path}.model`, "prices are looked up by model: set model");
  }
  if (prices !== undefined && model !== undefined && prices[model] === undefined) {
    throw new InputError(
      `${path}.prices`,
      `no price for model ${JSON.stringify(model)} (prices has ${Object.keys(prices)
        .map((key) => JSON.stringify(key))
        .join(", ")})`,
    );
  }
  return {
    command: [
      ...AGENT_COMMANDS[agent],
      ...(model === undefined ? [] : ["--model", model]),
      ...(args ?? []),
    ],
    agent: {
      name: agent,
      resume: resume ?? false,
      ...(model === undefined ? {} : { model }),
      ...(prices === undefined ? {} : { prices }),
    },
  };
}
