import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { duplicateJsonKey } from "./json-duplicate-key.js";

describe("duplicateJsonKey", () => {
  it("finds none in what JSON.stringify writes, however nested and escaped", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(duplicateJsonKey(JSON.stringify(value))).toBeNull();
        expect(duplicateJsonKey(JSON.stringify(value, null, 2))).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it("finds a key repeated in any object, and where its second occurrence starts", () => {
    const object = fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 });
    fc.assert(
      fc.property(object, fc.jsonValue(), fc.nat(), (inner, value, pick) => {
        const keys = Object.keys(inner);
        const key = keys[pick % keys.length] ?? "";
        const json = JSON.stringify({ outer: [inner] });
        const close = json.lastIndexOf("}", json.length - 3);
        const extra = `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
        const duplicated = `${json.slice(0, close)}${extra}${json.slice(close)}`;
        expect(duplicateJsonKey(duplicated)).toEqual({ key, offset: close + 1 });
      }),
      { numRuns: 500 },
    );
  });

  it("compares keys after decoding their escapes", () => {
    expect(duplicateJsonKey('{"é": 1, "\\u00e9": 2}')).toEqual({ key: "é", offset: 9 });
    expect(duplicateJsonKey('{"a\\"b": 1, "a\\u0022b": 2}')).toEqual({ key: 'a"b', offset: 12 });
  });

  it("keeps the keys of sibling and nested objects apart", () => {
    expect(duplicateJsonKey('{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}')).toBeNull();
    expect(duplicateJsonKey('[{"x": "{\\"x\\": 1}", "y": "[,]"}]')).toBeNull();
  });
});
