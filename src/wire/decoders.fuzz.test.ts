import fc from "fast-check";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { decide } from "../core/decide.js";
import { verdict } from "../core/verdict.js";
import { configDocument, decideDocument, verdictDocument } from "../cli/test-support/documents.js";
import { fuzzRuns, fuzzSeed } from "../test-support/hostile/fuzz-runs.js";
import { validTaskFile } from "../test-support/hostile/hostile-task-files.js";
import { decodeAnswersFile } from "./answers-file.js";
import { decodeConfigDocument, decodeDecideDocument } from "./decide-document.js";
import { InputError } from "./input-error.js";
import { parseText } from "./parse-text.js";
import { decodeTaskFile } from "./task-file.js";
import { decodeVerdictDocument } from "./verdict-document.js";

type Doc = Record<string, unknown>;

/** Each wire decoder, taken as far as the CLI takes it: decoded, then decided. */
const DECODERS: readonly (readonly [string, (document: unknown) => unknown, fc.Arbitrary<Doc>])[] =
  [
    ["verdict", (document) => verdict(decodeVerdictDocument(document)), verdictDocument],
    ["decide", (document) => decide(decodeDecideDocument(document)), decideDocument],
    ["decide --config", decodeConfigDocument, configDocument],
    ["task file", decodeTaskFile, fc.constant(validTaskFile())],
    [
      "answers file",
      decodeAnswersFile,
      fc.constant({
        answers: { t1: { option: 2 }, t2: [{ text: "go" }, { approve: true, note: "n" }] },
      }),
    ],
  ];

/** Runs `read`; passes when it returns or throws one InputError on one line, fails otherwise. */
function expectValueOrInputError(read: () => unknown): void {
  try {
    read();
  } catch (error) {
    if (!InputError.isInputError(error)) throw error;
    expect(error.message).not.toMatch(/[\n\r]/);
  }
}

/** Any value a parser can hand a decoder, nested deep at times. */
const anyValue = fc.oneof(
  fc.jsonValue({ depthSize: "large" }),
  fc.anything({ withNullPrototype: true, maxDepth: 6 }),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 1e308, Number.MAX_SAFE_INTEGER + 2),
);

/** Sets `value` at a random place in `document` (a fresh copy), or adds a key there. */
function mutated(document: Doc): fc.Arbitrary<unknown> {
  const places: (string | number)[][] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    places.push(path);
    if (Array.isArray(node)) node.forEach((item, index) => walk(item, [...path, index]));
    else if (typeof node === "object" && node !== null)
      for (const [key, value] of Object.entries(node)) walk(value, [...path, key]);
  };
  walk(document, []);
  return fc
    .tuple(
      fc.constantFrom(...places),
      anyValue,
      fc.option(fc.string({ unit: "binary", maxLength: 12 })),
    )
    .map(([path, value, extraKey]) => {
      const copy = structuredClone(document) as Doc;
      if (path.length === 0) return extraKey === null ? value : { ...copy, [extraKey]: value };
      let node = copy as Record<string | number, unknown>;
      for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
      const last = path.at(-1) as string | number;
      if (extraKey !== null && typeof node[last] === "object" && node[last] !== null) {
        (node[last] as Record<string, unknown>)[extraKey] = value;
      } else {
        node[last] = value;
      }
      return copy;
    });
}

/** Text that nearly parses: YAML and JSON punctuation, keys and values shuffled. */
const textSoup = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "- ",
        "\n",
        "  ",
        '"',
        "'",
        "&a ",
        "*a",
        "? ",
        "|",
        ">",
        "#",
        "---",
        "!!str ",
        "<<: ",
      ),
      fc.constantFrom(
        "iteration_check",
        "counters",
        "policy",
        "steps",
        "tasks",
        "answers",
        "id",
        "command",
      ),
      fc.string({ unit: "binary", maxLength: 8 }),
    ),
    { maxLength: 80 },
  )
  .map((parts) => parts.join(""));

describe.each(DECODERS)("%s decoder on hostile input (fuzz)", (_name, decodeIt, valid) => {
  it("turns random text into a value or one InputError, never a crash", () => {
    fc.assert(
      fc.property(fc.oneof(textSoup, fc.string({ unit: "binary", maxLength: 400 })), (text) => {
        expectValueOrInputError(() => decodeIt(parseText(text, "fuzz.yaml")));
      }),
      { numRuns: fuzzRuns(300), ...fuzzSeed() },
    );
  }, 600_000);

  it("turns any parsed value into a value or one InputError", () => {
    fc.assert(
      fc.property(anyValue, (value) => expectValueOrInputError(() => decodeIt(value))),
      { numRuns: fuzzRuns(300), ...fuzzSeed() },
    );
  }, 600_000);

  it("turns a valid document with one part replaced into a value or one InputError, as YAML and JSON", () => {
    fc.assert(
      fc.property(valid.chain(mutated), (document) => {
        expectValueOrInputError(() => decodeIt(document));
        let json: string | undefined;
        try {
          json = JSON.stringify(document);
        } catch {
          json = undefined;
        }
        if (json !== undefined)
          expectValueOrInputError(() => decodeIt(parseText(json, "fuzz.json")));
        let yaml: string | undefined;
        try {
          yaml = stringify(document);
        } catch {
          yaml = undefined;
        }
        if (yaml !== undefined)
          expectValueOrInputError(() => decodeIt(parseText(yaml, "fuzz.yaml")));
      }),
      { numRuns: fuzzRuns(300), ...fuzzSeed() },
    );
  }, 600_000);
});
