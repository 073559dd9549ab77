import type { Priority } from "../feedback.js";

/** A Conventional Comments label (https://conventionalcomments.org) read from the start of a point. */
export interface ConventionalComment {
  /** The label in lower case with its decorations: `issue (blocking)`, `nit`. */
  readonly label: string;
  /** Null for praise, which asks for nothing and is dropped. */
  readonly priority: Priority | null;
  /** The words after the label. */
  readonly subject: string;
}

/**
 * `label (decorations): subject`, after an optional emoji (Sourcery's `🚨 issue (security):`);
 * the spec's labels plus the common extras `typo`, `polish`, `quibble`, `nitpick`.
 */
const LABEL =
  /^(?:\p{Extended_Pictographic}\uFE0F?\s*)?(praise|nitpick|nit|suggestion|issue|todo|question|thought|chore|note|typo|polish|quibble)[ \t]*(?:\(([^()\n]*)\)[ \t]*)?:/iu;

const LABEL_PRIORITY: ReadonlyMap<string, Priority | null> = new Map<string, Priority | null>([
  ["issue", "high"],
  ["todo", "high"],
  ["suggestion", "medium"],
  ["question", "medium"],
  ["chore", "medium"],
  ["nit", "low"],
  ["nitpick", "low"],
  ["thought", "low"],
  ["note", "low"],
  ["typo", "low"],
  ["polish", "low"],
  ["quibble", "low"],
  ["praise", null],
]);

/** Decorations that name a cosmetic kind, as the `typo` label does (Sourcery's `suggestion (typo)`): low. */
const COSMETIC = new Set(["typo", "spelling", "grammar", "wording", "style", "formatting"]);

/** One step less urgent, for a `(non-blocking)` decoration. */
const SOFTER: Readonly<Record<Priority, Priority>> = { high: "medium", medium: "low", low: "low" };

/**
 * The Conventional Comment `text` starts with, or null. Labels are case-insensitive; a
 * `(blocking)` decoration makes any label high, `(non-blocking)` makes it one step lower
 * (`issue (non-blocking)` is medium, `suggestion (non-blocking)` low), a cosmetic kind
 * (`typo`, `spelling`, `grammar`, `wording`, `style`, `formatting`) makes it low; other
 * decorations (`if-minor`, `security`, `bug_risk`) are kept in the label but do not change
 * the priority.
 */
export function conventionalComment(text: string): ConventionalComment | null {
  const match = LABEL.exec(text);
  const name = match?.[1]?.toLowerCase() ?? "";
  const base = LABEL_PRIORITY.get(name);
  if (match === null || base === undefined) return null;
  const decorations = (match[2] ?? "")
    .split(",")
    .map((decoration) => decoration.trim().toLowerCase())
    .filter((decoration) => decoration !== "");
  const priority =
    base === null
      ? null
      : decorations.includes("blocking")
        ? "high"
        : decorations.includes("non-blocking")
          ? SOFTER[base]
          : decorations.some((decoration) => COSMETIC.has(decoration))
            ? "low"
            : base;
  return {
    label: decorations.length === 0 ? name : `${name} (${decorations.join(", ")})`,
    priority,
    subject: text.slice(match[0].length).trim(),
  };
}
