import type { Attempt } from "../iteration-check.js";
import type { QuestionOption } from "../loop/answer.js";
import { describeStanding, standingOf } from "./attempt-standing.js";
import { bestAttempt } from "./best-attempt.js";

/**
 * The escalation's options with "Restore attempt N and continue" and "Restore attempt N and
 * stop" after them, numbered on, when the task's attempts are commits (`restorable`: it has a
 * git workspace) and its best attempt by standing is not the latest. Both name the best attempt
 * and the latest in their guidance (their review too when the task has one: `reviewed`).
 * Otherwise the options as they are. Pure.
 */
export function withRestoreOptions(
  options: readonly QuestionOption[],
  attempts: readonly Attempt[],
  restorable: boolean,
  reviewed = true,
): readonly QuestionOption[] {
  const latest = attempts.at(-1);
  if (!restorable || latest === undefined) return options;
  const standings = attempts.map(standingOf);
  const best = bestAttempt(standings);
  if (best === undefined || best.iteration === latest.iteration) return options;
  const n = best.iteration;
  const [bestWords, latestWords] = [best, standings.at(-1) ?? best].map((standing) =>
    describeStanding(standing, reviewed),
  );
  const why = `The best attempt is ${bestWords} (the latest is ${latestWords})`;
  const next = Math.max(0, ...options.map((option) => option.id)) + 1;
  return [
    ...options,
    {
      id: next,
      label: `Restore attempt ${n} and continue`,
      effect: "continue",
      restore: n,
      guidance: `${why}: its code is restored; go on from it and keep what made it better.`,
    },
    {
      id: next + 1,
      label: `Restore attempt ${n} and stop`,
      effect: "abort",
      restore: n,
      guidance: `${why}: its code is restored on the task's branch and the task stops there.`,
    },
  ];
}
