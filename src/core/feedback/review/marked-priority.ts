import type { Priority } from "../feedback.js";

/**
 * The priority free-form review words mark themselves with, or null when they mark none:
 * `blocking`, `must`, `critical`, `security`, `vulnerability`, `injection` are high; `nit`, `minor`, `optional`,
 * `non-blocking` are low (checked first, since `non-blocking` contains `blocking`).
 */
export function markedPriority(text: string): Priority | null {
  if (/\bnon-?blocking\b/i.test(text)) return "low";
  if (/\b(?:blocking|blocker|must|critical|security|vulnerability|injection)\b/i.test(text)) {
    return "high";
  }
  if (/\b(?:nit|nits|nitpick|minor|optional)\b/i.test(text)) return "low";
  return null;
}
