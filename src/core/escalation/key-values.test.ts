import { describe, expect, it } from "vitest";
import { keyValues } from "./key-values.js";

describe("keyValues", () => {
  it("reads JSON, JavaScript and Python objects", () => {
    const json = keyValues('{"userId": 123, "name": "ada", "nested": {"admin": true}}');
    expect([...json].map(([key, value]) => `${key}=${value.text}`)).toEqual([
      "userId=123",
      'name="ada"',
      "admin=true",
    ]);
    expect(keyValues("{ userId: '123' }").get("userId")?.type).toBe("string");
    expect(keyValues("User(user_id=7)").get("user_id")?.text).toBe("7");
  });

  it("keeps the first value of a key and skips values it cannot read", () => {
    const values = keyValues("a: 1, a: 2, b: [1, 2], c: someCall()");
    expect(values.get("a")?.text).toBe("1");
    expect(values.has("b")).toBe(false);
    expect(values.has("c")).toBe(false);
  });
});
