import assert from "node:assert/strict";
import { test } from "node:test";
import { verify } from "../src/jwt.js";
import { login } from "../src/login.js";

const SECRET = "test-secret";

test("login returns a JWT carrying the numeric userId", () => {
  const { token } = login("ada", "correct horse", SECRET);
  if (token === undefined) assert.fail("token is undefined");
  const payload = verify(token, SECRET);
  if (!("userId" in payload)) assert.fail(`token missing userId: ${JSON.stringify(payload)}`);
  assert.strictEqual(payload.userId, 123);
});

test("login refuses a wrong password", () => {
  assert.throws(() => login("ada", "wrong", SECRET), /invalid credentials/);
});
