// HS256 JSON Web Tokens with node:crypto only (RFC 7519), so the demo needs no install.
import { createHmac, timingSafeEqual } from "node:crypto";

const HEADER = { alg: "HS256", typ: "JWT" };

/** base64url of a JSON value. */
function encode(value) {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** The HS256 signature of `header.payload`. */
function signature(data, secret) {
  return createHmac("sha256", secret).update(data).digest("base64url");
}

/** Signs a payload; `iat` is added in seconds since the epoch. */
export function sign(payload, secret) {
  const data = `${encode(HEADER)}.${encode({ ...payload, iat: Math.floor(Date.now() / 1000) })}`;
  return `${data}.${signature(data, secret)}`;
}

/** Verifies a token's signature and returns its payload; throws on a bad token. */
export function verify(token, secret) {
  const parts = String(token).split(".");
  if (parts.length !== 3) throw new Error("malformed token");
  const [header, payload, given] = parts;
  const expected = Buffer.from(signature(`${header}.${payload}`, secret));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    throw new Error("bad signature");
  }
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
}
