import type { OutputFormat } from "../wire/render.js";

/**
 * Where a command prints. The CLI makes the text printable (see `printable`) unless `painted`
 * says it carries loopgate's own colours, in which case its writer made every other part
 * printable itself.
 */
export type Print = (text: string, painted?: boolean) => void;

/** What a command needs from the process: its arguments and places to print. */
export interface CommandContext {
  readonly args: readonly string[];
  readonly stdout: Print;
  /** For what a command skipped on the way (a damaged run), printed at once. */
  readonly stderr: (text: string) => void;
}

/** A CLI command: its help text and its action, which returns the exit code. */
export interface Command {
  readonly help: string;
  readonly run: (context: CommandContext) => Promise<number>;
}

/** Picks the output format from `--json`. */
export function formatOf(json: boolean | undefined): OutputFormat {
  return json === true ? "json" : "yaml";
}
