/**
 * Runs `action` with V8's stack traces off, for a call whose failure is expected and read only
 * for its code: a probe of `/proc` for a process that exited, the removal of a file that is not
 * there. Capturing the stack is most of the cost of such a failure, and a runner makes several
 * per step (measured with bench/scale.mjs). Errors still propagate, with their code and message.
 */
export function withoutStacks<T>(action: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return action();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
