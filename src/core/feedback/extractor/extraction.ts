import { finishDraft, hasDetails, newDraft, type FailureDraft } from "./failure-draft.js";
import type { ExtractedFailure } from "./merge-failures.js";

/** One line of the log as the line readers see it. */
export interface LogLine {
  readonly index: number;
  /** The line as printed (trailing blanks dropped), its indentation kept. */
  readonly raw: string;
  readonly trimmed: string;
  /** Columns of leading whitespace. */
  readonly indent: number;
}

/**
 * Reads `line` when it is one the reader knows, with any lines below it owns; returns the next
 * unread index, or null to leave the line to the next reader.
 */
export type LineReader = (extraction: Extraction, line: LogLine) => number | null;

/** A suite a test line is nested in, known by the column its header started at. */
interface Suite {
  readonly indent: number;
  readonly name: string;
}

/**
 * The state of one pass over a log's lines, shared by the line readers: the failure being
 * read, the context around it, and the failures finished so far.
 */
export class Extraction {
  /** Every failure report read so far, in order, before merging. */
  readonly finished: ExtractedFailure[] = [];
  /** The failure being read. */
  current: FailureDraft | null;
  /** The file of the latest `FAIL file` header, the home of failures that name no test. */
  fileContext: string | null = null;
  /** Tests that started (Go's `=== RUN`) and have not yet passed or failed, by name. */
  readonly pending = new Map<string, FailureDraft>();
  /** Inside a TAP diagnostic block (`---` … `...`). */
  inYaml = false;
  /** Inside captured console output, which is never a runner's report. */
  muted = false;
  /** Whether a missed coverage threshold was read: one failure for all of them. */
  coverageMissed = false;
  private suites: Suite[] = [];
  /** Tests listed right above the report being read, which they share (Vitest's grouped `FAIL`s). */
  private sharers: FailureDraft[] = [];

  /** `known` is the failure the lines are about, when the caller already knows which test. */
  constructor(
    readonly lines: readonly string[],
    known: FailureDraft | null = null,
  ) {
    this.current = known;
  }

  /** The failure being read, or an orphan opened for details found outside any report. */
  draft(): FailureDraft {
    return (
      this.current ??
      this.open(newDraft(this.fileContext === null ? "orphan" : "file", null, this.fileContext))
    );
  }

  /** Makes `draft` the failure being read, finishing the previous one. */
  open(draft: FailureDraft): FailureDraft {
    if (this.current !== draft) this.close();
    this.current = draft;
    this.muted = false;
    this.inYaml = false;
    return draft;
  }

  /**
   * Reads what follows as a test that does not count (a todo or skipped test that failed, as
   * it may): its error and values are read into a draft that is never finished, so they neither
   * fail the run nor land on a neighbour.
   */
  ignore(): void {
    const draft = newDraft("test", null, null);
    draft.provisional = true;
    this.open(draft);
  }

  /** A report that is a single line (`FAILED a.py::t - msg`, `test x ... FAILED`). */
  oneLine(draft: FailureDraft, next: number): number {
    this.open(draft);
    this.close();
    return next;
  }

  /**
   * Sets the failure being read aside, still without details, to share the report of the next
   * one: Vitest prints one header per test above an error they all failed with.
   */
  shareNext(): void {
    const draft = this.current;
    if (draft === null || hasDetails(draft)) return;
    this.current = null;
    this.sharers.push(draft);
  }

  /** Finishes the failure being read; tests that have not reported yet wait in `pending`. */
  close(): void {
    const draft = this.current;
    this.current = null;
    this.inYaml = false;
    if (draft === null) return;
    const sharers = this.sharers;
    this.sharers = [];
    const counts = !draft.provisional && (draft.kind !== "orphan" || hasDetails(draft));
    for (const sharer of sharers) {
      // The error is the same, so is where it happened: only the test's name is the sharer's.
      const shared = counts ? { ...draft, kind: sharer.kind, test: sharer.test } : sharer;
      this.finished.push({ failure: finishDraft(shared), kind: sharer.kind });
    }
    if (counts) this.finished.push({ failure: finishDraft(draft), kind: draft.kind });
  }

  /** Enters a suite header (`▶ name`, `# Subtest: name`) at `indent`. */
  pushSuite(indent: number, name: string): void {
    this.popSuites(indent);
    this.suites.push({ indent, name });
  }

  /** Leaves every suite that started at or right of `indent`. */
  popSuites(indent: number): void {
    while ((this.suites.at(-1)?.indent ?? -1) >= indent) this.suites.pop();
  }

  /** `name` under the suites it is nested in. */
  suitePath(name: string): string {
    return [...this.suites.map((suite) => suite.name), name].join(" > ");
  }
}
