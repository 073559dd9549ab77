import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { decodeDocument, describeValue, withKey } from "./decode-document.js";
import { mapping } from "./fields.js";
import { InputError } from "./input-error.js";

describe("describeValue", () => {
  it.each([
    [undefined, "nothing"],
    [null, "null"],
    [[1, 2], "a list"],
    [{ a: 1 }, "a mapping"],
    [3, "3 (a number)"],
    [-0.5, "-0.5 (a number)"],
    [NaN, "NaN (a number)"],
    [Infinity, "Infinity (a number)"],
    ["3", '"3" (a string)'],
    [true, "true (a boolean)"],
    ["a\nb", '"a\\nb" (a string)'],
  ])("shows %j as %s", (value, shown) => {
    expect(describeValue(value)).toBe(shown);
  });

  it("cuts a long string short, keeping the quotes", () => {
    const shown = describeValue("x".repeat(1000));
    expect(shown).toBe(`"${"x".repeat(56)}…" (a string)`);
  });
});

describe("decodeDocument", () => {
  const schema = mapping(
    {
      outer: mapping(
        { alpha_key: v.number("expected a number"), beta_key: v.optional(v.string()) },
        "expected a mapping",
      ),
    },
    "expected a mapping with outer",
  );

  function errorOf(document: unknown): InputError {
    try {
      decodeDocument(schema, document);
    } catch (error) {
      if (error instanceof InputError) return error;
      throw error;
    }
    throw new Error("decoded without error");
  }

  it("decodes to camelCase", () => {
    expect(decodeDocument(schema, { outer: { alpha_key: 1, beta_key: "b" } })).toEqual({
      outer: { alphaKey: 1, betaKey: "b" },
    });
  });

  it("keeps the path apart from the message", () => {
    const error = errorOf({ outer: { alpha_key: "1" } });
    expect(error.path).toBe("outer.alpha_key");
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toBe('outer.alpha_key: expected a number, got "1" (a string)');
  });

  it("reports the first problem only, in document order", () => {
    expect(errorOf({ outer: { alpha_key: "1", beta_key: 2, gamma: 3 } }).message).toBe(
      'outer.alpha_key: expected a number, got "1" (a string)',
    );
  });

  it("prefers a misspelling to the missing key it stands for, whatever the key order", () => {
    expect(errorOf({ outer: { beta_key: "b", alpha_kye: 1 } }).message).toBe(
      'outer: unknown key "alpha_kye" (did you mean "alpha_key"?)',
    );
    expect(errorOf({ outer: { alpha_kye: 1, beta_key: "b" } }).message).toBe(
      'outer: unknown key "alpha_kye" (did you mean "alpha_key"?)',
    );
  });

  it("reports a missing key by its full path when nothing in its mapping is misspelt", () => {
    const error = errorOf({ outer: { beta_key: "b" } });
    expect(error.path).toBe("outer.alpha_key");
    expect(error.message).toBe("outer.alpha_key: is required but missing");
  });

  it("names the document itself when the problem is at the top", () => {
    expect(errorOf([]).message).toBe("document: expected a mapping with outer, got a list");
    expect(errorOf({ outer: {}, extra: 1 }).message).toBe(
      "outer.alpha_key: is required but missing",
    );
    expect(errorOf({ outr: {} }).message).toBe(
      'document: unknown key "outr" (did you mean "outer"?)',
    );
  });
});

describe("field paths through keys that are data", () => {
  const schema = v.record(v.string(), v.number("expected a number"));

  it("quotes a key that would blur the path, so the error stays one line", () => {
    const error = (() => {
      try {
        decodeDocument(schema, { "line\nbreak": "x" });
      } catch (caught) {
        return caught as InputError;
      }
      throw new Error("decoded without error");
    })();
    expect(error.path).toBe('["line\\nbreak"]');
    expect(error.message).not.toContain("\n");
  });

  it("writes plain keys as they are and the others quoted", () => {
    expect(withKey("answers", "task-003")).toBe("answers.task-003");
    expect(withKey("answers", "task.3")).toBe('answers["task.3"]');
    expect(withKey("", "env")).toBe("env");
  });
});
