import { existsSync } from "node:fs";
import * as v from "valibot";
import { isRecord } from "../core/json-record.js";
import { decodeDocument } from "../wire/decode-document.js";
import { mapping, numberAtLeast, text } from "../wire/fields.js";
import { InputError } from "../wire/input-error.js";
import { DEFAULT_OUTPUT_LIMIT } from "./bounded-output.js";
import { readReportLines } from "./report-lines.js";

const reportLine = mapping(
  {
    spend: v.optional(numberAtLeast(0)),
    tokens: v.optional(numberAtLeast(0)),
    diff: v.optional(text),
  },
  "expected a mapping with spend, tokens, diff",
);

/**
 * Keys agents and their wrappers write for a report field, too far from its name for a typo:
 * `{"cost": 0.5}` must be told it means `spend`, not silently cost nothing.
 */
const MEANT: Readonly<Record<string, string>> = {
  cost: "spend",
  cost_usd: "spend",
  total_cost_usd: "spend",
  price: "spend",
  token: "tokens",
  total_tokens: "tokens",
  patch: "diff",
};

/** What a step reported about its own cost and work. */
export interface StepReport {
  readonly spend: number;
  readonly tokens: number;
  /** The last diff reported, if any, bounded like output. */
  readonly diff?: string;
}

/** Refuses a key the report has under another name, saying which. */
function refuseOtherNames(value: unknown, where: string): void {
  if (!isRecord(value)) return;
  for (const key of Object.keys(value)) {
    const meant = MEANT[key.toLowerCase()];
    if (meant !== undefined) {
      throw new InputError(
        where,
        `document: unknown key ${JSON.stringify(key)} (did you mean "${meant}"?)`,
      );
    }
  }
}

/**
 * Reads a step's report file: one JSON object per line, `{"spend": N, "tokens": N}`, summed.
 * Strict like every input: a misspelled `spend` must not silently mean "free", a key given twice
 * in a line is refused (it would count once), and so is a sum that is no longer a finite number.
 * Read in chunks: a `diff` keeps at most `limit` bytes (its head and tail, like step output)
 * however long the line, so a report of any size costs bounded memory.
 */
export function readReport(file: string, limit = DEFAULT_OUTPUT_LIMIT): StepReport {
  // A step that reported nothing never made the file.
  if (!existsSync(file)) return { spend: 0, tokens: 0 };
  let spend = 0;
  let tokens = 0;
  let diff: string | undefined;
  readReportLines(file, limit, (value, where) => {
    refuseOtherNames(value, where);
    let entry: Partial<StepReport>;
    try {
      entry = decodeDocument(reportLine, value) as Partial<StepReport>;
    } catch (error) {
      throw InputError.isInputError(error) ? new InputError(where, error.message) : error;
    }
    const sum = (field: "spend" | "tokens", total: number) => {
      const added = total + (entry[field] ?? 0);
      if (!Number.isFinite(added)) {
        throw new InputError(
          `${where}: ${field}`,
          `the report's ${field} adds up to more than a number can hold (${total} + ${entry[field]})`,
        );
      }
      return added;
    };
    spend = sum("spend", spend);
    tokens = sum("tokens", tokens);
    diff = entry.diff ?? diff;
  });
  return { spend, tokens, ...(diff === undefined ? {} : { diff }) };
}
