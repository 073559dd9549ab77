import * as v from "valibot";
import type { Answer } from "../core/loop/answer.js";
import { decodeDocument, withKey } from "./decode-document.js";
import { integerAtLeast, list, mapping, name, numberAtLeast, text } from "./fields.js";
import { closestKey } from "./closest-key.js";
import { InputError } from "./input-error.js";
import { redactStrings } from "../core/redaction/redact-strings.js";

const answerEntry = mapping(
  {
    option: v.optional(integerAtLeast(1)),
    text: v.optional(name),
    approve: v.optional(v.literal(true, "expected true")),
    abort: v.optional(v.literal(true, "expected true")),
    note: v.optional(text),
    by: v.optional(name),
    extra_budget: v.optional(numberAtLeast(0)),
    extra_iterations: v.optional(integerAtLeast(1)),
  },
  "expected a mapping with one of option, text, approve, abort",
);

/** Schema of an `--answers FILE` document: answers given up front, per task, used in order. */
export const answersFileSchema = mapping(
  {
    answers: v.record(
      name,
      v.union([answerEntry, list(answerEntry)], "expected an answer or a list of answers"),
    ),
  },
  "expected a mapping with answers",
);

interface AnswerEntry {
  readonly option?: number;
  readonly text?: string;
  readonly approve?: true;
  readonly abort?: true;
  readonly note?: string;
  readonly by?: string;
  readonly extra_budget?: number;
  readonly extra_iterations?: number;
}

/** One answer entry as the core's answer; exactly one of option, text, approve, abort. */
export function answerOf(entry: AnswerEntry, path: string): Answer {
  const kinds = (["option", "text", "approve", "abort"] as const).filter(
    (kind) => entry[kind] !== undefined,
  );
  if (kinds.length !== 1) {
    throw new InputError(
      path,
      `expected exactly one of option, text, approve, abort, got ${kinds.length === 0 ? "none" : kinds.join(" and ")}`,
    );
  }
  const by = entry.by === undefined ? {} : { by: entry.by };
  const note = entry.note === undefined ? {} : { note: entry.note };
  const extra = {
    ...(entry.extra_iterations === undefined ? {} : { extraIterations: entry.extra_iterations }),
    ...(entry.extra_budget === undefined ? {} : { extraBudget: entry.extra_budget }),
  };
  if (Object.keys(extra).length > 0 && entry.option === undefined && entry.text === undefined) {
    throw new InputError(path, "extra_budget and extra_iterations go with option or text");
  }
  if (entry.option !== undefined) return { kind: "option", option: entry.option, ...extra, ...by };
  if (entry.text !== undefined) return { kind: "text", text: entry.text, ...extra, ...by };
  return { kind: entry.approve === true ? "approve" : "abort", ...note, ...by };
}

/** Answers per task id, in the order the task's pauses will use them. */
export type AnswersByTask = ReadonlyMap<string, readonly Answer[]>;

/** Validates a parsed answers file; its text (guidance, notes, names) is redacted first. */
export function decodeAnswersFile(document: unknown): AnswersByTask {
  const decoded = decodeDocument(answersFileSchema, redactStrings(document)) as {
    answers: Record<string, AnswerEntry | AnswerEntry[]>;
  };
  const byTask = new Map<string, Answer[]>();
  for (const [taskId, value] of Object.entries(decoded.answers)) {
    const entries = Array.isArray(value) ? value : [value];
    byTask.set(
      taskId,
      entries.map((entry, position) =>
        answerOf(
          entry,
          `${withKey("answers", taskId)}${Array.isArray(value) ? `[${position}]` : ""}`,
        ),
      ),
    );
  }
  return byTask;
}

/**
 * Refuses answers for a task the run does not have: a misspelled id would otherwise be ignored
 * and its task left paused.
 */
export function checkAnswerTasks(answers: AnswersByTask, taskIds: readonly string[]): void {
  for (const taskId of answers.keys()) {
    if (taskIds.includes(taskId)) continue;
    const near = closestKey(taskId, taskIds);
    throw new InputError(
      withKey("answers", taskId),
      `no task ${JSON.stringify(taskId)} in the run${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}; its tasks are ${taskIds.join(", ")}`,
    );
  }
}

/**
 * Refuses an answers-file option the question does not offer, naming the task, the option and
 * the options there are, before it reaches the journal.
 */
export function checkAnswerOption(
  answer: Answer,
  taskId: string,
  offered: readonly { readonly id: number; readonly label: string }[],
): void {
  if (answer.kind !== "option" || offered.some((option) => option.id === answer.option)) return;
  const list = offered.map((option) => `${option.id}. ${option.label}`).join("; ");
  throw new InputError(
    withKey("answers", taskId),
    `option ${answer.option} is not one of the question's options (${list === "" ? "it has none: give text" : list})`,
  );
}
