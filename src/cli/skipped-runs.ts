import { oneLine } from "../core/one-line.js";
import { EXIT_JOURNAL_DAMAGED, type JournalError } from "../runner/journal-error.js";

/**
 * The damaged runs and events a reading command skipped, each told on stderr as one `error:`
 * line when found; the command's exit code says whether anything was (5) or not (0).
 */
export class SkippedRuns {
  private count = 0;

  constructor(private readonly stderr: (text: string) => void) {}

  /** Tells one damaged run or event. */
  readonly skip = (error: JournalError): void => {
    this.count += 1;
    this.stderr(`error: ${oneLine(error.message)} (skipped)\n`);
  };

  /** 0 when everything was read, 5 when something was skipped. */
  exitCode(): number {
    return this.count === 0 ? 0 : EXIT_JOURNAL_DAMAGED;
  }
}
