import type { Failure } from "./feedback.js";

/** A failure with only the given parts known: the rest null, the message empty. */
export function failureOf(parts: Partial<Failure>): Failure {
  return {
    test: null,
    file: null,
    line: null,
    expected: null,
    received: null,
    message: "",
    ...parts,
  };
}
