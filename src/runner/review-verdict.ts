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

/** A review that ended without saying anything: it crashed, was killed, or timed out. */
export interface ReviewCrash {
  readonly status: "crashed";
  /** How it ended, in a few words: `exited with 2`, `was killed by SIGSEGV`. */
  readonly ended: string;
}

/**
 * The exit code by which a review step without a JSON verdict says "pending, ask again later":
 * sysexits' EX_TEMPFAIL, the code mail and CI tools use for "try again".
 */
export const REVIEW_PENDING_EXIT = 75;

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
 * output as feedback. Exit 75 (REVIEW_PENDING_EXIT) is pending. Pending is never guessed: any
 * other end (exit 2 or more, a signal, a timeout, a program that never started) is a crash —
 * a step error for the driver, since a reviewer that is not there must not look like one that
 * is still thinking. A JSON line that breaks the protocol rejects, quoting the problem, so it
 * shows in the history instead of vanishing.
 */
export function reviewVerdict(result: CommandResult): ReviewVerdict | ReviewCrash {
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
  if (result.timedOut) return { status: "crashed", ended: "timed out without a verdict" };
  if (result.exitCode === REVIEW_PENDING_EXIT)
    return { status: "pending", feedback: result.output };
  if (result.exitCode !== 0 && result.exitCode !== 1) {
    const ended =
      result.notStarted !== undefined
        ? `could not start (${result.notStarted})`
        : result.exitCode === null
          ? `was killed by ${result.signal ?? "a signal"}`
          : `exited with ${result.exitCode} without a verdict`;
    return { status: "crashed", ended };
  }
  const stated = reviewStatusOf(result.stdout);
  const status = stated ?? (result.exitCode === 0 ? "approve" : "reject");
  return { status, feedback: result.output };
}
