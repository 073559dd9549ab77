import * as v from "valibot";
import { DEFAULT_ITERATION_CONTROL } from "../core/iteration-check.js";
import { DEFAULT_ANSWER_POLICY } from "../core/loop/loop-plan.js";
import { decodeDocument } from "../wire/decode-document.js";
import { integerAtLeast, mapping, text } from "../wire/fields.js";
import { InputError } from "../wire/input-error.js";
import { taskFileParts, type StepSpec, type TaskFile } from "../wire/task-file.js";

/** Claude Code's own limit on consecutive Stop-hook blocks when its variable is not set. */
export const AGENT_BLOCK_CAP_DEFAULT = 8;

/** The variable Claude Code reads its block cap from; the hook reads the same one. */
export const AGENT_BLOCK_CAP_VARIABLE = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP";

// The task file's settings that mean something to a session; others (a workspace for the
// generate step) are the agent's business.
const { iteration_control, stop_conditions, on_answer, review_wait } =
  taskFileParts.settingsEntries;

/** Schema of the `loopgate hook stop` config: the task file's settings and checks, no generate step. */
export const hookConfigSchema = mapping(
  {
    $schema: v.optional(text),
    iteration_control,
    stop_conditions,
    on_answer,
    review_wait,
    block_cap: v.optional(
      v.pipe(integerAtLeast(1), v.description("consecutive blocks at most; default the agent's")),
    ),
    steps: v.pipe(
      mapping(
        { test: v.optional(taskFileParts.testStep), review: v.optional(taskFileParts.step) },
        "expected a mapping with test, review",
      ),
      v.check(
        (steps) => steps.test !== undefined || steps.review !== undefined,
        "expected a test or a review step (with neither, every stop would pass unchecked)",
      ),
    ),
  },
  "expected a mapping with steps (test, review) and settings",
);

/** A validated hook config, camelCased, its block cap resolved. */
export interface HookConfig extends Omit<TaskFile, "steps" | "tasks" | "outputLimitBytes"> {
  readonly steps: { readonly test?: StepSpec; readonly review?: StepSpec };
  /** Consecutive blocks loopgate allows itself; null when neither the agent nor the config caps them. */
  readonly blockCap: number | null;
}

/** The agent's own block cap as its variable sets it: null for none (`0` turns Claude Code's off). */
export function agentBlockCap(env: NodeJS.ProcessEnv): number | null {
  const raw = env[AGENT_BLOCK_CAP_VARIABLE];
  if (raw === undefined || raw === "") return AGENT_BLOCK_CAP_DEFAULT;
  if (!/^\d{1,9}$/.test(raw)) {
    throw new InputError(
      AGENT_BLOCK_CAP_VARIABLE,
      `expected a whole number of blocks (0 for none), got ${JSON.stringify(raw.slice(0, 40))}`,
    );
  }
  const cap = Number(raw);
  return cap === 0 ? null : cap;
}

/**
 * Validates a hook config strictly and resolves its block cap against the agent's (`agent`, see
 * `agentBlockCap`; null when the agent has none): a cap above the agent's, or attempts that would
 * need more consecutive blocks than the cap, are refused, so the agent never overrides the hook.
 */
export function decodeHookConfig(document: unknown, agent: number | null): HookConfig {
  const decoded = decodeDocument(hookConfigSchema, document) as Omit<HookConfig, "blockCap"> & {
    readonly blockCap?: number;
  };
  for (const name of ["test", "review"] as const) {
    taskFileParts.checkStepLimits(decoded.steps[name], `steps.${name}`);
  }
  if (decoded.blockCap !== undefined && agent !== null && decoded.blockCap > agent) {
    throw new InputError(
      "block_cap",
      `${decoded.blockCap} is above the agent's own cap of ${agent} consecutive blocks (${AGENT_BLOCK_CAP_VARIABLE}), which would override the hook; raise that variable too`,
    );
  }
  const blockCap = decoded.blockCap ?? agent;
  if (blockCap !== null) {
    // Attempts 1..N take N − 1 blocks; after an answer, one block hands it over and each added
    // attempt but the last takes one more.
    const maxIterations =
      decoded.iterationControl?.maxIterations ?? DEFAULT_ITERATION_CONTROL.maxIterations;
    if (maxIterations - 1 > blockCap) {
      throw new InputError(
        "iteration_control.max_iterations",
        `${maxIterations} attempts need ${maxIterations - 1} consecutive blocks, over the block cap of ${blockCap}; at most ${blockCap + 1}`,
      );
    }
    const extra = decoded.onAnswer?.extraIterations ?? DEFAULT_ANSWER_POLICY.extraIterations;
    if (extra > blockCap) {
      throw new InputError(
        "on_answer.extra_iterations",
        `${extra} attempts after an answer need ${extra} consecutive blocks, over the block cap of ${blockCap}`,
      );
    }
  }
  return { ...decoded, blockCap };
}
