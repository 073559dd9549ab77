import { closeSync, openSync, readSync } from "node:fs";
import { InputError } from "../wire/input-error.js";
import { BoundedOutput } from "./bounded-output.js";

/** Bytes read from a report file at a time. */
const CHUNK = 1024 * 1024;
/** The buffer every read shares, made on first use (reads are synchronous: never two at once). */
let chunkBuffer: Buffer | undefined;
/** Bytes of a string scanned one by one before the native searches take over. */
const SHORT_RUN = 64;
/** Largest piece of a string's decoded bytes handed to its sink at once. */
const STAGE_LIMIT = 1024 * 1024;
/** Longest key, number or literal a report line may hold; real ones are a few characters. */
const TOKEN_LIMIT = 256;
/** Most keys a line may hold: a report line has three. */
const KEY_LIMIT = 64;
/** Longest nested value (a list or mapping, which no report field takes) kept to be named. */
const NESTED_LIMIT = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

/** JSON whitespace: space, tab, carriage return (a line ends at a newline). */
function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d;
}

/** The byte a one-letter escape stands for (`\n` → 0x0a); undefined for one JSON does not have. */
const ESCAPES: Readonly<Record<number, number>> = Object.fromEntries(
  [...'"\\/bfnrt'].map((letter) => [
    letter.charCodeAt(0),
    (JSON.parse(`"\\${letter}"`) as string).charCodeAt(0),
  ]),
);

/** The value of a hex digit's byte, or -1. */
function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** U+FFFD, what a lone surrogate half becomes in UTF-8. */
const REPLACEMENT = 0xfffd;

/** Index of the first byte below 0x20 in `chunk[start, end)`, or `end`: four bytes at a time. */
function controlAt(chunk: Buffer, start: number, end: number): number {
  let index = start;
  for (; index < end && (chunk.byteOffset + index) % 4 !== 0; index++) {
    if ((chunk[index] ?? 0) < 0x20) return index;
  }
  if (end - index < 4) {
    for (; index < end; index++) if ((chunk[index] ?? 0) < 0x20) return index;
    return end;
  }
  const words = new Uint32Array(chunk.buffer, chunk.byteOffset + index, (end - index) >>> 2);
  for (let word = 0; word < words.length; word++) {
    const bytes = words[word] ?? 0;
    // Sets a byte's high bit where the byte may be below 0x20 (exact when one is).
    if (((bytes - 0x20202020) & ~bytes & 0x80808080) !== 0) {
      const at = index + word * 4;
      for (let byte = at; byte < at + 4; byte++) if ((chunk[byte] ?? 0) < 0x20) return byte;
    }
  }
  for (index += words.length * 4; index < end; index++) {
    if ((chunk[index] ?? 0) < 0x20) return index;
  }
  return end;
}

/** Where `byte` next is in `chunk` from `start`, or the chunk's length. */
function nextOf(chunk: Buffer, byte: number, start: number): number {
  const at = chunk.indexOf(byte, start);
  return at < 0 ? chunk.length : at;
}

/** A line that is not one JSON object; the caller names the file and line. */
class NotJson extends Error {}

/** Where a string's decoded bytes go: a value's bounded buffer, or a key's short one. */
interface Sink {
  write(chunk: Buffer): void;
}

/** A key's bytes, refused past TOKEN_LIMIT. */
class KeyBytes implements Sink {
  private readonly parts: Buffer[] = [];
  private length = 0;

  write(chunk: Buffer): void {
    this.length += chunk.length;
    if (this.length > TOKEN_LIMIT) throw new NotJson();
    this.parts.push(Buffer.from(chunk));
  }

  text(): string {
    return Buffer.concat(this.parts).toString("utf8");
  }
}

/**
 * Decodes one JSON string's contents as bytes arrive, escapes included, into a sink: the value
 * is never held whole, so a 600 MB diff costs only what its sink keeps. Decoded bytes are staged
 * and handed on in large pieces, however many escapes the text has.
 */
class StringBytes {
  /** -1: no escape open; 0: after a backslash; 1–4: hex digits of `\u` still to come. */
  private escape = -1;
  private unit = 0;
  /** A high surrogate from `\uD8xx`, waiting for its low half. */
  private high = -1;
  private stage = Buffer.allocUnsafe(256);
  private staged = 0;

  constructor(readonly sink: Sink) {}

  /** Feeds bytes from `start`; returns the index after the closing quote, or -1 when not there yet. */
  feed(chunk: Buffer, start: number): number {
    let index = start;
    // The next quote and backslash, each searched for once however many runs come before it.
    let quote = -1;
    let backslash = -1;
    while (index < chunk.length) {
      if (this.escape >= 0) {
        index = this.escaped(chunk, index);
        continue;
      }
      // A short run (between escapes) is scanned here; a long one by the native searches.
      let end = index;
      const near = Math.min(chunk.length, index + SHORT_RUN);
      for (; end < near; end++) {
        const byte = chunk[end] ?? 0;
        if (byte === QUOTE || byte === BACKSLASH || byte < 0x20) break;
      }
      if (end === near && near < chunk.length) {
        if (quote < end) quote = nextOf(chunk, QUOTE, end);
        if (backslash < end) backslash = nextOf(chunk, BACKSLASH, end);
        end = controlAt(chunk, end, Math.min(quote, backslash));
      }
      if (end > index) {
        this.flushHigh();
        this.bytes(chunk, index, end);
      }
      if (end === chunk.length) return -1;
      const byte = chunk[end] ?? 0;
      if (byte < 0x20) throw new NotJson();
      if (byte === QUOTE) {
        this.flushHigh();
        this.flush();
        return end + 1;
      }
      this.escape = 0;
      index = end + 1;
    }
    return -1;
  }

  /** Makes room for at least one byte: small strings stay in a small stage, long ones grow it. */
  private room(): void {
    if (this.staged < this.stage.length) return;
    if (this.stage.length >= STAGE_LIMIT) {
      this.flush();
      return;
    }
    const bigger = Buffer.allocUnsafe(Math.min(STAGE_LIMIT, this.stage.length * 8));
    this.stage.copy(bigger, 0, 0, this.staged);
    this.stage = bigger;
  }

  private byte(value: number): void {
    this.room();
    this.stage[this.staged++] = value;
  }

  /** Stages `source[start, end)`; a short run byte by byte, a long one copied at once. */
  private bytes(source: Buffer, start: number, end: number): void {
    let from = start;
    if (end - from < 16) {
      for (; from < end; from++) this.byte(source[from] ?? 0);
      return;
    }
    while (from < end) {
      this.room();
      const taken = source.copy(this.stage, this.staged, from, end);
      this.staged += taken;
      from += taken;
    }
  }

  /** Hands the staged bytes to the sink, which may keep them: the next stage is a new buffer. */
  private flush(): void {
    if (this.staged === 0) return;
    this.sink.write(this.stage.subarray(0, this.staged));
    this.stage = Buffer.allocUnsafe(this.stage.length);
    this.staged = 0;
  }

  /** Reads one byte of an open escape. */
  private escaped(chunk: Buffer, index: number): number {
    const byte = chunk[index] ?? 0;
    if (this.escape === 0) {
      if (byte === 0x75) {
        this.escape = 4;
        this.unit = 0;
        return index + 1;
      }
      const decoded = ESCAPES[byte];
      if (decoded === undefined) throw new NotJson();
      this.flushHigh();
      this.byte(decoded);
      this.escape = -1;
      return index + 1;
    }
    const digit = hexValue(byte);
    if (digit < 0) throw new NotJson();
    this.unit = this.unit * 16 + digit;
    this.escape -= 1;
    if (this.escape === 0) {
      this.escape = -1;
      this.codeUnit(this.unit);
    }
    return index + 1;
  }

  /** One `\uXXXX` code unit: surrogate pairs become one code point, a lone half U+FFFD. */
  private codeUnit(unit: number): void {
    if (unit >= 0xdc00 && unit <= 0xdfff && this.high >= 0) {
      const point = 0x10000 + ((this.high - 0xd800) << 10) + (unit - 0xdc00);
      this.high = -1;
      this.codePoint(point);
      return;
    }
    this.flushHigh();
    if (unit >= 0xd800 && unit <= 0xdbff) this.high = unit;
    else this.codePoint(unit >= 0xdc00 && unit <= 0xdfff ? REPLACEMENT : unit);
  }

  /** A code point's UTF-8 bytes. */
  private codePoint(point: number): void {
    if (point < 0x80) return this.byte(point);
    if (point < 0x800) {
      this.byte(0xc0 | (point >> 6));
    } else if (point < 0x10000) {
      this.byte(0xe0 | (point >> 12));
      this.byte(0x80 | ((point >> 6) & 0x3f));
    } else {
      this.byte(0xf0 | (point >> 18));
      this.byte(0x80 | ((point >> 12) & 0x3f));
      this.byte(0x80 | ((point >> 6) & 0x3f));
    }
    this.byte(0x80 | (point & 0x3f));
  }

  /** A high surrogate not followed by its low half stands alone: U+FFFD, as UTF-8 has it. */
  private flushHigh(): void {
    if (this.high < 0) return;
    this.high = -1;
    this.codePoint(REPLACEMENT);
  }
}

/** A value that is neither a string nor a scalar: kept raw, bounded, to be parsed and named. */
class NestedValue {
  /** The field, named in errors. */
  constructor(private readonly where: string) {}

  private readonly parts: Buffer[] = [];
  private length = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** Feeds bytes from `start`; returns the index after the value's end, or -1 when not there yet. */
  feed(chunk: Buffer, start: number): number {
    let index = start;
    for (; index < chunk.length; index++) {
      const byte = chunk[index] ?? 0;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) this.inString = true;
      else if (byte === 0x7b || byte === 0x5b) this.depth += 1;
      else if (byte === 0x7d || byte === 0x5d) {
        this.depth -= 1;
        if (this.depth === 0) {
          this.keep(chunk.subarray(start, index + 1));
          return index + 1;
        }
      }
    }
    this.keep(chunk.subarray(start, index));
    return -1;
  }

  private keep(part: Buffer): void {
    this.length += part.length;
    if (this.length > NESTED_LIMIT)
      throw new InputError(this.where, "a list or mapping of more than 64 KiB");
    this.parts.push(Buffer.from(part));
  }

  value(): unknown {
    try {
      return JSON.parse(Buffer.concat(this.parts).toString("utf8")) as unknown;
    } catch {
      throw new NotJson();
    }
  }
}

/** Where a line's reader is: which token it waits for or is inside. */
type Phase =
  | "start"
  | "first-key"
  | "key"
  | "colon"
  | "value"
  | "string"
  | "scalar"
  | "nested"
  | "after-value"
  | "next-key"
  | "end"
  | "other";

/**
 * One line of a report file read as a flat JSON object, byte by byte: a string value keeps at
 * most `limit` bytes (head and tail, with a marker, as step output is kept), and a key given
 * twice is refused — `JSON.parse` would silently keep the last one.
 */
class LineReader {
  private phase: Phase = "start";
  private readonly fields: Record<string, unknown> = {};
  private readonly seen = new Set<string>();
  /** The first key given twice, as errors name it. */
  private twice: string | undefined;
  private key = "";
  private token = "";
  private text: StringBytes | undefined;
  private nested: NestedValue | undefined;
  private other: Buffer[] = [];
  private otherBytes = 0;

  constructor(
    private readonly where: string,
    private readonly limit: number,
  ) {}

  /** Feeds the line's bytes from `start` to `end` (a line's end is never inside). */
  feed(chunk: Buffer, start: number, end: number): void {
    const part = chunk.subarray(0, end);
    let index = start;
    while (index < end) index = this.step(part, index);
  }

  /** Reads from `index` and returns where to go on. */
  private step(chunk: Buffer, index: number): number {
    const byte = chunk[index] ?? 0;
    switch (this.phase) {
      case "start":
        if (isSpace(byte)) return index + 1;
        this.phase = byte === 0x7b ? "first-key" : "other";
        return byte === 0x7b ? index + 1 : index;
      case "first-key":
      case "next-key":
        if (isSpace(byte)) return index + 1;
        if (byte === 0x7d && this.phase === "first-key") {
          this.phase = "end";
          return index + 1;
        }
        if (byte !== QUOTE) throw new NotJson();
        this.text = new StringBytes(new KeyBytes());
        this.phase = "key";
        return index + 1;
      case "key":
      case "string":
        return this.inString(chunk, index);
      case "colon":
        if (isSpace(byte)) return index + 1;
        if (byte !== 0x3a) throw new NotJson();
        this.phase = "value";
        return index + 1;
      case "value":
        return this.valueStart(byte, index);
      case "scalar":
        if (isSpace(byte) || byte === 0x2c || byte === 0x7d) {
          this.set(this.scalar());
          this.phase = "after-value";
          return index;
        }
        this.token += String.fromCharCode(byte);
        if (this.token.length > TOKEN_LIMIT) throw new NotJson();
        return index + 1;
      case "nested": {
        const after = this.nested?.feed(chunk, index) ?? -1;
        if (after < 0) return chunk.length;
        this.set(this.nested?.value());
        this.phase = "after-value";
        return after;
      }
      case "after-value":
        if (isSpace(byte)) return index + 1;
        if (byte === 0x2c) this.phase = "next-key";
        else if (byte === 0x7d) this.phase = "end";
        else throw new NotJson();
        return index + 1;
      case "end":
        if (!isSpace(byte)) throw new NotJson();
        return index + 1;
      case "other": {
        const part = chunk.subarray(index);
        this.otherBytes += part.length;
        if (this.otherBytes > TOKEN_LIMIT) throw new NotJson();
        this.other.push(Buffer.from(part));
        return chunk.length;
      }
    }
  }

  private inString(chunk: Buffer, index: number): number {
    const text = this.text;
    if (text === undefined) throw new NotJson();
    const after = text.feed(chunk, index);
    if (after < 0) return chunk.length;
    if (this.phase === "key") {
      this.key = (text.sink as KeyBytes).text();
      // Said once the line is known to be JSON: a line that is not is refused as such.
      if (this.seen.has(this.key)) this.twice ??= this.field();
      this.seen.add(this.key);
      if (this.seen.size > KEY_LIMIT) {
        throw new InputError(this.where, `more than ${KEY_LIMIT} keys in one line`);
      }
      this.phase = "colon";
    } else {
      this.set((text.sink as BoundedOutput).text());
      this.phase = "after-value";
    }
    this.text = undefined;
    return after;
  }

  private valueStart(byte: number, index: number): number {
    if (isSpace(byte)) return index + 1;
    if (byte === QUOTE) {
      this.text = new StringBytes(new BoundedOutput(this.limit, this.key));
      this.phase = "string";
      return index + 1;
    }
    if (byte === 0x7b || byte === 0x5b) {
      this.nested = new NestedValue(this.field());
      this.phase = "nested";
      return index;
    }
    this.token = "";
    this.phase = "scalar";
    return index;
  }

  private scalar(): unknown {
    try {
      return JSON.parse(this.token);
    } catch {
      throw new NotJson();
    }
  }

  /** The line and the current key, as errors name them: `report.jsonl:2: spend`. */
  private field(): string {
    const key = /^[a-z_]\w*$/i.test(this.key) ? this.key : JSON.stringify(this.key);
    return `${this.where}: ${key}`;
  }

  private set(value: unknown): void {
    // An own property, as JSON.parse makes it, even for a key named __proto__.
    Object.defineProperty(this.fields, this.key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }

  /** The line's fields, once its end was read; undefined for a blank line. */
  finish(): unknown {
    switch (this.phase) {
      case "start":
        return undefined;
      case "end":
        if (this.twice !== undefined) {
          throw new InputError(this.twice, "given twice in one line (only one value may count)");
        }
        return this.fields;
      case "other":
        // Not an object: parsed whole (it is short) so the caller can name what it is.
        try {
          return JSON.parse(Buffer.concat(this.other).toString("utf8")) as unknown;
        } catch {
          throw new NotJson();
        }
      default:
        throw new NotJson();
    }
  }
}

/**
 * Reads a report file line by line, in chunks, calling `visit` with each non-blank line's
 * parsed value and its place (`file:line`). Memory stays bounded whatever the file holds: each
 * string value keeps at most `limit` bytes. Throws an InputError naming the line for a line that
 * is not one JSON object, or that gives a key twice.
 */
export function readReportLines(
  file: string,
  limit: number,
  visit: (value: unknown, where: string) => void,
): void {
  const fd = openSync(file, "r");
  try {
    let number = 1;
    let reader = new LineReader(`${file}:1`, limit);
    const finish = () => {
      const where = `${file}:${number}`;
      let value: unknown;
      try {
        value = reader.finish();
      } catch (error) {
        throw error instanceof NotJson
          ? new InputError(where, "expected one JSON object per line")
          : error;
      }
      if (value !== undefined) visit(value, where);
      number += 1;
      reader = new LineReader(`${file}:${number}`, limit);
    };
    // One buffer for every read of every file: what a line keeps of it is copied out. A fresh
    // 1 MiB buffer per step's report was garbage outside the heap, and `run`'s memory grew with it.
    const buffer = (chunkBuffer ??= Buffer.allocUnsafe(CHUNK));
    for (;;) {
      const length = readSync(fd, buffer, 0, CHUNK, null);
      const chunk = buffer.subarray(0, length);
      if (length === 0) break;
      let start = 0;
      while (start < length) {
        const newline = chunk.indexOf(NEWLINE, start);
        const end = newline < 0 || newline >= length ? length : newline;
        try {
          reader.feed(chunk, start, end);
        } catch (error) {
          if (!(error instanceof NotJson)) throw error;
          throw new InputError(`${file}:${number}`, "expected one JSON object per line");
        }
        if (end === length) break;
        finish();
        start = end + 1;
      }
    }
    finish();
  } finally {
    closeSync(fd);
  }
}
