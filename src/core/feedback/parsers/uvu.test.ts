import { describe, expect, it } from "vitest";
import { uvuParser } from "./uvu.js";
import { failureOf } from "../failure-of.js";
import { cleanOutput } from "../test-feedback.js";

// uvu 0.5's shapes, as captured from a scratch project (frames shortened).
const output = `more.test.js
✘ ✘ ✘ •   (1 / 4)

   FAIL  "strings"
    Expected values to be strictly equal:  (is)

        ++the·quick·brown·cat    (Expected)
        --the·quick·brown·fox    (Actual)
                          ^^^

    at assert (/ci/app/node_modules/uvu/assert/index.js:33:8)
    at Object.handler (/ci/app/tests/more.test.js:3:33)


   FAIL  lists  "arrays"
    Expected values to be deeply equal:  (equal)

        ··[
        ····1,
        Actual:
        --····3,
        Expected:
        ++····4,
        ··]

    at Object.handler (/ci/app/tests/more.test.js:5:34)


   FAIL  "multiline"
    Expected value to match fixture:  (fixture)

        L1 ··a
        Actual:
        L2 --b
        Expected:
        L2 ++B

    at Object.handler (/ci/app/lib/fixture.test.js:7:37)


  Total:     5
  Passed:    1
  Skipped:   1
  Duration:  7.76ms
`;

describe("uvuParser", () => {
  it("reads each FAIL block's words, ++/-- values and first user frame", () => {
    expect(uvuParser.detect(output)).toBe(true);
    expect(uvuParser.parse(cleanOutput(output))).toEqual([
      failureOf({
        test: '"strings"',
        file: "tests/more.test.js",
        line: 3,
        expected: "the·quick·brown·cat",
        received: "the·quick·brown·fox",
        message: "Expected values to be strictly equal: (is)",
      }),
      failureOf({
        test: 'lists  "arrays"',
        file: "tests/more.test.js",
        line: 5,
        expected: "4",
        received: "3",
        message: "Expected values to be deeply equal: (equal)",
      }),
      failureOf({
        test: '"multiline"',
        file: "lib/fixture.test.js",
        line: 7,
        expected: "B",
        received: "b",
        message: "Expected value to match fixture: (fixture)",
      }),
    ]);
    // Total counts the tests that ran; the skipped one is not among them.
    expect(uvuParser.reportedFailures?.(output)).toBe(4);
  });

  it("does not claim Jest's or Vitest's FAIL lines", () => {
    expect(uvuParser.detect("FAIL test/a.test.js\n  ● sums\nTests: 1 failed, 1 total\n")).toBe(
      false,
    );
    expect(uvuParser.reportedFailures?.("no summary")).toBeNull();
  });
  it("names a test as printed and places a helper's assertion at the test's call (dequal)", () => {
    const output = ` Date  ✘   (0 / 1)

   FAIL  Date  "Dates"
    Expected values to be strictly equal:  (is)

        ++false    (Expected)
        --true     (Actual)

    at assert (/tmp/rw/dequal/node_modules/uvu/assert/index.js:31:8)
    at Proxy.is (/tmp/rw/dequal/node_modules/uvu/assert/index.js:39:2)
    at different (/tmp/rw/dequal/test/index.js:10:9)
    at Object.handler (/tmp/rw/dequal/test/index.js:123:2)
    at Number.runner (/tmp/rw/dequal/node_modules/uvu/dist/index.js:92:16)

  Total:     1
  Passed:    0
`;
    expect(uvuParser.parse(output)).toEqual([
      failureOf({
        test: 'Date  "Dates"',
        file: "/tmp/rw/dequal/test/index.js",
        line: 123,
        expected: "false",
        received: "true",
        message: "Expected values to be strictly equal: (is)",
      }),
    ]);
  });

  it("keeps the commas between a block's lines and drops the one after its last (dset)", () => {
    const output = `   FAIL  objects  "should merge existing array value :: nested"
    Expected values to be deeply equal:  (equal)

        ··[
        Actual:
        --··{
        --····"friends":·[
        --······"alice"
        --····]
        --··},
        Expected:
        ++··{
        ++····"friends":·[
        ++······"alice",
        ++······"mary"
        ++····]
        ++··},
        ··]

    at Object.handler (/w/dset/test/suites/objects.js:80:11)

  Total:     1
  Passed:    0
`;
    expect(uvuParser.parse(output)).toEqual([
      failureOf({
        test: 'objects  "should merge existing array value :: nested"',
        file: "/w/dset/test/suites/objects.js",
        line: 80,
        expected: '{\n"friends":·[\n"alice",\n"mary"\n]\n}',
        received: '{\n"friends":·[\n"alice"\n]\n}',
        message: "Expected values to be deeply equal: (equal)",
      }),
    ]);
  });
});
