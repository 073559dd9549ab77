import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzRuns, fuzzSeed } from "../test-support/hostile/fuzz-runs.js";
import { hostileTaskFile, validTaskFile } from "../test-support/hostile/hostile-task-files.js";
import { InputError } from "./input-error.js";
import { parseText } from "./parse-text.js";
import { decodeTaskFile } from "./task-file.js";

/** The refusal decoding a document throws, or a description of why there is none. */
function refusal(document: unknown): InputError | string {
  try {
    decodeTaskFile(parseText(JSON.stringify(document), "tasks.json"));
    return "decoded without error";
  } catch (error) {
    return InputError.isInputError(error) ? error : `threw ${String(error)}`;
  }
}

describe("hostile task files (property)", () => {
  it("decodes the valid file they are made from", () => {
    expect(decodeTaskFile(validTaskFile()).tasks).toHaveLength(2);
  });

  it("refuses each with one InputError naming the field it breaks, on one line", () => {
    fc.assert(
      fc.property(hostileTaskFile, ({ document, field }) => {
        const error = refusal(document);
        expect(error).toBeInstanceOf(InputError);
        expect((error as InputError).path).toBe(field);
        expect((error as InputError).message).not.toMatch(/[\n\r]/);
      }),
      { numRuns: fuzzRuns(2_000), ...fuzzSeed() },
    );
  });
});
