import { flatten } from "./line-splitter.js";
import { looksLikeFailure } from "./failure-lines.js";

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
 * two small rings of recent lines, however long the log is.
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
  private readonly tail: Ring;
  /** Lines still to keep after the latest failure line. */
  private after = 0;
  private index = 0;
  /** Characters the head and the blocks may use; the rest is the tail's. */
  private readonly blockBudget: number;

  /** Lines of the pretty-printed JSON document being read whole, or null. */
  private document: string[] | null = null;
  private documentStart = 0;
  private documentLength = 0;
  /** Whether a JSON document may still be kept whole: one per log. */
  private documentAllowed: boolean;

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
    // One ring serves both: the context before a failure is the end of the latest lines.
    this.tail = new Ring(Math.max(this.limits.tailLines, this.limits.contextBefore + 1));
    this.blockBudget = Math.floor((this.limits.budget * 3) / 4);
  }

  /** Reads the next line (already cut and cleaned). */
  push(text: string): void {
    if (this.document !== null) this.readDocument(this.document, text);
    else if (this.documentAllowed && (text === "{" || text === "[")) {
      this.documentAllowed = false;
      this.document = [text];
      this.documentStart = this.index;
      this.documentLength = 2;
      this.index += 1;
    } else this.pushLine(text);
  }

  private readDocument(document: string[], text: string): void {
    document.push(text);
    this.documentLength += text.length + 1;
    this.index += 1;
    if (text === "}" || text === "]") {
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
    for (const line of lines) this.pushLine(line);
  }

  private pushLine(text: string): void {
    const index = this.index;
    this.index += 1;
    this.tail.push(text, index);
    if (index < this.limits.headLines) {
      this.keep(index, text);
      return;
    }
    if (looksLikeFailure(text)) {
      this.tail.visitLast(this.limits.contextBefore + 1, (line, at) => {
        if (at > this.lastKept && at < index) this.keep(at, line);
      });
      this.after = this.limits.contextAfter;
      this.keep(index, text);
    } else if (this.after > 0) {
      this.after -= 1;
      this.keep(index, text);
    }
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

/**
 * The latest `capacity` lines, with their indices. Appends to an array and trims it to
 * `capacity` when it reaches twice that: cheaper per line than a ring's slot arithmetic,
 * and the trimmed array never holds more than `2 × capacity` lines.
 */
class Ring {
  private lines: string[] = [];
  /** Index of `lines[0]`; the lines are consecutive. */
  private first = 0;

  constructor(private readonly capacity: number) {}

  push(line: string, index: number): void {
    if (this.capacity === 0) return;
    if (this.lines.length === 0 || index !== this.first + this.lines.length) {
      this.lines = [];
      this.first = index;
    }
    this.lines.push(line);
    if (this.lines.length >= 2 * this.capacity) {
      this.lines = this.lines.slice(this.capacity);
      this.first += this.capacity;
    }
  }

  /** Hands each of the latest `count` lines (at most `capacity`) to `visit`, oldest first. */
  visitLast(count: number, visit: (line: string, index: number) => void): void {
    const from = Math.max(0, this.lines.length - Math.min(count, this.capacity));
    for (let offset = from; offset < this.lines.length; offset += 1) {
      visit(this.lines[offset] ?? "", this.first + offset);
    }
  }
}
