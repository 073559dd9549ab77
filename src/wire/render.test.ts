import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { render } from "./render.js";

const DOCUMENT = {
  decision: {
    action: "escalate",
    task_id: "task-003",
    iteration: 3,
    fired: [],
    context: {
      attempts_summary: "Iteration 1: Test failed - a\nIteration 2: Test failed - b\n",
      pattern_detected: null,
      diff: "x".repeat(300),
    },
  },
};

describe("render", () => {
  it("prints YAML that reads back as the same document", () => {
    expect(parse(render(DOCUMENT, "yaml"))).toEqual(DOCUMENT);
  });

  it("prints JSON with the same keys and values", () => {
    const json = render(DOCUMENT, "json");
    expect(json.endsWith("}\n")).toBe(true);
    expect(JSON.parse(json)).toEqual(DOCUMENT);
  });

  it("prints multi-line strings as literal blocks and never folds long lines", () => {
    const yaml = render(DOCUMENT, "yaml");
    expect(yaml).toContain(
      "attempts_summary: |\n      Iteration 1: Test failed - a\n      Iteration 2: Test failed - b\n",
    );
    expect(yaml).toContain(`diff: ${"x".repeat(300)}\n`);
  });

  it("quotes strings that would read back as another type", () => {
    const tricky = { a: "3", b: "true", c: "null", d: "", e: "- x", f: "a: b" };
    expect(parse(render(tricky, "yaml"))).toEqual(tricky);
  });

  it("writes a shared object twice rather than as an alias", () => {
    const shared = { x: 1 };
    expect(render({ a: shared, b: shared }, "yaml")).not.toMatch(/[&*]/);
  });
});

describe("render on hostile text", () => {
  const hostile = {
    title: "a\u001b]0;owned\u0007b",
    csi: "\u009b31mred\u009d",
    lines: "one\ntwo\u001b[2K\rthree\n",
    separators: "a\u2028b\u2029c\u202ed",
  };

  it.each(["yaml", "json"] as const)(
    "prints %s with no control character or escape sequence, that reads back as the same document",
    (format) => {
      const text = render(hostile, format);
      // eslint-disable-next-line no-control-regex -- looking for control characters is the point
      expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e]/);
      expect(format === "json" ? JSON.parse(text) : parse(text)).toEqual(hostile);
    },
  );

  it("reads back as the same document whatever the strings hold (property)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: "binary" }), fc.string({ unit: "binary" })),
        (document) => {
          expect(parse(render(document, "yaml"))).toEqual(document);
          expect(JSON.parse(render(document, "json"))).toEqual(document);
        },
      ),
      { numRuns: 500 },
    );
  });
});
