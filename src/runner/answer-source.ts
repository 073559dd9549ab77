import type { Answer } from "../core/loop/answer.js";
import type { AwaitAnswer } from "../core/loop/loop-effect.js";
import type { TaskState } from "../core/loop/loop-state.js";
import { checkAnswerOption, type AnswersByTask } from "../wire/answers-file.js";

/** An answer and where it came from (`answers.yaml`, `terminal`), for the journal. */
export interface SourcedAnswer {
  readonly answer: Answer;
  readonly source: string;
}

/**
 * Where a paused task's answer comes from; null leaves the task paused (exit code 3 once no other
 * task can move). `signal` aborts a question the run no longer needs (another task failed).
 */
export type AnswerSource = (
  effect: AwaitAnswer,
  task: TaskState,
  signal?: AbortSignal,
) => Promise<SourcedAnswer | null>;

/**
 * Answers given up front: a task's n-th pause takes its n-th answer. Counting the answers the
 * journal already holds keeps that true across resumes.
 */
export function answersFrom(answers: AnswersByTask, source: string): AnswerSource {
  return async (effect, task) => {
    const answer = answers.get(task.id)?.[task.answers];
    if (answer === undefined) return null;
    checkAnswerOption(answer, task.id, effect.options);
    return { answer, source };
  };
}

/** Tries each source in turn. */
export function firstAnswer(...sources: readonly AnswerSource[]): AnswerSource {
  return async (effect, task, signal) => {
    for (const source of sources) {
      const answer = await source(effect, task, signal);
      if (answer !== null) return answer;
    }
    return null;
  };
}

/** No one to ask: the run pauses. */
export const noAnswers: AnswerSource = async () => null;
