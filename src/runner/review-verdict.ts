import * as v from "valibot";
import { reviewStatusOf } from "../core/feedback/review/review-status-of.js";
import type { ReviewStatus } from "../core/iteration-check.js";
import { decodeDocument } from "../wire/decode-document.js";
import { finiteNumber, mapping, optionalNullable, status, text } from "../wire/fields.js";
import type { CommandResult } from "./run-command.js";

const reviewDocument = mapping(
  {
    status: status(["approve", "reject", "pending"]),
    feedback: v.optional(text, ""),
    score: optionalNullable(finiteNumber),
  },
  "expected a mapping with status (approve|reject|pending), feedback, score",
);

/** What a reviewer said. */
export interface ReviewVerdict {
  readonly status: ReviewStatus;
  readonly feedback: string;
  readonly score?: number | null;
}

/**
 * The last line of stdout that is the protocol's answer: a JSON object line with a `status`
 * (reviewers often log before answering). A JSON object without one — a GitHub review printed
 * by `gh api` on one line — is the review itself, not an answer.
 */
function jsonLine(stdout: string): string | undefined {
  return stdout
    .split("\n")
    .map((line) => line.trim())
    .findLast((line) => line.startsWith("{") && line.endsWith("}") && /"status"\s*:/.test(line));
}

/**
 * Reads a review step: a JSON `{status, feedback, score?}` line on stdout wins. Otherwise a
 * step that ended (exit 0 or 1, not timed out) is judged by the verdict its output states
 * itself — GitHub review JSON's `APPROVED`/`CHANGES_REQUESTED`, an LLM review's `Verdict:
 * Request changes` or `Final Recommendation: APPROVE` (see `reviewStatusOf`) — since `gh api`
 * or an LLM exits 0 whatever it says; without one, exit 0 approves and exit 1 rejects, with the
 * output as feedback. Any other end (a crash, a timeout) leaves the review pending, so the loop
 * polls it again, boundedly. A JSON line that breaks the protocol rejects, quoting the
 * problem, so it shows in the history instead of vanishing.
 */
export function reviewVerdict(result: CommandResult): ReviewVerdict {
  const line = jsonLine(result.stdout);
  if (line !== undefined) {
    try {
      return decodeDocument(reviewDocument, JSON.parse(line)) as ReviewVerdict;
    } catch (error) {
      return {
        status: "reject",
        // The bad value comes first: a feedback line cut to fit still shows what was printed.
        feedback: `the review step printed an invalid verdict ${line.length > 120 ? `${line.slice(0, 119)}…` : line}: ${(error as Error).message}`,
      };
    }
  }
  const ended = !result.timedOut && (result.exitCode === 0 || result.exitCode === 1);
  if (!ended) return { status: "pending", feedback: result.output };
  const stated = reviewStatusOf(result.stdout);
  const status = stated ?? (result.exitCode === 0 ? "approve" : "reject");
  return { status, feedback: result.output };
}
