import * as v from "valibot";
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

/** The last line of stdout that looks like a JSON object: reviewers often log before answering. */
function jsonLine(stdout: string): string | undefined {
  return stdout
    .split("\n")
    .map((line) => line.trim())
    .findLast((line) => line.startsWith("{") && line.endsWith("}"));
}

/**
 * Reads a review step: a JSON `{status, feedback, score?}` line on stdout wins; otherwise exit
 * 0 approves and exit 1 rejects with the output as feedback. Any other end (a crash, a timeout)
 * leaves the review pending, so the loop polls it again, boundedly. A JSON line that breaks the
 * protocol rejects, quoting the problem, so it shows in the history instead of vanishing.
 */
export function reviewVerdict(result: CommandResult): ReviewVerdict {
  const line = jsonLine(result.stdout);
  if (line !== undefined) {
    try {
      return decodeDocument(reviewDocument, JSON.parse(line)) as ReviewVerdict;
    } catch (error) {
      return {
        status: "reject",
        feedback: `the review step printed an invalid verdict: ${(error as Error).message}`,
      };
    }
  }
  if (!result.timedOut && result.exitCode === 0)
    return { status: "approve", feedback: result.output };
  if (!result.timedOut && result.exitCode === 1)
    return { status: "reject", feedback: result.output };
  return { status: "pending", feedback: result.output };
}
