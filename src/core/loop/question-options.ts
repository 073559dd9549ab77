import type { OptionEffect, QuestionOption } from "./answer.js";

// One option per line: "1. String (update test)" or "2) Number". Linear: no nested quantifiers.
const OPTION_LINE = /^\s*(\d{1,3})[.)]\s+(\S.*)$/;

/** "Abort this task" aborts and "Approve as is" approves; any other option continues. */
function effectOf(label: string): OptionEffect {
  const word = label.split(" ", 1)[0]?.toLowerCase();
  return word === "abort" ? "abort" : word === "approve" ? "approve" : "continue";
}

/**
 * The numbered options of an escalation question, in the order they appear. Until escalations
 * carry structured options, the question's own `1. …` lines are the options a human picks from.
 */
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
