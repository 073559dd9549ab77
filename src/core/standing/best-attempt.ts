import type { AttemptStanding } from "./attempt-standing.js";

/** Review outcomes from best to worst. */
const REVIEW_RANK = { approve: 0, pending: 1, reject: 2 } as const;

/**
 * Orders two standings, the better first (negative when `a` is better). In turn: passing tests
 * beat failing ones; fewer failing tests; an approving review, then a pending one, then a
 * rejecting one; fewer urgent review points, then fewer points; a higher score (none counts
 * lowest). Standings equal on all of these go to the later attempt: it is the most worked-on,
 * so an earlier attempt is only ever called best when it is strictly better.
 */
export function compareStandings(a: AttemptStanding, b: AttemptStanding): number {
  return (
    Number(a.testStatus === "fail") - Number(b.testStatus === "fail") ||
    a.failing - b.failing ||
    REVIEW_RANK[a.reviewStatus] - REVIEW_RANK[b.reviewStatus] ||
    a.urgentPoints - b.urgentPoints ||
    a.reviewPoints - b.reviewPoints ||
    (b.score ?? -Infinity) - (a.score ?? -Infinity) ||
    b.iteration - a.iteration
  );
}

/** The best of the standings by `compareStandings`; undefined for none. Pure. */
export function bestAttempt(standings: readonly AttemptStanding[]): AttemptStanding | undefined {
  let best: AttemptStanding | undefined;
  for (const standing of standings) {
    if (best === undefined || compareStandings(standing, best) < 0) best = standing;
  }
  return best;
}
