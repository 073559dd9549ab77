import type { AttemptRecord } from "../attempt-record.js";
import { truncateCodePoints } from "../../feedback/clean/code-points.js";
import { SHORT_REASON_MAX_LENGTH } from "../short-reason.js";
import { maskVolatile } from "../volatile-noise.js";
import { iterationSpan } from "./iteration-span.js";
import type { RepeatedReviewPointPattern } from "./pattern.js";

/** A review point as compared across attempts: case, spacing and numbers do not make it new. */
function pointKey(point: string): string {
  return maskVolatile(point).toLowerCase();
}

/** Whether the tests passed and the review rejected. */
function isReviewOnlyRejection(record: AttemptRecord): boolean {
  return record.analysis.testStatus === "pass" && record.analysis.reviewStatus === "reject";
}

/**
 * Two or more consecutive latest attempts whose tests pass but whose review rejects with a
 * point in common: the agent does not understand, or disagrees with, that point.
 */
export function repeatedReviewPoint(
  records: readonly AttemptRecord[],
): RepeatedReviewPointPattern | null {
  const firstOther = records.findLastIndex((record) => !isReviewOnlyRejection(record));
  const run = records.slice(firstOther + 1);
  const latest = run.at(-1);
  if (run.length < 2 || latest === undefined) return null;
  // The longest common run that still shares a point, so two fresh rejections are not diluted by older ones.
  for (let from = 0; from <= run.length - 2; from += 1) {
    const window = run.slice(from);
    const shared = latest.analysis.reviewPoints.find((point) =>
      window.every((record) =>
        record.analysis.reviewPoints.some((other) => pointKey(other) === pointKey(point)),
      ),
    );
    if (shared === undefined) continue;
    const iterations = window.map((record) => record.iteration);
    const point = truncateCodePoints(shared.replace(/\s+/g, " ").trim(), SHORT_REASON_MAX_LENGTH);
    return {
      kind: "repeated-review-point",
      description: `Review rejected the same point in iterations ${iterationSpan(iterations)}: ${point}`,
      iterations,
      point,
    };
  }
  return null;
}
