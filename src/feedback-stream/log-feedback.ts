import { createReadStream } from "node:fs";
import type { Feedback, TestFeedback, TestOutputParser } from "../core/feedback/feedback.js";
import { reviewFeedback } from "../core/feedback/review-feedback.js";
import { testFeedback } from "../core/feedback/test-feedback.js";
import { localPaths } from "./local-paths.js";
import type { LogReduction } from "./log-reducer.js";
import { reduceLog, type ReduceLogOptions } from "./reduce-log.js";

/**
 * Bytes read at a time. Measured on a 200 MB log (npm run bench): 64 KB reads are faster than
 * 1 MB reads (decoding and slicing megabyte strings costs more than it saves in calls) and
 * hold less memory at once (about 85 MB peak RSS against 140 MB).
 */
const READ_SIZE = 64 * 1024;
/** Longest review read, in characters: reviews are prose or one JSON document (SARIF, GitHub). */
export const MAX_REVIEW_LENGTH = 64 * 1024 * 1024;

/** Options of `logFeedback`. */
export interface LogFeedbackOptions {
  /** `test`: a test run's output (SPEC §4); `review`: a reviewer's text or JSON. */
  readonly kind: "test" | "review";
  /** Cap on summary plus items, in code points. */
  readonly maxLength: number;
  /** Per-runner parsers tried in order before the general extractor. */
  readonly parsers?: readonly TestOutputParser[];
  /** Limits of the reduction a test log is read into. */
  readonly limits?: ReduceLogOptions;
  /**
   * The project's directory: absolute paths under it are written relative to it before the
   * log is read (the core then cuts any other project root the log's own paths show).
   */
  readonly root?: string;
  /** Machine-readable reports the same test run wrote, read before the log (`testFeedback`). */
  readonly reports?: readonly string[];
}

/** Review feedback in the shape of test feedback: no failures, no runner. */
export interface ReviewLogFeedback extends Feedback {
  readonly failures: readonly never[];
  readonly runner: null;
}

/** Feedback from a log read as a stream, with what the reading kept of it. */
export interface LogFeedback {
  readonly feedback: TestFeedback | ReviewLogFeedback;
  readonly reduction: LogReduction;
}

/**
 * Focused feedback (SPEC §4) from a log of any size read as a stream: a test log is reduced to
 * a bounded text (head, tail and the blocks around failures, or a JSON report whole) that the
 * pure `testFeedback` reads; a review is read up to `MAX_REVIEW_LENGTH` characters and handed to
 * `reviewFeedback`. Memory does not grow with the log.
 */
export async function logFeedback(
  source: AsyncIterable<Uint8Array | string>,
  options: LogFeedbackOptions,
): Promise<LogFeedback> {
  if (options.kind === "review") {
    const reduction = await readPrefix(source, MAX_REVIEW_LENGTH);
    const feedback = reviewFeedback(local(reduction.text, options.root), {
      maxLength: options.maxLength,
    });
    return { feedback: { ...feedback, failures: [], runner: null }, reduction };
  }
  const reduction = await reduceLog(source, options.limits);
  const feedback = testFeedback(local(reduction.text, options.root), {
    maxLength: options.maxLength,
    ...(options.reports === undefined
      ? {}
      : { reports: options.reports.map((report) => local(report, options.root)) }),
    ...(options.parsers === undefined ? {} : { parsers: options.parsers }),
  });
  return { feedback, reduction };
}

/** `text` with paths under `root` relative to it, when a root is given. */
function local(text: string, root: string | undefined): string {
  return root === undefined ? text : localPaths(root, text);
}

/** The bytes of FILE as a stream, read `READ_SIZE` at a time. */
export function openLog(file: string): AsyncIterable<Uint8Array> {
  return createReadStream(file, { highWaterMark: READ_SIZE });
}

/** The first `maxLength` characters of a stream; the rest is read and counted, not kept. */
async function readPrefix(
  source: AsyncIterable<Uint8Array | string>,
  maxLength: number,
): Promise<LogReduction> {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const parts: string[] = [];
  let length = 0;
  let lines = 1;
  let keptLines = 1;
  const read = (text: string): void => {
    lines += countNewlines(text);
    if (length >= maxLength) return;
    const part = text.slice(0, maxLength - length);
    keptLines += countNewlines(part);
    parts.push(part);
    length += part.length;
  };
  for await (const chunk of source) {
    read(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
  }
  read(decoder.decode());
  const text = parts.join("");
  if (text === "") lines = keptLines = 0;
  return {
    text,
    lines,
    keptLines,
    droppedLines: lines - keptLines,
    cutLines: 0,
    json: false,
  };
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    count += 1;
  }
  return count;
}
