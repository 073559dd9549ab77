import * as v from "valibot";
import type { DecideInput, StopConditions } from "../core/decide-input.js";
import type { Decision } from "../core/decision.js";
import {
  DEFAULT_ITERATION_CONTROL,
  type IterationCheck,
  type IterationControl,
} from "../core/iteration-check.js";
import {
  flag,
  integerAtLeast,
  limitEntries,
  list,
  mapping,
  measuredEntries,
  name,
  optionalNullable,
  status,
  text,
  finiteNumber,
} from "./fields.js";
import { decodeDocument } from "./decode-document.js";
import { toWire } from "./codec.js";
import { InputError } from "./input-error.js";
import { redactStrings } from "../core/redaction/redact-strings.js";

const testResult = mapping(
  { status: status(["pass", "fail"]), output: v.optional(text, "") },
  "expected a mapping with status (pass|fail) and output",
);

const reviewResult = mapping(
  { status: status(["approve", "reject", "pending"]), feedback: v.optional(text, "") },
  "expected a mapping with status (approve|reject|pending) and feedback",
);

/** Schema of `iteration_control` (SPEC §3), shared with the task file. */
export const iterationControl = mapping(
  {
    max_iterations: v.optional(integerAtLeast(1)),
    auto_retry_on_test_fail: v.optional(flag),
    auto_retry_on_review_reject: v.optional(flag),
    escalation_includes_diff: v.optional(flag),
    feedback_max_length: v.optional(integerAtLeast(1)),
  },
  "expected a mapping",
);

/** Schema of `stop_conditions` (SPEC §3), shared with the task file. */
export const stopConditions = mapping(limitEntries, "expected a mapping");

/** The sections `--config FILE` may hold, also accepted in the input document itself. */
const settingsEntries = {
  iteration_control: v.optional(iterationControl),
  stop_conditions: v.optional(stopConditions),
};

const attempt = mapping(
  {
    iteration: integerAtLeast(1),
    test_result: testResult,
    review_result: reviewResult,
    diff: v.optional(text),
    score: optionalNullable(finiteNumber),
  },
  "expected a mapping with iteration, test_result, review_result",
);

/** Schema of the `decide` input document (SPEC §3). */
export const decideDocumentSchema = mapping(
  {
    ...settingsEntries,
    iteration_check: mapping(
      {
        task_id: name,
        current_iteration: integerAtLeast(1),
        max_iterations: v.optional(integerAtLeast(1)),
        test_result: testResult,
        review_result: reviewResult,
        ...measuredEntries,
        diff: v.optional(text),
        history: v.optional(list(attempt)),
      },
      "expected a mapping with task_id, current_iteration, test_result, review_result",
    ),
  },
  "expected a mapping with iteration_check",
);

/** Schema of a `--config FILE` document: the settings sections only. */
export const configDocumentSchema = mapping(
  settingsEntries,
  "expected a mapping with iteration_control and/or stop_conditions",
);

/** Settings from a config file, applied under the input document's own values. */
export interface DecideSettings {
  readonly iterationControl?: Partial<IterationControl>;
  readonly stopConditions?: StopConditions;
}

/** Validates a parsed `--config` document. */
export function decodeConfigDocument(document: unknown): DecideSettings {
  return decodeDocument(configDocumentSchema, document) as DecideSettings;
}

/** History must tell attempts in order, each before the current one; anything else is a caller bug. */
function checkHistoryOrder(check: IterationCheck): void {
  let previous = 0;
  for (const [index, entry] of (check.history ?? []).entries()) {
    if (entry.iteration <= previous || entry.iteration >= check.currentIteration) {
      throw new InputError(
        `iteration_check.history[${index}].iteration`,
        `expected attempts in increasing order, each below current_iteration ${check.currentIteration}, got ${entry.iteration}`,
      );
    }
    previous = entry.iteration;
  }
}

/**
 * Validates a parsed `decide` document and resolves its settings: the document's own values win
 * over the config file's, which win over the defaults. Its text (outputs, feedback, diffs, an
 * approval's `note` and `by`) is redacted first: the decision quotes it.
 */
export function decodeDecideDocument(document: unknown, config: DecideSettings = {}): DecideInput {
  const decoded = decodeDocument(
    decideDocumentSchema,
    redactStrings(document),
  ) as DecideSettings & {
    iterationCheck: IterationCheck;
  };
  checkHistoryOrder(decoded.iterationCheck);
  return {
    iterationControl: {
      ...DEFAULT_ITERATION_CONTROL,
      ...config.iterationControl,
      ...decoded.iterationControl,
    },
    stopConditions: { ...config.stopConditions, ...decoded.stopConditions },
    iterationCheck: decoded.iterationCheck,
  };
}

/** The wire document printed for a decision, shaped like the seed's. */
export function encodeDecision(decision: Decision): unknown {
  return { decision: toWire(decision) };
}
