import { describe, expect, it } from "vitest";
import { assertionFrames, assertionTarget } from "./assertion-target.js";

/** The target read from a whole output, for a failure whose message is all of it unless given. */
function target(output: string, line: number | null, expected: string | null, message = output) {
  return assertionTarget(assertionFrames(output), { line, expected, message });
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

  it("reads an unnumbered failing line (RSpec's Failure/Error:) only for the failure whose message holds it (hashdiff)", () => {
    const output = [
      "  1) Hashdiff sorts hash changes",
      "     Failure/Error: expect(diff).to eq([['-', 'c', 1]])",
      "  2) Hashdiff is able to decode property path",
      "     Failure/Error: decoded.should == ['a', 'b', 0]",
    ].join("\n");
    const decode = "Failure/Error: decoded.should == ['a', 'b', 0]";
    // Its own line, in RSpec's older syntax, names the value it checks.
    expect(target(output, 8, '["a", "b", 0]', decode)).toEqual({
      field: null,
      subject: "decoded",
      bare: true,
    });
    expect(target(output, 403, null, "Failure/Error: expect(diff).to eq([['-', 'c', 1]])")).toEqual(
      { field: null, subject: "diff", bare: true },
    );
  });
});
