import { LineSplitter, flatten, isPlainBytes } from "./line-splitter.js";
import { LogReducer, type LogReduction, type ReductionLimits } from "./log-reducer.js";
import { PrefixedLines } from "./prefixed-lines.js";

/**
 * Largest JSON document kept whole, in characters: a JSON reporter's output (`jest --json`,
 * `vitest --reporter=json`, `mocha --reporter json`) is one document that only parses whole.
 */
export const MAX_JSON_DOCUMENT_LENGTH = 64 * 1024 * 1024;

/** How a JSON document opens: an object with a key or empty, an array of values or empty. */
const JSON_START = /^(?:\{\s*["}]|\[\s*[[{"\]\d-])/u;

/** Options of `reduceLog`. */
export interface ReduceLogOptions extends Partial<ReductionLimits> {
  /** Largest JSON document kept whole; a longer one is read as lines. */
  readonly maxJsonLength?: number;
}

/**
 * Reads a log as a stream of bytes and keeps a bounded reduction of it (see `LogReducer`):
 * bytes are decoded as UTF-8 chunk by chunk (invalid sequences become U+FFFD, a character split
 * between chunks is kept whole), split into cleaned, cut lines, and reduced as they arrive. A
 * log that starts with `{` or `[` is read as one JSON document and kept whole up to
 * `maxJsonLength`, unless its first line is a whole object followed by another (JSON lines, as
 * `go test -json` prints), or it outgrows the cap: then it is read as lines like any log.
 */
export async function reduceLog(
  source: AsyncIterable<Uint8Array | string>,
  options: ReduceLogOptions = {},
): Promise<LogReduction> {
  const { maxJsonLength = MAX_JSON_DOCUMENT_LENGTH, ...limits } = options;
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const reducer = new LogReducer(limits, maxJsonLength);
  const lines = new PrefixedLines(reducer);
  const splitter = new LineSplitter(lines, maxJsonLength);
  // Not known while only blanks were read; then a buffered JSON document, or lines.
  let mode = "unknown" as "unknown" | "json" | "lines";
  let buffered: string[] = [];
  let bufferedLength = 0;

  const toLines = (): void => {
    mode = "lines";
    for (const chunk of buffered) splitter.push(chunk);
    buffered = [];
    bufferedLength = 0;
  };

  const read = (chunk: string, plain?: boolean): void => {
    if (chunk === "") return;
    if (mode === "lines") {
      splitter.push(chunk, plain);
      return;
    }
    buffered.push(chunk);
    bufferedLength += chunk.length;
    if (mode === "unknown") {
      const first = buffered.join("");
      buffered = [first];
      const start = first.search(/\S/u);
      if (start === -1) {
        if (bufferedLength > maxJsonLength) toLines();
        return;
      }
      const opening = JSON_START.exec(first.slice(start, start + 64));
      if (opening === null) {
        // `[INFO] …`, `[vite] …`: a bracket alone does not make a JSON document.
        if (!/^[[{]\s*$/u.test(first.slice(start))) toLines();
        else buffered = [first];
        return;
      }
      mode = "json";
    }
    if (bufferedLength > maxJsonLength || (buffered.length <= 2 && isJsonLines(buffered)))
      toLines();
  };

  for await (const chunk of source) {
    if (typeof chunk === "string") read(chunk);
    // A character split between chunks is held back by the decoder, never an escape or NUL.
    else read(decoder.decode(chunk, { stream: true }), isPlainBytes(chunk));
  }
  read(decoder.decode());

  if (mode === "json") {
    const text = flatten(buffered.join(""));
    const lines = countLines(text);
    return { text, lines, keptLines: lines, droppedLines: 0, cutLines: 0, json: true };
  }
  if (mode === "unknown") toLines();
  splitter.end();
  lines.end();
  return { ...reducer.end(), cutLines: splitter.cutLines };
}

/**
 * Whether buffered JSON is JSON lines: its first line is a complete object and the next
 * non-blank line starts another. Looks only at the start of the first chunks.
 */
function isJsonLines(buffered: readonly string[]): boolean {
  const [first, second = ""] = buffered;
  if (first === undefined) return false;
  const head = first + second.slice(0, 4096);
  const newline = head.indexOf("\n");
  if (newline === -1) return false;
  if (!head.slice(0, newline).trim().endsWith("}")) return false;
  const rest = head.slice(newline + 1, newline + 4096).trimStart();
  return rest.startsWith("{");
}

function countLines(text: string): number {
  if (text === "") return 0;
  let count = 1;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    count += 1;
  }
  return count;
}
