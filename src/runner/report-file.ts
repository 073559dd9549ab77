import { readFileSync } from "node:fs";
import * as v from "valibot";
import { decodeDocument } from "../wire/decode-document.js";
import { mapping, numberAtLeast, text } from "../wire/fields.js";
import { InputError } from "../wire/input-error.js";

const reportLine = mapping(
  {
    spend: v.optional(numberAtLeast(0)),
    tokens: v.optional(numberAtLeast(0)),
    diff: v.optional(text),
  },
  "expected a mapping with spend, tokens, diff",
);

/** What a step reported about its own cost and work. */
export interface StepReport {
  readonly spend: number;
  readonly tokens: number;
  /** The last diff reported, if any. */
  readonly diff?: string;
}

/**
 * Reads a step's report file: one JSON object per line, `{"spend": N, "tokens": N}`, summed.
 * Strict like every input: a misspelled `spend` must not silently mean "free". Read
 * synchronously: the file is a few lines, and a promise round trip costs more than the read.
 */
export function readReport(file: string): StepReport {
  let spend = 0;
  let tokens = 0;
  let diff: string | undefined;
  const lines = readFileSync(file, "utf8").split("\n");
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const where = `${file}:${index + 1}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new InputError(where, "expected one JSON object per line");
    }
    try {
      const entry = decodeDocument(reportLine, parsed) as Partial<StepReport>;
      spend += entry.spend ?? 0;
      tokens += entry.tokens ?? 0;
      diff = entry.diff ?? diff;
    } catch (error) {
      throw InputError.isInputError(error) ? new InputError(where, error.message) : error;
    }
  }
  return { spend, tokens, ...(diff === undefined ? {} : { diff }) };
}
