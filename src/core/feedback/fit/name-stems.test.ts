import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ELLIPSIS } from "../clean/code-points.js";
import { briefName, briefNameAfter, paramsAt, paramsOpening } from "./name-stems.js";

const SEPARATORS = [" :: ", " › ", " > ", " ▶ ", " / ", "::"];

/**
 * The name a reader rebuilds from a brief `…SEP leaf` or `…[params]`: the name before it, up to
 * its last SEP or its parameters.
 */
function readBack(brief: string, previous: string | null): string {
  if (previous === null || !brief.startsWith(ELLIPSIS)) return brief;
  const rest = brief.slice(ELLIPSIS.length);
  if (rest.startsWith("[")) return previous.slice(0, paramsAt(previous)) + rest;
  const separator = SEPARATORS.find((candidate) => rest.startsWith(candidate));
  if (separator === undefined) return brief;
  const head = previous.slice(0, paramsOpening(previous));
  const stem = previous.slice(0, head.lastIndexOf(separator) + separator.length);
  return stem + rest.slice(separator.length);
}

describe("briefName", () => {
  it("writes a leaf of the previous name's stem as …SEP leaf, anything else whole", () => {
    const stem = "tests/test_io.py::TestRead::";
    expect(briefName(`${stem}test_two`, `${stem}test_one`)).toBe("…::test_two");
    expect(briefName("cart › counts", "cart › sums")).toBe("cart › counts");
    expect(briefName("checkout › counts", "checkout › sums")).toBe("… › counts");
    expect(briefName("other › counts", "checkout › sums")).toBe("other › counts");
    expect(briefName("checkout › sums", null)).toBe("checkout › sums");
  });

  it("writes another case of a parametrised test as …[params]", () => {
    const test = "tests/test_filesize.py::test_naturalsize";
    expect(briefName(`${test}[args24-32.0 MiB]`, `${test}[args23-31.0 KiB]`)).toBe(
      "…[args24-32.0 MiB]",
    );
    // Another test of the same file shares the file's stem only.
    expect(briefName(`${test}_gnu[1]`, `${test}[2]`)).toBe("…::test_naturalsize_gnu[1]");
    expect(briefName("sums [3, 4]", "sums [1, 2]")).toBe("sums [3, 4]");
    expect(briefName("adds numbers [3, 4]", "adds numbers [1, 2]")).toBe("…[3, 4]");
    // A separator inside the parameters is the data's, not the suite path's (rfc3986).
    expect(briefName(`${test}[a / b]`, `${test}[a / c]`)).toBe("…[a / b]");
    const fragment = "tests/test_parseresult.py::TestParseResultParsesURIs::test_handles_percent";
    expect(briefName(`${fragment}[[::1%25lo]]`, `${fragment}[[FF02::2]]`)).toBe("…[[::1%25lo]]");
    expect(briefName(`${fragment}_in_fragment[[::1]]`, `${fragment}[[FF02::2]]`)).toBe(
      "…::test_handles_percent_in_fragment[[::1]]",
    );
  });

  it("is lossless: every name is read back from the name before it and its brief form", () => {
    const segment = fc.stringMatching(/^[a-z0-9_ ()[\]]{1,12}$/);
    const path = fc.tuple(
      fc.array(segment, { minLength: 1, maxLength: 4 }),
      fc.constantFrom(...SEPARATORS),
    );
    fc.assert(
      fc.property(path, fc.option(path, { nil: null }), fc.boolean(), (own, before, share) => {
        const previous = before === null ? null : before[0].join(before[1]);
        // Half the time the name is a sibling of the previous one, as a suite's tests are.
        const name =
          share && before !== null
            ? [...before[0].slice(0, -1), ...own[0]].join(before[1])
            : own[0].join(own[1]);
        const brief = briefName(name, previous);
        expect(brief.length).toBeLessThanOrEqual(name.length);
        expect(readBack(brief, previous)).toBe(name);
      }),
      { numRuns: 500 },
    );
  });
});

describe("briefNameAfter", () => {
  it("writes a name brief against the latest written name that shares its stem, not only the last", () => {
    const written = ["ms(string) › converts h", "format(number) › supports seconds"];
    expect(briefNameAfter("ms(string) › converts d", written)).toBe("… › converts d");
    expect(briefNameAfter("parse(string) › converts d", written)).toBe(
      "parse(string) › converts d",
    );
    expect(briefNameAfter("ms(string) › converts d", [])).toBe("ms(string) › converts d");
  });

  it("is lossless: a brief name reads back from the latest written name of its stem", () => {
    const stems = fc.constantFrom("suite one › ", "suite two › ", "tests/a.py::TestX::");
    const leaf = fc.stringMatching(/^[a-z0-9_]{1,10}$/);
    const named = fc.tuple(stems, leaf).map(([stem, tail]) => stem + tail);
    fc.assert(
      fc.property(fc.array(named, { maxLength: 6 }), named, (written, name) => {
        const brief = briefNameAfter(name, written);
        if (brief === name) {
          expect(written.every((before) => briefName(name, before) === name)).toBe(true);
          return;
        }
        const source = written.findLast((before) => briefName(name, before) !== name) ?? null;
        expect(readBack(brief, source)).toBe(name);
      }),
      { numRuns: 300 },
    );
  });
});
