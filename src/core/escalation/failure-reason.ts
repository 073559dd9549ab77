import type { Failure } from "../feedback/feedback.js";
import { truncateCodePoints } from "../feedback/clean/code-points.js";
import { assertionTarget } from "./assertion-target.js";
import { parseLiteral } from "./literal.js";
import type { OutputEvidence } from "./output-evidence.js";
import { findTypeMismatch } from "./type-mismatch.js";

/** Longest a printed value may run inside a reason. */
const VALUE_LENGTH = 40;
/** Prose expectations (`Expected: token to contain userId`) that say a part is missing. */
const CONTAINS = [" to contain ", " to include ", " to have property ", " to have "] as const;
/** The matcher a Jest/Vitest message names: `expect(received).toHaveProperty(path)`, `.not.` noted. */
const MATCHER = /^expect\(received\)\.(not\.)?(to\w+)\(/;
/** Error-class prefixes that add nothing to the error's words. */
const ERROR_PREFIX = /^\w*Error:\s*/;

/** The first line of a printed value, cut short enough to sit in a one-line reason. */
function shortValue(text: string): string {
  return truncateCodePoints((text.trim().split("\n")[0] ?? "").trim(), VALUE_LENGTH);
}

/**
 * The reason a prose expectation gives when it failed: `token to be defined` means the token
 * is undefined, `token to contain userId` that it lacks userId, whatever was received instead.
 */
function proseReason(expected: string): string | null {
  // A negated expectation (`not to contain`) failed because the part is there, not missing.
  if (expected.includes(" not to ")) return null;
  if (expected.endsWith(" to be defined"))
    return `undefined ${expected.slice(0, -" to be defined".length)}`;
  for (const verb of CONTAINS) {
    const at = expected.indexOf(verb);
    if (at > 0) return `${expected.slice(0, at)} missing ${expected.slice(at + verb.length)}`;
  }
  return null;
}

/** The reason a Jest/Vitest matcher gives (`toBeDefined`, `toHaveProperty`) read with its code frame. */
function matcherReason(failure: Failure, evidence: OutputEvidence): string | null {
  const [, negated, matcher] = MATCHER.exec(failure.message) ?? [];
  if (matcher === undefined) return null;
  const target = assertionTarget(evidence.frames, failure);
  const subject = target?.subject ?? "value";
  if (negated === undefined && matcher === "toBeDefined") return `undefined ${subject}`;
  if (negated === undefined && matcher === "toHaveProperty") {
    const path = target?.field ?? parseLiteral(failure.expected ?? "")?.value ?? null;
    if (path !== null) return `${subject} missing ${path}`;
  }
  if (failure.expected === null && failure.received === null) return `${subject} failed ${matcher}`;
  return null;
}

/**
 * What went wrong in one failure, in a few words: a type confusion (`userId present but wrong
 * format`), a missing value (`undefined token`, `token missing userId`), expected vs received,
 * or the error's own first line.
 */
export function failureReason(failure: Failure, evidence: OutputEvidence): string {
  const mismatch = findTypeMismatch(failure, evidence);
  if (mismatch !== null) {
    const field = mismatch.field ?? "value";
    return `${field} present but wrong format (${mismatch.receivedType} instead of ${mismatch.expectedType})`;
  }
  const prose = failure.expected === null ? null : proseReason(failure.expected.trim());
  const matched = prose ?? matcherReason(failure, evidence);
  if (matched !== null) return matched;
  if (failure.expected !== null && failure.received !== null) {
    return `expected ${shortValue(failure.expected)}, received ${shortValue(failure.received)}`;
  }
  const message = (failure.message.trim().split("\n")[0] ?? "").replace(ERROR_PREFIX, "");
  return message === "" ? (failure.test ?? "failed") : message;
}
