import { LoopgateError } from "../core/errors.js";
import type { RunReader } from "./store/run-store.js";

/** `--run ID` as a run id; a usage error when it is not a positive integer. */
export function runOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const id = Number(value);
  if (!/^\d+$/.test(value) || id < 1) {
    throw new LoopgateError(
      "INVALID_USAGE",
      `--run: expected a run id (a positive integer), got ${JSON.stringify(value)}`,
    );
  }
  return id;
}

/** The latest run of the journal; a usage error when there is none. */
export function latestRun(journal: RunReader): number {
  const run = journal.runIds().at(-1);
  if (run === undefined) {
    throw new LoopgateError(
      "INVALID_USAGE",
      `no run in ${journal.path} (start one with loopgate run)`,
    );
  }
  return run;
}
