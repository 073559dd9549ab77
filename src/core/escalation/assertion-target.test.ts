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
    expect(target(output, 13, "123")).toEqual({ field: "userId", subject: "payload" });
  });

  it("takes the innermost argument of a call as the subject", () => {
    const output = "    > 9 |     expect(decodeToken(token)).toEqual({ userId: 123 });";
    expect(target(output, null, null)).toEqual({ field: null, subject: "token" });
  });

  it("reads toHaveProperty's path, bracket access and pytest asserts", () => {
    expect(target('> 4 | expect(token).toHaveProperty("user.id");', null, null)).toEqual({
      field: "id",
      subject: "token",
    });
    expect(target('>       assert claims["user_id"] == 123', null, null)).toEqual({
      field: "user_id",
      subject: "claims",
    });
    expect(target("  13|     expect(await login()).toBeDefined()", null, null)).toEqual({
      field: null,
      subject: "login",
    });
  });

  it("names what a factory makes, not the keys of its arguments", () => {
    expect(
      target("    > 5 |     expect(makeToken({ id: 123 }).userId).toBe(123);", null, null),
    ).toEqual({
      field: "userId",
      subject: "token",
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
});
