import { LoopgateError } from "../core/errors.js";

/**
 * The runner was told to stop (SIGINT, SIGTERM): its running steps were stopped, nothing of
 * them journaled, and `loopgate resume` carries the run on from there.
 */
export class Interrupted extends LoopgateError {
  /** The exit code of a program ended by the signal: 128 plus its number. */
  readonly exitCode: number;

  constructor(readonly signal: "SIGINT" | "SIGTERM") {
    super("INTERRUPTED", `stopped by ${signal}; loopgate resume carries the run on`);
    this.exitCode = signal === "SIGINT" ? 130 : 143;
  }
}
