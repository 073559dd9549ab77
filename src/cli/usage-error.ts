import { LoopgateError } from "../core/errors.js";

/** Bad command-line arguments; the CLI exits 2 on it, like invalid input. */
export class UsageError extends LoopgateError {
  constructor(message: string) {
    super("INVALID_USAGE", message);
    this.name = "UsageError";
  }
}
