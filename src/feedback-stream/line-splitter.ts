import { lastDrawnState, stripAnsi } from "../core/feedback/clean/ansi.js";
import { MAX_LINE_LENGTH } from "../core/feedback/clean/log-lines.js";
import { redactedPrefix } from "../core/redaction/redacted-cut.js";

/** Longest line handed on, in UTF-16 code units: the same cut the core's extractor makes. */
export { MAX_LINE_LENGTH };
/**
 * Longest raw line kept before escape sequences are stripped: enough for a coloured 4,000-character
 * line, small enough that a 10 MB line, or one of escape codes only, costs nothing to hold.
 */
const MAX_RAW_LINE_LENGTH = 4 * MAX_LINE_LENGTH;

/** Cleaned lines held before they are handed on together. */
const MAX_CLEANED_LINES = 256;

/** How a line that holds a JSON report starts (`{"numFailedTestSuites":…`, `[{"…`). */
const JSON_LINE_START = /^\s*(?:\{"|\[\{)/u;

/** Anything `stripAnsi` would remove or rewrite: escapes, C0/C1 controls (NUL included), DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NEEDS_CLEANING = /[\x00-\x08\v\f\x0e-\x1f\x7f-\x9f]/;

/** Where a `LineSplitter` hands what it reads. */
export interface LineSink {
  /**
   * Lines, each cleaned already but maybe with trailing blanks: those of `text` from `start` to
   * `end` (a `\n`, or the end of `text`), one `\n` apart, up to the first longer than
   * `MAX_LINE_LENGTH`, which the sink leaves for the splitter to cut. Returns where it stopped:
   * the start of that line, or `end + 1`.
   */
  pushLines(text: string, start: number, end: number): number;
  /** A JSON document read whole (see the constructor). */
  pushDocument?(document: string): void;
}

/**
 * Splits decoded text, pushed chunk by chunk, into the lines a person reads on a terminal: `\r\n`
 * and `\n` end a line, a line redrawn with `\r` (progress bars) is its last non-empty state,
 * escape sequences and control characters (NUL included) are removed, and every line is cut to
 * `MAX_LINE_LENGTH` before anyone matches a pattern on it. Lines reach the sink as ranges of one
 * flat text: of a plain chunk itself, or of the lines that needed cleaning joined, so that the
 * sink's one loop always reads the same kind of string. Trailing blanks are left to the sink,
 * which drops them from the few lines it copies. Memory is bounded by the chunk size plus
 * `MAX_RAW_LINE_LENGTH`, whatever the length of a line.
 */
export class LineSplitter {
  /** The line being read when a chunk ended inside it. */
  private partial = "";
  /** Lines cut because they were longer than `MAX_LINE_LENGTH`. */
  cutLines = 0;
  private cutting = false;
  /** Pieces of the JSON line being read whole, or null. */
  private document: string[] | null = null;
  private documentLength = 0;
  /** Whether a JSON line may still be kept whole: one per log. */
  private documentAllowed: boolean;
  /** Lines cleaned or cut and not yet handed on; handed on together, before any later line. */
  private cleaned: string[] = [];

  /**
   * `sink` receives each cleaned, cut line. With `maxDocumentLength` and a sink that takes
   * documents, the first line that starts a JSON document (`{"` or `[{`) and outgrows the cut is
   * kept whole up to `maxDocumentLength` and handed to `pushDocument` as it is, so that a JSON
   * report printed among other output (`jest --json 2>&1`) still parses.
   */
  constructor(
    private readonly sink: LineSink,
    private readonly maxDocumentLength = 0,
  ) {
    this.documentAllowed = sink.pushDocument !== undefined && maxDocumentLength > 0;
  }

  /**
   * Reads one chunk; complete lines go to the sink. `plain` says the chunk holds no escape
   * (ESC, CSI), NUL or `\r`, when the caller already knows it from the bytes (see `isPlainBytes`).
   */
  push(chunk: string, plain = isPlainText(chunk)): void {
    let start = 0;
    let last: number | undefined;
    for (;;) {
      const end = chunk.indexOf("\n", start);
      if (end === -1) {
        if (start < chunk.length) this.append(chunk.slice(start));
        this.handOn();
        return;
      }
      if (this.partial !== "" || this.cutting || this.document !== null) {
        // The line may turn into the JSON document, or out of it, as its end is appended.
        this.append(chunk.slice(start, end));
        this.endLine();
      } else if (plain && end - start <= MAX_LINE_LENGTH) {
        // This line and the plain ones after it, in one call: most of a log is read there.
        this.handOn();
        last ??= chunk.lastIndexOf("\n");
        start = this.sink.pushLines(chunk, start, last);
        continue;
      } else {
        const line = chunk.slice(start, end);
        if (this.startsDocument(line)) {
          this.document = [];
          this.appendToDocument(line);
          this.endLine();
        } else this.emit(line);
      }
      start = end + 1;
    }
  }

  /** Ends the text: a last line without a newline still counts. */
  end(): void {
    this.endLine();
    this.handOn();
  }

  /** Hands the lines cleaned so far on, joined: one flat text, read in one call. */
  private handOn(): void {
    if (this.cleaned.length === 0) return;
    const text = this.cleaned.join("\n");
    this.cleaned = [];
    this.sink.pushLines(text, 0, text.length);
  }

  /** Ends the line being read, at its newline or at the end of the text. */
  private endLine(): void {
    if (this.document !== null) {
      this.endDocument();
      return;
    }
    if (this.partial !== "" || this.cutting) {
      const line = this.partial;
      this.partial = "";
      this.emit(line);
    }
  }

  /** Adds to the unfinished line, keeping only its last redraw and at most `MAX_RAW_LINE_LENGTH`. */
  private append(piece: string): void {
    if (this.document !== null) {
      this.appendToDocument(piece);
      return;
    }
    if (this.partial.length >= MAX_RAW_LINE_LENGTH && !piece.includes("\r")) {
      this.cutting = true;
      return;
    }
    let partial = this.partial + piece;
    if (this.startsDocument(partial)) {
      this.partial = "";
      this.document = [];
      this.appendToDocument(partial);
      return;
    }
    if (partial.length > MAX_RAW_LINE_LENGTH) {
      // A redraw replaces what came before it, so only the latest state (and its `\r`) matters.
      const last = partial.lastIndexOf("\r");
      if (last !== -1) {
        const from = last < partial.length - 1 ? last : partial.lastIndexOf("\r", last - 1);
        partial = partial.slice(Math.max(from, 0));
      }
      if (partial.length > MAX_RAW_LINE_LENGTH) {
        partial = partial.slice(0, MAX_RAW_LINE_LENGTH);
        this.cutting = true;
      }
      // Copied, so the kept prefix does not hold on to the whole chunk it was sliced from.
      partial = flatten(partial);
    }
    this.partial = partial;
  }

  /**
   * Whether `text`, the start of an over-long line, is the one JSON line kept whole; claims it if
   * so. Longer than the line cut is enough: a small run's report is a few thousand characters.
   */
  private startsDocument(text: string): boolean {
    if (!this.documentAllowed || text.length <= MAX_LINE_LENGTH) return false;
    if (!JSON_LINE_START.test(text.slice(0, 64))) return false;
    this.documentAllowed = false;
    return true;
  }

  private appendToDocument(piece: string): void {
    const document = this.document ?? [];
    if (this.documentLength + piece.length <= this.maxDocumentLength) {
      document.push(piece);
      this.documentLength += piece.length;
      return;
    }
    // Too long to keep whole: read on as an over-long line, cut like any other.
    this.document = null;
    this.documentLength = 0;
    this.partial = "";
    this.append(document.join("").slice(0, MAX_RAW_LINE_LENGTH));
    this.cutting = true;
  }

  private endDocument(): void {
    const document = this.document ?? [];
    this.document = null;
    this.documentLength = 0;
    const text = document.join("");
    this.handOn();
    this.sink.pushDocument?.(text.endsWith("\r") ? text.slice(0, -1) : text);
  }

  private emit(raw: string): void {
    let line = raw.includes("\r") ? lastDrawnState(raw) : raw;
    let cut = this.cutting;
    this.cutting = false;
    if (line.length > MAX_RAW_LINE_LENGTH) {
      line = line.slice(0, MAX_RAW_LINE_LENGTH);
      cut = true;
    }
    if (NEEDS_CLEANING.test(line)) line = stripAnsi(line);
    if (line.length > MAX_LINE_LENGTH) {
      // Redacted before it is cut: a secret the cut falls in must not be kept in part.
      line = redactedPrefix(line, MAX_LINE_LENGTH);
      cut = true;
    }
    if (cut) this.cutLines += 1;
    this.cleaned.push(line);
    // Bounded, whatever the size of a chunk pushed as a string.
    if (this.cleaned.length >= MAX_CLEANED_LINES) this.handOn();
  }
}

// Looked for once per chunk rather than once per line, with searches for one character, much
// faster than a character class: most chunks have no escape, NUL or redraw. Rarer controls
// (BEL, backspace) in such a chunk are left to the core's `stripAnsi`, which reads the
// reduction again.

/** Whether decoded text has no ESC, CSI (U+009B), NUL or `\r`: its lines need no cleaning. */
function isPlainText(text: string): boolean {
  return (
    !text.includes("\x1b") && !text.includes("\r") && !text.includes("\0") && !text.includes("\x9b")
  );
}

const CSI_BYTES = new Uint8Array([0xc2, 0x9b]);

/** `isPlainText` on the UTF-8 bytes before decoding, where each search is a `memchr`. */
export function isPlainBytes(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return (
    buffer.indexOf(0x1b) === -1 &&
    buffer.indexOf(0x0d) === -1 &&
    buffer.indexOf(0x00) === -1 &&
    buffer.indexOf(CSI_BYTES) === -1 &&
    // The second byte of a CSI whose first ended the previous chunk.
    buffer[0] !== 0x9b
  );
}

/**
 * A copy of `text` that shares no memory with the string it was sliced from: V8 keeps a sliced
 * string's parent alive, and a parent here is a whole decoded chunk.
 */
export function flatten(text: string): string {
  // Flattening the concatenation makes a new string; V8 never slices strings under 13 units.
  return text.length < 13 ? text : ` ${text}`.slice(1);
}
