import { describe, expect, it } from "vitest";
import { parseLiteral } from "./literal.js";
import { typeConfusion } from "./type-confusion.js";

/** The confusion between two printed values, or null. */
function confusion(expected: string, received: string) {
  const e = parseLiteral(expected);
  const r = parseLiteral(received);
  return e === null || r === null ? null : typeConfusion(e, r);
}

describe("parseLiteral", () => {
  it("reads scalars as runners print them", () => {
    expect(parseLiteral("123")).toEqual({ type: "number", text: "123", value: "123" });
    expect(parseLiteral("'123'")).toEqual({ type: "string", text: '"123"', value: "123" });
    expect(parseLiteral('"a\\"b"')).toEqual({ type: "string", text: '"a\\"b"', value: 'a"b' });
    expect(parseLiteral("True")?.type).toBe("boolean");
    expect(parseLiteral("None")?.type).toBe("null");
    expect(parseLiteral('string("123")')).toEqual({ type: "string", text: '"123"', value: "123" });
    expect(parseLiteral("int64(7)")?.type).toBe("number");
    expect(parseLiteral("{ userId: 1 }")).toBeNull();
  });
});

describe("typeConfusion", () => {
  it("finds the same value in two types", () => {
    expect(confusion("123", '"123"')).toEqual({ expectedType: "number", receivedType: "string" });
    expect(confusion('"true"', "true")).toEqual({
      expectedType: "string",
      receivedType: "boolean",
    });
    expect(confusion("1.0", "1")).toEqual({ expectedType: "float", receivedType: "integer" });
  });

  it("ignores different values and same types", () => {
    expect(confusion("123", '"124"')).toBeNull();
    expect(confusion("1", "2")).toBeNull();
    expect(confusion("1.0", "1.00")).toBeNull();
    expect(confusion('"a"', '"a"')).toBeNull();
    expect(confusion("123", '"0x7b"')).toBeNull();
  });
});
