import type { Answer, QuestionOption } from "../../core/loop/answer.js";

/** The attempt an answer asks to restore first, if it asks. */
export function restoreOf(answer: Answer): number | undefined {
  return answer.kind === "approve" ? undefined : answer.restore;
}

/**
 * The answer with the restore its option stands for written into it ("Restore attempt 2 and
 * continue"), so the journaled answer alone says what to restore; other answers as they are.
 */
export function withOptionRestore(answer: Answer, options: readonly QuestionOption[]): Answer {
  if (answer.kind !== "option" || answer.restore !== undefined) return answer;
  const restore = options.find((option) => option.id === answer.option)?.restore;
  return restore === undefined ? answer : { ...answer, restore };
}
