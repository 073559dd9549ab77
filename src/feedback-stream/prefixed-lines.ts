import {
  linePrefixesOf,
  PREFIX_SAMPLE_LINES,
  withoutLinePrefixes,
  type LinePrefix,
} from "../core/feedback/clean/line-prefixes.js";
import { MAX_LINE_LENGTH } from "../core/feedback/clean/log-lines.js";
import { lineIn } from "./line-range.js";
import type { LineSink } from "./line-splitter.js";

/**
 * A `LineSink` that hands lines on without the prefixes a CI log or a multiplexer writes before
 * each (`2024-05-01T12:34:56.1234567Z `, `app-1  | `, `web:test: `), decided on the log's first
 * `PREFIX_SAMPLE_LINES` non-empty lines as the core's `stripLinePrefixes` decides on a whole
 * text, so the CLI and `decide` read the same lines. Those first lines are held until then;
 * afterwards a log without prefixes passes straight through, at the cost of one test per chunk.
 */
export class PrefixedLines implements LineSink {
  /** Lines held while the prefixes are not decided yet; null once they are. */
  private sample: string[] | null = [];
  private nonEmpty = 0;
  private prefixes: readonly LinePrefix[] = [];
  /** `pushDocument`, present exactly when the sink's is, as the splitter checks. */
  readonly pushDocument?: (document: string) => void;

  constructor(private readonly sink: LineSink) {
    if (sink.pushDocument !== undefined) {
      this.pushDocument = (document) => {
        this.decide();
        sink.pushDocument?.(document);
      };
    }
  }

  /** See `LineSink.pushLines`. */
  pushLines(text: string, start: number, end: number): number {
    if (this.sample === null && this.prefixes.length === 0) {
      return this.sink.pushLines(text, start, end);
    }
    const lines: string[] = [];
    let lineStart = start;
    for (;;) {
      let lineEnd = text.indexOf("\n", lineStart);
      if (lineEnd === -1) lineEnd = text.length;
      if (lineEnd - lineStart > MAX_LINE_LENGTH) break;
      const line = lineIn(text, lineStart, lineEnd);
      lineStart = lineEnd + 1;
      if (this.sample === null) lines.push(withoutLinePrefixes(line, this.prefixes));
      else this.hold(line);
      if (lineEnd >= end) break;
    }
    this.handOn(lines);
    return lineStart;
  }

  /** Decides on the lines held, whatever their number: the log ended, or a document starts. */
  end(): void {
    this.decide();
  }

  private hold(line: string): void {
    const sample = this.sample ?? [];
    sample.push(line);
    if (line !== "") this.nonEmpty += 1;
    if (this.nonEmpty >= PREFIX_SAMPLE_LINES) this.decide();
  }

  private decide(): void {
    const sample = this.sample;
    if (sample === null) return;
    this.sample = null;
    this.prefixes = linePrefixesOf(sample);
    this.handOn(sample.map((line) => withoutLinePrefixes(line, this.prefixes)));
  }

  private handOn(lines: readonly string[]): void {
    if (lines.length === 0) return;
    const text = lines.join("\n");
    this.sink.pushLines(text, 0, text.length);
  }
}
