const BRAND = Symbol.for("loopgate.error");

/**
 * Base of every error loopgate throws for misuse or I/O failure; expected outcomes are values,
 * never errors. `code` is stable; the brand survives a package bundled twice.
 */
export class LoopgateError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "LoopgateError";
  }

  /** True for any loopgate error, even one from another copy of the package. */
  static is(value: unknown): value is LoopgateError {
    return typeof value === "object" && value !== null && BRAND in value;
  }
}
