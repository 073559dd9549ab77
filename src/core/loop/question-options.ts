import type { EscalationOption } from "../escalation/escalation.js";
import type { OptionEffect, QuestionOption } from "./answer.js";

// One option per line: "1. String (update test)" or "2) Number". Linear: no nested quantifiers.
const OPTION_LINE = /^\s*(\d{1,3})[.)]\s+(\S.*)$/;

/** "Abort this task" aborts and "Approve as is" approves; any other option continues. */
function effectOf(label: string): OptionEffect {
  const word = label.split(" ", 1)[0]?.toLowerCase();
  return word === "abort" ? "abort" : word === "approve" ? "approve" : "continue";
}

/**
 * The options a human picks from: the escalation's structured options, with their guidance for
 * the next attempt, when it carries them; else the question's own numbered lines.
 */
export function answerOptions(
  question: string,
  structured: readonly EscalationOption[] | undefined,
): QuestionOption[] {
  if (structured === undefined || structured.length === 0) return questionOptions(question);
  return structured.map((option) => ({
    id: Number(option.id),
    label: option.label,
    // "Approve as is" continues the task in the escalation's terms, through the approval gate here.
    effect: option.action === "abort" ? "abort" : effectOf(option.label),
    guidance: option.guidance,
  }));
}

/** The numbered options of an escalation question, in the order they appear: `1. …` lines. */
export function questionOptions(question: string): QuestionOption[] {
  const options: QuestionOption[] = [];
  for (const line of question.split("\n")) {
    const match = OPTION_LINE.exec(line);
    if (match === null) continue;
    const id = Number(match[1]);
    // A later list restating an id (a quoted log line, say) must not shadow the first.
    if (options.some((option) => option.id === id)) continue;
    const label = (match[2] ?? "").trim();
    options.push({ id, label, effect: effectOf(label) });
  }
  return options;
}
