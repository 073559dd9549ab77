/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { builtinParsers } from "./parsers/builtin-parsers.js";
import type { Failure, TestOutputParser } from "./feedback.js";
import { cleanOutput, testFeedback } from "./test-feedback.js";

/** One fact a person verified by hand in a case's captured output. */
interface ExpectedFact {
  readonly test: string | null;
  readonly file: string | null;
  readonly line: number | null;
  readonly expected: string | null;
  readonly received: string | null;
  /** Words of the error that the failure's message must contain. */
  readonly keyword: string;
  /** A lint or compiler finding's column and rule, when the output gives them. */
  readonly column?: number;
  readonly rule?: string;
  /** The test's own frame when the failure is located elsewhere (a thrown error's first user frame). */
  readonly testLocation?: { readonly file: string; readonly line: number };
}

/** The optional parts of a failure a fact states, present only when known. */
function optionalParts(source: {
  column?: number;
  rule?: string;
  testLocation?: { readonly file: string; readonly line: number };
}): Record<string, unknown> {
  return Object.fromEntries(
    (["column", "rule", "testLocation"] as const)
      .filter((key) => source[key] !== undefined)
      .map((key) => [key, source[key]]),
  );
}

// Vite reads the corpus at build time, so the core stays free of I/O.
const outputs = import.meta.glob<string>("../../../fixtures/runners/*/*/output*.txt", {
  query: "?raw",
  import: "default",
  eager: true,
});
// `expected.json` holds a case's facts; `expected.<variant>.json` those of `output.<variant>.txt`
// when that format states them differently (a JSON report's absolute paths, typed values).
const facts = import.meta.glob<readonly ExpectedFact[]>(
  "../../../fixtures/runners/*/*/expected*.json",
  { import: "default", eager: true },
);

/** The facts of one output file: its variant's own, else the case's. */
function factsFor(path: string): readonly ExpectedFact[] | undefined {
  const folder = path.slice(0, path.lastIndexOf("/"));
  const variant = /\/output\.(\w+)\.txt$/.exec(path)?.[1];
  return (
    (variant === undefined ? undefined : facts[`${folder}/expected.${variant}.json`]) ??
    facts[`${folder}/expected.json`]
  );
}

/** The parser a runner's folder is read by, when its name differs from the folder's. */
const PARSER_OF_RUNNER: Readonly<Record<string, string>> = { go: "go-test", tape: "tap" };

/** The built-in parser that recognizes an output once it is cleaned (colours, line prefixes). */
function detected(output: string): TestOutputParser | undefined {
  const text = cleanOutput(output);
  return builtinParsers.find((candidate) => candidate.detect(text));
}

/** `{ runner, case, file }` of a path `…/fixtures/runners/<runner>/<case>/<file>`. */
function caseOf(path: string): { runner: string; name: string; file: string } {
  const [runner = "", name = "", file = ""] = path.split("/fixtures/runners/")[1]?.split("/") ?? [];
  return { runner, name, file };
}

/**
 * The failure a fact is about: the one with the fact's test name (findings have none) at the
 * fact's file and line, with its rule and column when it states them; else the first at its line,
 * else the first of that name, else the one at the fact's index.
 */
function failureFor(failures: readonly Failure[], fact: ExpectedFact, index: number): Failure {
  const named = failures.filter((failure) => failure.test === fact.test);
  const placed = named.filter(
    (failure) => failure.file === fact.file && failure.line === fact.line,
  );
  return (
    placed.find((failure) => failure.rule === fact.rule && failure.column === fact.column) ??
    placed.find((failure) => failure.rule === fact.rule) ??
    placed[0] ??
    named.find((failure) => failure.line === fact.line) ??
    named[0] ??
    failures[index]!
  );
}

describe("fixture corpus: real runners' outputs", () => {
  for (const [path, output] of Object.entries(outputs)) {
    const { runner, name, file } = caseOf(path);
    const expected = factsFor(path);
    const title = `${runner}/${name}/${file}`;
    if (expected === undefined) {
      it.todo(`${title}: expected.json not written yet`);
      continue;
    }
    it(`${title}: detected and every fact found`, () => {
      // Parsers see what testFeedback hands them: ANSI and line prefixes already stripped.
      const parser = detected(output);
      expect(parser?.name).toBe(PARSER_OF_RUNNER[runner] ?? runner);
      const feedback = testFeedback(output, { maxLength: 500, parsers: builtinParsers });
      const failures =
        expected.length === 0 ? (parser?.parse(cleanOutput(output)) ?? []) : feedback.failures;
      expect(failures).toHaveLength(expected.length);
      if (expected.length > 0) expect(feedback.runner).toBe(parser?.name);
      expected.forEach((fact, index) => {
        const failure = failureFor(failures, fact, index);
        const { column, rule, ...facts } = failure;
        expect({
          ...facts,
          message: failure.message.includes(fact.keyword),
          ...(fact.column === undefined ? {} : { column }),
          ...(fact.rule === undefined ? {} : { rule }),
        }).toEqual({
          test: fact.test,
          file: fact.file,
          line: fact.line,
          expected: fact.expected,
          received: fact.received,
          message: true,
          ...optionalParts(fact),
        });
      });
    });
  }

  // Colour is presentation: the coloured capture of a case must read exactly as the plain one.
  for (const [path, coloured] of Object.entries(outputs)) {
    if (!path.endsWith("/output.color.txt")) continue;
    const plain = outputs[path.replace("/output.color.txt", "/output.txt")];
    if (plain === undefined) continue;
    it(`${caseOf(path).runner}/${caseOf(path).name}: coloured output gives the plain output's failures`, () => {
      // As a set: parallel runners (cargo) finish tests in a different order on every run.
      const read = (output: string): string[] =>
        (detected(output)?.parse(cleanOutput(output)) ?? []).map((f) => JSON.stringify(f)).sort();
      expect(read(coloured)).toEqual(read(plain));
    });
  }
});
