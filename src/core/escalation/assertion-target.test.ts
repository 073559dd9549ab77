import { describe, expect, it } from "vitest";
import { assertionFrames, assertionTarget } from "./assertion-target.js";

/** The target read from a whole output. */
function target(output: string, line: number | null, expected: string | null) {
  return assertionTarget(assertionFrames(output), line, expected);
}

describe("assertionTarget", () => {
  it("reads the field and its holder from a Jest code frame", () => {
    const output = [
      "      12 |     const payload = decode(token);",
      "    > 13 |     expect(payload.userId).toBe(123);",
      "         |                            ^",
    ].join("\n");
    expect(target(output, 13, "123")).toEqual({ field: "userId", subject: "payload", bare: false });
  });

  it("takes the innermost argument of a call as the subject", () => {
    const output = "    > 9 |     expect(decodeToken(token)).toEqual({ userId: 123 });";
    expect(target(output, null, null)).toEqual({ field: null, subject: "token", bare: false });
  });

  it("reads toHaveProperty's path, bracket access and pytest asserts", () => {
    expect(target('> 4 | expect(token).toHaveProperty("user.id");', null, null)).toEqual({
      field: "id",
      subject: "token",
      bare: true,
    });
    expect(target('>       assert claims["user_id"] == 123', null, null)).toEqual({
      field: "user_id",
      subject: "claims",
      bare: false,
    });
    expect(target("  13|     expect(await login()).toBeDefined()", null, null)).toEqual({
      field: null,
      subject: "login",
      bare: false,
    });
  });

  it("names what a factory makes, not the keys of its arguments", () => {
    expect(
      target("    > 5 |     expect(makeToken({ id: 123 }).userId).toBe(123);", null, null),
    ).toEqual({
      field: "userId",
      subject: "token",
      bare: false,
    });
  });

  it("prefers the frame at the failure's line and ignores unframed prose", () => {
    const output = [
      "expect(received).toBe(expected)",
      "    > 5 |     expect(a.first).toBe(1);",
      "      8 |     expect(b.second).toBe(2);",
    ].join("\n");
    expect(target(output, 8, null)?.field).toBe("second");
    expect(target("expect(x.y).toBe(1)", null, null)).toBeNull();
  });

  it("reads pytest's short traceback frames; a method called on a value is not the subject", () => {
    const output = [
      "tests/test_deserialization.py:95: in test_integer_field_deserialization",
      '    assert field.deserialize("42") == 42',
    ].join("\n");
    expect(target(output, 95, "42")).toEqual({ field: null, subject: "field", bare: false });
    expect(target("> 3 | expect(userId).toBe(1)", null, null)).toEqual({
      field: null,
      subject: "userId",
      bare: true,
    });
  });
});
