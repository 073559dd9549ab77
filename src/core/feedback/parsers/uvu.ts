import { withoutTrailing } from "../clean/without-trailing.js";
import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { truncateCodePoints } from "../clean/code-points.js";
import { stackPlaces } from "./stack-places.js";

/** Longest message kept, as for every other failure field. */
const MAX_MESSAGE_LENGTH = 1000;
/** uvu's closing counts, each on its own line: `Total:     6`, `Passed:    1`. */
const COUNT = /^[ \t]+(Total|Passed):[ \t]+(\d+)$/gm;
/** A value line's own marks: the line number of a fixture diff (`L2 `), the side (`++`/`--`). */
const VALUE_LINE = /^(?:L\d+ )?(\+\+|--)(.*)$/;
/** The label uvu puts after a value: which side it is. */
const SIDE_LABELS: readonly string[] = [" (Expected)", " (Actual)"];

/**
 * uvu 0.5: each failure is a block `FAIL  suite  "test"` (`FAIL  "test"` outside a suite) with
 * the assertion's words (`Expected values to be strictly equal:  (is)`, or a thrown error's
 * message), its values (`++` expected, `--` actual, `·` for a space, a `[type]` tag when the types
 * differ, kept) and the stack, whose first user frame says where — for a failed assertion made
 * in a shared helper, the test's line that called it. Names are kept as printed (`suite  "test"`).
 * Skipped tests are not printed.
 */
export const uvuParser: TestOutputParser = {
  name: "uvu",
  detect: (output) =>
    output.includes("FAIL ") &&
    /^[ \t]+Total:[ \t]+\d+$/m.test(output) &&
    /^[ \t]+Passed:[ \t]+\d+$/m.test(output),
  parse: (output): readonly Failure[] => blocks(logLines(output)),
  reportedFailures: (output) => {
    const counts = new Map(
      [...output.matchAll(COUNT)].map((match) => [match[1], Number(match[2])]),
    );
    const total = counts.get("Total");
    // `Total` counts the tests that ran: skipped ones are counted apart.
    return total === undefined ? null : total - (counts.get("Passed") ?? 0);
  },
};

/** One failure per `FAIL` block. */
function blocks(lines: readonly string[]): Failure[] {
  const failures: Failure[] = [];
  let block: { name: string; lines: string[] } | null = null;
  const finish = (): void => {
    if (block !== null) failures.push(blockFailure(block.name, block.lines));
    block = null;
  };
  for (const raw of lines) {
    const trimmed = raw.trim();
    const name = headerName(trimmed);
    if (name !== null) {
      finish();
      block = { name, lines: [] };
    } else if (trimmed.startsWith("Total:")) {
      finish();
    } else {
      block?.lines.push(trimmed);
    }
  }
  finish();
  return failures;
}

/**
 * The name in `FAIL  login  "keeps the role"` as uvu prints it (`login  "keeps the role"`, the
 * name a reader finds in the log), or null for any other line.
 */
function headerName(trimmed: string): string | null {
  if (!trimmed.startsWith("FAIL ") || !trimmed.endsWith('"')) return null;
  const rest = trimmed.slice("FAIL ".length).trim();
  const open = rest.indexOf('"');
  return open < 0 || open === rest.length - 1 ? null : rest;
}

/** A block's words (its first line), values and places. */
function blockFailure(name: string, lines: readonly string[]): Failure {
  const words = lines.find((line) => line !== "") ?? "";
  const sides = { expected: [] as string[], received: [] as string[] };
  for (const line of lines) {
    const value = VALUE_LINE.exec(line);
    if (value !== null)
      (value[1] === "++" ? sides.expected : sides.received).push(valueOf(value[2] ?? ""));
  }
  const known = sides.expected.length > 0 || sides.received.length > 0;
  const { location, testLocation } = stackPlaces(lines, known);
  return {
    test: name,
    file: location?.file ?? null,
    line: location?.line ?? null,
    expected: known ? joined(sides.expected) : null,
    received: known ? joined(sides.received) : null,
    message: truncateCodePoints(collapsed(words), MAX_MESSAGE_LENGTH),
    ...(testLocation === undefined ? {} : { testLocation }),
  };
}

/**
 * A printed value as uvu prints it, the `·` marks inside it kept: each stands for one space that
 * matters (`bar:[1,·2,··3]`, `"a":·{`), which collapsing blanks would lose. Its side label and
 * padding dropped, and the marks at its ends, a structure's indentation (`····"friends":·[`).
 */
function valueOf(printed: string): string {
  const trimmed = printed.trimEnd();
  const label = SIDE_LABELS.find((end) => trimmed.endsWith(end)) ?? "";
  const value = trimmed.slice(0, trimmed.length - label.length).trim();
  return collapsed(withoutTrailing(value, "· ").replace(/^[·\s]+/, ""));
}

/**
 * A side's lines as one value: the commas between its lines kept (`"alice",` then `"mary"` are
 * two elements, not `"alice" "mary"`), the one after its last dropped — it separates the value
 * from the next element of the array or object around it (`undefined,`).
 */
function joined(lines: readonly string[]): string {
  const value = lines.join("\n");
  return value.endsWith(",") ? value.slice(0, -1) : value;
}

/** `text` with its column padding (runs of spaces) read as one space. */
function collapsed(text: string): string {
  return text
    .split("  ")
    .filter((part) => part !== "")
    .map((part) => part.trim())
    .join(" ");
}
