import type { AnswerSource } from "../answer-source.js";
import type { Notifier } from "./notifier.js";

/**
 * `source` told to a human's notification first: put after the answers given up front, it sends
 * `on_pause` exactly when a task is left for a person to answer, on a terminal or later.
 */
export function notifyOnPause(source: AnswerSource, notifier: Notifier): AnswerSource {
  return (effect, task, signal) => {
    notifier.paused(effect);
    return source(effect, task, signal);
  };
}
