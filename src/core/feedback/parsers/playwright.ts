import type { Failure, TestOutputParser } from "../feedback.js";
import { failureFromReport } from "../extractor/general-extractor.js";
import { logLines } from "../clean/log-lines.js";
import { parseLocation, type SourceLocation } from "../extractor/stack-frames.js";

/** Playwright's banner: `Running 7 tests using 1 worker`. */
const BANNER = /^Running \d+ tests? using \d+ workers?/m;
/** A failure's header: `1) [chromium] › tests/cart.spec.ts:14:3 › cart › shows the total ───`. */
const HEADER = /^\d+\) (\S.*)$/;
/** The closing count of failed tests: `5 failed`. */
const FAILED_COUNT = /^ {2}(\d+) failed$/m;
/** Separator of a header's parts: project, location, suites, test. */
const PART = " › ";

/**
 * Playwright Test's list, line and dot reporters (what `npx playwright test` prints locally and
 * on CI): one block per failed test under its header `1) [project] › file:line:col › suite ›
 * test`, read by the general extractor (`Error: expect(locator).toHaveText(expected)`, `Expected:`
 * / `Received:`, `Expected string:`, Jest-style diffs, the first user frame); a test without a
 * frame (`Test timeout of 30000ms exceeded.`) is located at its header. Names are the suite path
 * joined by ` › `, led by the project only when the run has more than one.
 */
export const playwrightParser: TestOutputParser = {
  name: "playwright",
  detect: (output) =>
    BANNER.test(output) || (output.includes(PART) && /^ {2}\d+ failed$/m.test(output)),
  parse: (output): readonly Failure[] => failures(logLines(output)),
  reportedFailures: (output) => {
    const count = FAILED_COUNT.exec(output)?.[1];
    return count === undefined ? null : Number(count);
  },
};

/** A header read: the test's project, declared place and suite path. */
interface Header {
  readonly project: string | null;
  readonly declared: SourceLocation;
  readonly title: string;
}

/** One failure per header's block; repeated blocks of one test (retries) are one. */
function failures(lines: readonly string[]): Failure[] {
  const blocks: { header: Header; lines: string[] }[] = [];
  let current: { header: Header; lines: string[] } | null = null;
  for (const raw of lines) {
    const trimmed = raw.trim();
    const header = headerOf(trimmed);
    if (header !== null) {
      current = { header, lines: [] };
      blocks.push(current);
    } else if (/^\d+ (?:failed|flaky|passed|skipped|interrupted|did not run)\b/.test(trimmed)) {
      current = null;
    } else {
      current?.lines.push(raw);
    }
  }
  const projects = new Set(blocks.map((block) => block.header.project));
  const seen = new Set<string>();
  const found: Failure[] = [];
  for (const { header, lines: block } of blocks) {
    const name =
      projects.size > 1 && header.project !== null
        ? `[${header.project}]${PART}${header.title}`
        : header.title;
    if (seen.has(name)) continue;
    seen.add(name);
    found.push(blockFailure(name, header.declared, block));
  }
  return found;
}

/** `1) [chromium] › tests/a.spec.ts:14:3 › cart › total ───` read, or null for any other line. */
function headerOf(trimmed: string): Header | null {
  const numbered = HEADER.exec(trimmed);
  if (numbered?.[1] === undefined || !numbered[1].includes(PART)) return null;
  let rest = numbered[1];
  while (rest.endsWith("─")) rest = rest.slice(0, -1);
  const parts = rest.trim().split(PART);
  const project =
    parts[0]?.startsWith("[") && parts[0].endsWith("]") ? parts[0].slice(1, -1) : null;
  const [place = "", ...titles] = project === null ? parts : parts.slice(1);
  const declared = parseLocation(place);
  return declared === null || titles.length === 0
    ? null
    : { project, declared, title: titles.join(PART) };
}

/** A block read by the extractor; its header's place when no frame said where. */
function blockFailure(name: string, declared: SourceLocation, block: readonly string[]): Failure {
  const failure = failureFromReport(name, declared.file, block.join("\n"));
  const message =
    failure.message === ""
      ? (block.map((line) => line.trim()).find((line) => line !== "") ?? "")
      : failure.message;
  return failure.line === null
    ? { ...failure, file: declared.file, line: declared.line, message }
    : { ...failure, message };
}
