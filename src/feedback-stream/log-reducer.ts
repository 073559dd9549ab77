import { MAX_LINE_LENGTH } from "../core/feedback/clean/log-lines.js";
import { isPassingLine, reportsFailure } from "./failure-lines.js";
import { lineIn } from "./line-range.js";
import { flatten } from "./line-splitter.js";
import { RecentLines } from "./recent-lines.js";

/** Limits of a log reduction; every one bounds memory whatever the size of the log. */
export interface ReductionLimits {
  /** Total characters (UTF-16 code units) kept from the log, line breaks included. */
  readonly budget: number;
  /** Lines kept from the start: banners, a compile error, the first `FAIL` header. */
  readonly headLines: number;
  /** Lines kept from the end: summaries (`Tests: 3 failed`, pytest's short summary, cargo's list). */
  readonly tailLines: number;
  /** Lines kept before a line that looks like a failure (suite headers, the test's name). */
  readonly contextBefore: number;
  /** Lines kept after one (messages, diffs, code frames, the first stack frames). */
  readonly contextAfter: number;
}

/** The default limits: a 4 MB reduction, far more than any cap the feedback is fitted to. */
export const DEFAULT_LIMITS: ReductionLimits = {
  budget: 4 * 1024 * 1024,
  headLines: 50,
  tailLines: 200,
  contextBefore: 10,
  contextAfter: 40,
};

/** What was kept of a log, and how much was left out. */
export interface LogReduction {
  /** The kept lines, in log order, joined with `\n`. */
  readonly text: string;
  /** Lines read. */
  readonly lines: number;
  /** Lines in `text`. */
  readonly keptLines: number;
  /** Lines read and left out (`lines - keptLines`). */
  readonly droppedLines: number;
  /** Lines cut to 4,000 characters (or to their last `\r` redraw) before they were read. */
  readonly cutLines: number;
  /** Whether the log was one JSON document kept whole (a JSON reporter's output). */
  readonly json: boolean;
}

/**
 * Keeps a bounded reduction of a log read line by line: the first `headLines`, the last
 * `tailLines`, and blocks of context around every line that looks like a failure, until the
 * budget is spent. Lines are kept in log order and never twice. Memory holds the kept text plus
 * a ring of recent lines (and the chunks they came in), however long the log is.
 */
export class LogReducer {
  private readonly limits: ReductionLimits;
  /** Finished pieces of kept text, each a flat string of one or more lines. */
  private readonly kept: string[] = [];
  /** Kept lines not yet joined into `kept`. */
  private pending: string[] = [];
  private pendingLength = 0;
  private keptLength = 0;
  private keptLines = 0;
  /** Index of the last kept line; -1 before any. */
  private lastKept = -1;
  /** The last lines of the log, for the summary at its end. */
  private readonly tail: RecentLines;
  /** Lines still to keep after the latest failure line. */
  private after = 0;
  private index = 0;
  /** `limits.headLines`, read for every line. */
  private readonly headLines: number;
  /** Characters the head and the blocks may use; the rest is the tail's. */
  private readonly blockBudget: number;

  /** Lines of the pretty-printed JSON document being read whole, or null. */
  private document: string[] | null = null;
  private documentStart = 0;
  private documentLength = 0;
  /** Whether a JSON document may still be kept whole: one per log. */
  private documentAllowed: boolean;
  /**
   * The suite headers (`▶ suite`, `# Subtest: suite`) the latest line is nested in, outermost
   * first, each deeper than the one before: a failure far below its suite's header keeps the
   * header, so the test is named by its suite path.
   */
  private readonly suites: { indent: number; index: number; line: string }[] = [];

  /**
   * With `maxDocumentLength`, the first pretty-printed JSON document among other output (a
   * line `{` or `[` up to a line `}` or `]`, as `mocha --reporter json` prints after console
   * noise) is kept whole, outside the budget, up to that many characters; a longer or
   * unfinished one is read as lines.
   */
  constructor(
    limits: Partial<ReductionLimits> = {},
    private readonly maxDocumentLength = 0,
  ) {
    this.documentAllowed = maxDocumentLength > 0;
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.headLines = this.limits.headLines;
    // One ring serves both: the context before a failure is the end of the latest lines.
    this.tail = new RecentLines(Math.max(this.limits.tailLines, this.limits.contextBefore + 1));
    this.blockBudget = Math.floor((this.limits.budget * 3) / 4);
  }

  /**
   * Reads lines, each cut and cleaned already but maybe with trailing blanks: those of `text` from
   * `start` to `end` (a `\n`, or the end of `text`), one `\n` apart, up to the first longer than
   * `MAX_LINE_LENGTH`, which is left to the caller to cut. Returns where it stopped: the start of
   * that line, or `end + 1`. Most lines of a log are read in this loop and only counted: a
   * passing test's line (it can open no document nor block) is neither copied nor matched, and
   * lines reach `tail` a run at a time, added before anyone reads it.
   */
  pushLines(text: string, start: number, end: number): number {
    let runStart = start;
    let runFirst = this.index;
    let lineStart = start;
    for (;;) {
      let lineEnd = text.indexOf("\n", lineStart);
      if (lineEnd === -1) lineEnd = text.length;
      if (lineEnd - lineStart > MAX_LINE_LENGTH) break;
      // Asked here only, and the answer handed on: with this one caller, V8 keeps it inlined in
      // the loop (with a second caller per line, the bench measured the loop 25% slower).
      const passing = isPassingLine(text, lineStart, lineEnd);
      if (!passing || this.after > 0 || this.document !== null || this.index < this.headLines) {
        this.tail.add(text, runStart, lineStart - 1, runFirst, this.index - runFirst);
        this.readLine(text, lineStart, lineEnd, passing);
        runStart = lineEnd + 1;
        runFirst = this.index;
      } else this.index += 1;
      lineStart = lineEnd + 1;
      if (lineEnd >= end) break;
    }
    this.tail.add(text, runStart, lineStart - 1, runFirst, this.index - runFirst);
    return lineStart;
  }

  /** Reads one line that is not only counted: `tail` holds the lines before it. */
  private readLine(text: string, start: number, end: number, passing: boolean): void {
    if (this.document !== null || this.opensDocument(text, start, end)) {
      this.readDocumentLine(lineIn(text, start, end));
      return;
    }
    const index = this.index;
    this.index += 1;
    this.tail.add(text, start, end, index, 1);
    // Every line read here is matched or kept (passing lines outside a block are only counted).
    const line = lineIn(text, start, end);
    this.enterSuite(line, index);
    // A failure in the head opens a block too: its diff and frames often run past the head.
    if (!passing && reportsFailure(line)) {
      const windowStart = index - this.limits.contextBefore;
      for (const suite of this.suites) {
        if (suite.index > this.lastKept && suite.index < windowStart)
          this.keep(suite.index, suite.line);
      }
      this.tail.visitLast(this.limits.contextBefore + 1, (before, at) => {
        if (at > this.lastKept && at < index) this.keep(at, before);
      });
      this.after = this.limits.contextAfter;
      this.keep(index, line);
    } else if (this.after > 0 || index < this.headLines) {
      if (this.after > 0) this.after -= 1;
      this.keep(index, line);
    }
  }

  /** Remembers a suite header, leaving the suites it is not nested in (at its depth or deeper). */
  private enterSuite(line: string, index: number): void {
    // Told by the first characters, without copying: most lines read here are no header.
    let indent = 0;
    while (line.charCodeAt(indent) === 0x20) indent += 1;
    const mark = line.charCodeAt(indent);
    if (mark !== 0x25b6 && mark !== 0x23) return;
    if (!line.startsWith("▶ ", indent) && !line.startsWith("# Subtest: ", indent)) return;
    while ((this.suites.at(-1)?.indent ?? -1) >= indent) this.suites.pop();
    // A header deeper than any sane nesting is data, not structure: the stack stays small.
    if (this.suites.length < 32) this.suites.push({ indent, index, line });
  }

  /** Whether the line opens the pretty-printed JSON document kept whole: `{` or `[` alone. */
  private opensDocument(text: string, start: number, end: number): boolean {
    const first = text.charCodeAt(start);
    return (
      (first === 0x7b || first === 0x5b) &&
      this.documentAllowed &&
      lineIn(text, start, end).length === 1
    );
  }

  /** Reads a line of the JSON document, or the line that opens it. */
  private readDocumentLine(line: string): void {
    this.index += 1;
    if (this.document === null) {
      this.documentAllowed = false;
      this.document = [line];
      this.documentStart = this.index - 1;
      this.documentLength = 2;
      return;
    }
    const document = this.document;
    document.push(line);
    this.documentLength += line.length + 1;
    if (line === "}" || line === "]") {
      this.document = null;
      this.flush();
      this.kept.push(flatten(document.join("\n")));
      this.keptLines += document.length;
      this.lastKept = this.index - 1;
      this.after = 0;
    } else if (this.documentLength > this.maxDocumentLength) this.readDocumentAsLines();
  }

  /** Reads the document's lines as any others: it is too long, or the log ended inside it. */
  private readDocumentAsLines(): void {
    const lines = this.document ?? [];
    this.document = null;
    this.index = this.documentStart;
    const text = lines.join("\n");
    this.pushLines(text, 0, text.length);
  }

  /** Reads the next line as a JSON document kept whole, outside the budget (see `LineSplitter`). */
  pushDocument(text: string): void {
    this.flush();
    this.kept.push(text);
    this.keptLines += 1;
    this.lastKept = this.index;
    this.index += 1;
    this.after = 0;
  }

  /** The reduction of everything read. */
  end(json = false): LogReduction {
    if (this.document !== null) this.readDocumentAsLines();
    this.flush();
    const tail: string[] = [];
    let room = this.limits.budget - this.keptLength;
    const lines: string[] = [];
    this.tail.visitLast(this.limits.tailLines, (line, at) => {
      if (at > this.lastKept) lines.push(line);
    });
    // Newest lines first, so the summary at the very end is the last thing to go.
    for (const line of lines.reverse()) {
      room -= line.length + 1;
      if (room < 0) break;
      tail.push(line);
    }
    tail.reverse();
    const text = [...this.kept, ...tail].join("\n");
    const keptLines = this.keptLines + tail.length;
    return {
      text,
      lines: this.index,
      keptLines,
      droppedLines: this.index - keptLines,
      cutLines: 0,
      json,
    };
  }

  private keep(index: number, text: string): void {
    const cost = text.length + 1;
    if (this.keptLength + this.pendingLength + cost > this.blockBudget) {
      this.after = 0;
      return;
    }
    this.pending.push(text);
    this.pendingLength += cost;
    this.keptLines += 1;
    this.lastKept = index;
    if (this.pending.length >= 256) this.flush();
  }

  /** Joins pending lines into one flat string, so kept text holds no decoded chunk alive. */
  private flush(): void {
    if (this.pending.length === 0) return;
    this.kept.push(flatten(this.pending.join("\n")));
    this.keptLength += this.pendingLength;
    this.pending = [];
    this.pendingLength = 0;
  }
}
