import { readFileSync, statSync, type Stats } from "node:fs";
import { relative } from "node:path";
import { globSync } from "tinyglobby";
import { redact } from "../core/redaction/redaction.js";
import { localPaths } from "../feedback-stream/local-paths.js";

/** Most report files one test step hands on: a multi-module build writes one per module. */
export const MAX_REPORT_FILES = 64;

/** What a test step's declared reports gave: their texts, and lines saying what was left out. */
export interface CollectedReports {
  /** Each report read whole, redacted, paths under the step's directory made relative. */
  readonly reports: readonly string[];
  /** `loopgate: …` lines for the step's output: patterns that matched nothing, reports left out. */
  readonly notes: readonly string[];
}

/**
 * The reports a test step wrote: the files its `reports` patterns match under `cwd`, written
 * since the step started (a report left by an earlier attempt is stale, and would blame the
 * new code for the old failures), in path order, whole, together at most `limitBytes`
 * (`output_limit_bytes`: a cut report does not parse, so one that would pass it is left out
 * and said so). Modification times are compared to the step's start rounded down to the
 * second, for file systems that keep whole seconds.
 */
export function collectReports(
  patterns: readonly string[],
  cwd: string,
  startedAtMs: number,
  limitBytes: number,
): CollectedReports {
  const since = Math.floor(startedAtMs / 1000) * 1000;
  const notes: string[] = [];
  const reports: string[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  for (const pattern of patterns) {
    const matched = globSync(pattern, { cwd, absolute: true, onlyFiles: true, dot: true }).sort();
    const unseen = matched.filter((path) => !seen.has(path));
    const fresh = unseen.flatMap((path) => {
      const stats = statOf(path);
      return stats !== undefined && stats.mtimeMs >= since ? [{ path, size: stats.size }] : [];
    });
    if (fresh.length === 0 && unseen.length === matched.length) {
      const stale = matched.length === 0 ? "" : ` (${matched.length} older than the step)`;
      notes.push(`loopgate: no report matching ${pattern} was written by this step${stale}`);
    }
    for (const { path, size } of fresh) {
      seen.add(path);
      const name = relative(cwd, path);
      if (reports.length === MAX_REPORT_FILES) {
        notes.push(`loopgate: report ${name} left out: more than ${MAX_REPORT_FILES} reports`);
        continue;
      }
      if (bytes + size > limitBytes) {
        notes.push(
          `loopgate: report ${name} left out: ${size} bytes would pass output_limit_bytes (${limitBytes})`,
        );
        continue;
      }
      const text = readText(path);
      if (text === undefined) {
        notes.push(`loopgate: report ${name} could not be read`);
        continue;
      }
      bytes += size;
      reports.push(redact(localPaths(cwd, text)));
    }
  }
  return { reports, notes };
}

/** The file's times and size; undefined for a file gone meanwhile. */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The file's text, or undefined when it went away or cannot be read. */
function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
