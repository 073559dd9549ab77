import { isRecord } from "../../core/json-record.js";
import type { JsonReportSpec } from "../../wire/agent-step.js";
import { describeValue } from "../../wire/decode-document.js";
import { InputError } from "../../wire/input-error.js";
import { amount, jsonLines, jsonObject } from "./agent-reading.js";

/** The value at a dotted path (`usage.cost`, `turns.0.cost`), or undefined where it leads nowhere. */
function valueAt(document: unknown, path: string): unknown {
  let node = document;
  for (const key of path.split(".")) {
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isRecord(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * Reads the cost of any agent that prints JSON: the last line of its standard output that is a
 * JSON object (or the whole output, when that is one pretty-printed object), at the paths the
 * step's `report` names. A step that exited 0 without a number there stops the run (exit 2)
 * as a misspelled report line does: a wrong path must not silently mean "free". One that
 * failed may have printed nothing; its spend is then 0, said in its output.
 */
export function readJsonReport(
  stdout: string,
  report: JsonReportSpec,
  succeeded: boolean,
): { spend: number; tokens: number; notes: string[] } {
  const document = jsonLines(stdout).at(-1) ?? jsonObject(stdout.replace(/\n/g, " "));
  const notes: string[] = [];
  const read = (field: "spend" | "tokens"): number => {
    const path = report[field];
    if (path === undefined) return 0;
    const value = document === undefined ? undefined : valueAt(document, path);
    const found = amount(value);
    if (found !== undefined) return found;
    const what =
      document === undefined ? "printed no JSON object" : `has ${describeValue(value)} at ${path}`;
    if (succeeded) {
      throw new InputError(
        `report.${field}`,
        `expected a number >= 0 at ${path} in the generate step's JSON output, but it ${what}`,
      );
    }
    notes.push(`[loopgate] the generate step failed and ${what}: its ${field} is counted as 0`);
    return 0;
  };
  return { spend: read("spend"), tokens: read("tokens"), notes };
}
