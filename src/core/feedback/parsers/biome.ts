import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { parseLocation } from "../extractor/stack-frames.js";
import { findingFailures, summedCounts, type Finding, type Severity } from "./findings.js";

/** The rule a diagnostic's header ends with: `━━━━` after the location and category. */
const HEADER_RULE = "━━━";
/** A diagnostic's first message line, by its marker: plain (`×`, `!`, `i`) or coloured (`✖`, `⚠`, `ℹ`). */
const MESSAGE = /^([×✖!⚠iℹ]) (\S.*)$/;
/** Biome's closing counts: `Found 5 errors.`, `Found 4 warnings.`, `Found 1 info.`. */
const COUNT = /^Found (\d+) (error|warning|info)s?\.$/gm;

/**
 * Biome 1–2 (`biome lint`, `biome check`, `biome ci`, `biome format`): each diagnostic is a
 * header `path:line:col category ━━━━` (`lint/suspicious/noDoubleEquals`, `format`, `parse`,
 * `assist/source/organizeImports`; a whole-file one names no line) and its first message line
 * below (`×` error, `!` warning, `i` information). The closing block naming only the command
 * (`check ━━━`, "Some errors were emitted") is not a finding.
 */
export const biomeParser: TestOutputParser = {
  name: "biome",
  detect: (output) =>
    output.includes(HEADER_RULE) &&
    (/^Found \d+ (?:error|warning|info)s?\.$/m.test(output) ||
      /^Checked \d+ files? in /m.test(output)),
  parse: (output): readonly Failure[] => findingFailures(diagnostics(output)),
  reportedFailures: (output) => summedCounts([...output.matchAll(COUNT)].map((match) => match[1])),
};

/** Every diagnostic: its header's place and category, and the message line under it. */
function diagnostics(output: string): Finding[] {
  const found: Finding[] = [];
  let open: { file: string; line: number | null; column?: number; rule: string } | null = null;
  for (const raw of logLines(output)) {
    const trimmed = raw.trim();
    const header = raw === trimmed ? headerOf(trimmed) : undefined;
    if (header !== undefined && header !== null) {
      open = header;
      continue;
    }
    if (header === null) {
      open = null;
      continue;
    }
    const message = open === null ? null : MESSAGE.exec(trimmed);
    if (open === null || message === null) continue;
    found.push({ ...open, message: message[2] ?? "", severity: severityOf(message[1] ?? "") });
    open = null;
  }
  return found;
}

/**
 * A header line as the diagnostic's place and category; null for the closing block (a
 * header with only the command's name); undefined for any other line.
 */
function headerOf(
  trimmed: string,
): { file: string; line: number | null; column?: number; rule: string } | null | undefined {
  if (!trimmed.endsWith(HEADER_RULE)) return undefined;
  const words = trimmed
    .slice(0, trimmed.indexOf(HEADER_RULE))
    .split(" ")
    .filter((word) => word !== "" && word !== "FIXABLE");
  const [place = "", rule] = words;
  if (rule === undefined) return null;
  const location = parseLocation(place);
  if (location === null) return { file: place, line: null, rule };
  const column = Number(place.slice(place.lastIndexOf(":") + 1));
  const hasColumn = place.split(":").length > 2 && Number.isSafeInteger(column);
  return { file: location.file, line: location.line, ...(hasColumn ? { column } : {}), rule };
}

/** The severity a message's marker stands for. */
function severityOf(marker: string): Severity {
  if (marker === "×" || marker === "✖") return "error";
  return marker === "!" || marker === "⚠" ? "warning" : "info";
}
