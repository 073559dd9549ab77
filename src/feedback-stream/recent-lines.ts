import { lineIn } from "./line-range.js";

/** Consecutive lines of one text: `text.slice(start, end)` holds `count` lines, one `\n` apart. */
interface Run {
  readonly text: string;
  readonly start: number;
  end: number;
  count: number;
}

/**
 * The latest `capacity` lines of a log (or a few more), with their indices. Lines are added a run
 * at a time, as ranges of the chunk they came in, and copied out only when asked for: most lines
 * of a large log are never. Holding a chunk costs no more than holding a slice of it would (V8
 * keeps a slice's parent alive), and at most `capacity` chunks are held.
 */
export class RecentLines {
  /** Oldest first; together they hold the latest lines, the newest being `last`. */
  private runs: Run[] = [];
  private held = 0;
  private last = -1;

  constructor(private readonly capacity: number) {}

  /**
   * Adds lines `first` to `first + count - 1`, the `count` lines of `text.slice(start, end)`
   * (none of which holds a `\n` of its own). A gap since the last line added forgets the others.
   * Small, so that it is inlined into the loop that reads a chunk.
   */
  add(text: string, start: number, end: number, first: number, count: number): void {
    const newest = this.runs[this.runs.length - 1];
    // The next lines of the same chunk extend its run: one run per chunk, not one per line.
    if (newest?.end === start - 1 && first === this.last + 1 && newest.text === text) {
      newest.end = end;
      newest.count += count;
      this.held += count;
      this.last += count;
    } else if (count > 0) this.addRun({ text, start, end, count }, first);
  }

  private addRun(run: Run, first: number): void {
    if (first !== this.last + 1) {
      this.runs = [];
      this.held = 0;
    }
    this.runs.push(run);
    this.held += run.count;
    this.last = first + run.count - 1;
    for (let oldest = this.runs[0]; oldest !== undefined; oldest = this.runs[0]) {
      if (this.held - oldest.count < this.capacity || oldest === run) break;
      this.runs.shift();
      this.held -= oldest.count;
    }
  }

  /**
   * Hands each of the latest `count` lines (at most `capacity`) to `visit`, oldest first, without
   * trailing blanks.
   */
  visitLast(count: number, visit: (line: string, index: number) => void): void {
    const wanted = Math.min(count, this.capacity, this.held);
    const lines: string[] = [];
    for (let at = this.runs.length - 1; at >= 0 && lines.length < wanted; at -= 1) {
      const run = this.runs[at];
      if (run === undefined) break;
      let end = run.end;
      for (let line = run.count - 1; line >= 0 && lines.length < wanted; line -= 1) {
        const start = line === 0 ? run.start : run.text.lastIndexOf("\n", end - 1) + 1;
        lines.push(lineIn(run.text, start, end));
        end = start - 1;
      }
    }
    const first = this.last + 1 - lines.length;
    lines.reverse().forEach((line, offset) => visit(line, first + offset));
  }
}
