import { LoopgateError } from "../core/errors.js";

/** Invalid input: names the field path and the bad value. The CLI exits 2 on it. */
export class InputError extends LoopgateError {
  constructor(
    /** Dotted field path, e.g. `iteration_check.test_result.status`; empty for the document itself. */
    readonly path: string,
    message: string,
  ) {
    super("INVALID_INPUT", path === "" ? message : `${path}: ${message}`);
    this.name = "InputError";
  }

  /** True for an InputError, even one from another copy of the package. */
  static isInputError(value: unknown): value is InputError {
    return LoopgateError.is(value) && value.code === "INVALID_INPUT";
  }
}
