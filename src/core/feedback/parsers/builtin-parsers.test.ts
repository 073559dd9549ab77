import { describe, expect, it } from "vitest";
import { builtinParsers, parserByName } from "./builtin-parsers.js";
import { testFeedback } from "../test-feedback.js";

const jestOutput = `FAIL test/a.test.js
  ● sums

    expect(received).toBe(expected) // Object.is equality

    Expected: 4
    Received: 3

      at Object.toBe (test/a.test.js:5:49)

Test Suites: 1 failed, 1 total
`;

describe("builtinParsers", () => {
  it("are what testFeedback uses by default; [] means the general extractor alone", () => {
    expect(testFeedback(jestOutput, { maxLength: 500 }).runner).toBe("jest");
    expect(testFeedback(jestOutput, { maxLength: 500, parsers: [] }).runner).toBe("generic");
  });

  it("puts the generic formats last and names every parser once", () => {
    const names = builtinParsers.map((parser) => parser.name);
    expect(names.slice(-2)).toEqual(["tap", "junit"]);
    expect(new Set(names).size).toBe(names.length);
  });

  it("finds a parser by name for --runner, and nothing for an unknown name", () => {
    expect(parserByName("mocha")?.name).toBe("mocha");
    expect(parserByName("nose")).toBeUndefined();
    const forced = parserByName("tap");
    expect(forced).toBeDefined();
    // Forcing a runner that does not match the output falls back to the general extractor.
    if (forced !== undefined) {
      expect(testFeedback(jestOutput, { maxLength: 500, parsers: [forced] }).runner).toBe(
        "generic",
      );
    }
  });
});
