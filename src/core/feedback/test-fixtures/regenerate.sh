#!/usr/bin/env bash
# Recreates the captured runner outputs in this folder from tiny failing projects.
# Needs: node (the repo's vitest install), python3 with pytest, cargo. Runners that are missing
# are skipped and their fixtures left as they are. Durations and thread ids differ per run; the
# tests only assert facts that do not (names, files, lines, expected, received).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
work="/tmp/loopgate-fixtures"
rm -rf "$work" && mkdir -p "$work"

capture() { # capture NAME COMMAND... — runs the command, keeps stdout+stderr, ignores the exit code
  local name="$1"; shift
  "$@" >"$here/$name.txt" 2>&1 || true
  echo "wrote $name.txt"
}

# --- Vitest -------------------------------------------------------------------------------
# Not "vitest": Vitest hides stack frames whose path contains /vitest/ as its own.
mkdir -p "$work/vt-project/src/auth" && cd "$work/vt-project"
ln -s "$repo/node_modules" node_modules
echo '{"name":"fixture","type":"module","private":true}' > package.json
cat > src/auth/login.ts <<'TS'
export function login(user: { id: number } | undefined): { token: string; userId?: string } {
  return { token: "abc", userId: user ? String(user.id) : undefined };
}
export function parseId(s: string): number {
  if (s === "") throw new TypeError("empty id");
  return Number(s);
}
TS
cat > src/auth/login.test.ts <<'TS'
import { describe, expect, it } from "vitest";
import { login, parseId } from "./login";

describe("login", () => {
  it("issues a token", () => {
    expect(login({ id: 1 }).token).toBe("abc");
  });
  describe("payload", () => {
    it("contains the numeric userId", () => {
      expect(login({ id: 123 }).userId).toBe(123);
    });
    it("matches the expected object", () => {
      expect(login({ id: 123 })).toEqual({ token: "abc", userId: 123 });
    });
  });
  it("has a userId when no user", () => {
    expect(login(undefined).userId).toBeDefined();
  });
});

describe("parseId", () => {
  it("parses empty", () => {
    expect(parseId("")).toBe(0);
  });
  it("sums", () => {
    expect(1 + 1).toBe(3);
  });
});
TS
cat > src/auth/other.test.ts <<'TS'
import { test, expect } from "vitest";
test("strings differ", () => {
  expect("hello world").toBe("hello there");
});
test("passes", () => { expect(1).toBe(1); });
TS
capture vitest-basic env NO_COLOR=1 node_modules/.bin/vitest run --root .
capture vitest-basic-color env FORCE_COLOR=1 node_modules/.bin/vitest run --root .

# --- node:test ----------------------------------------------------------------------------
mkdir -p "$work/node-test/test" && cd "$work/node-test"
echo '{"name":"fixture","type":"module","private":true}' > package.json
cat > lib.js <<'JS'
export function makeToken(user) {
  return { userId: String(user.id) };
}
export function explode() {
  throw new RangeError("value out of range: 42");
}
JS
cat > test/token.test.js <<'JS'
import { describe, it, test } from "node:test";
import assert from "node:assert/strict";
import { makeToken, explode } from "../lib.js";

describe("makeToken", () => {
  it("keeps the id", () => {
    assert.ok(makeToken({ id: 1 }).userId);
  });
  it("uses a numeric userId", () => {
    assert.strictEqual(makeToken({ id: 123 }).userId, 123);
  });
  it("matches the payload", () => {
    assert.deepStrictEqual(makeToken({ id: 7 }), { userId: 7 });
  });
});

test("explodes", () => {
  explode();
});

test("message equality", () => {
  assert.equal("hello world", "hello there");
});
JS
capture node-test-spec env NO_COLOR=1 node --test --test-reporter=spec test/
capture node-test-spec-color env FORCE_COLOR=1 node --test --test-reporter=spec test/
capture node-test-tap node --test --test-reporter=tap test/

# --- pytest and unittest ------------------------------------------------------------------
if python3 -m pytest --version >/dev/null 2>&1; then
  mkdir -p "$work/pytest/tests" && cd "$work/pytest"
  cat > tests/test_token.py <<'PY'
import pytest


def make_token(user):
    return {"user_id": str(user["id"])}


def test_keeps_id():
    assert make_token({"id": 1})["user_id"]


def test_numeric_user_id():
    assert make_token({"id": 123})["user_id"] == 123


def test_payload():
    assert make_token({"id": 7}) == {"user_id": 7}


class TestParse:
    def test_int(self):
        assert int("12") + 1 == 14

    def test_raises(self):
        raise ValueError("bad value: 42")


@pytest.mark.parametrize("a,b", [(1, 1), (2, 3)])
def test_param(a, b):
    assert a == b
PY
  capture pytest-basic python3 -m pytest tests -p no:cacheprovider
  capture pytest-basic-color python3 -m pytest tests -p no:cacheprovider --color=yes
  capture pytest-short python3 -m pytest tests -p no:cacheprovider -q --tb=short
else
  echo "pytest not found: pytest fixtures kept"
fi
mkdir -p "$work/unittest" && cd "$work/unittest"
cat > test_token.py <<'PY'
import unittest


def make_token(user):
    return {"user_id": str(user["id"])}


class TokenTest(unittest.TestCase):
    def test_keeps_id(self):
        self.assertTrue(make_token({"id": 1})["user_id"])

    def test_numeric_user_id(self):
        self.assertEqual(make_token({"id": 123})["user_id"], 123)

    def test_raises(self):
        raise ValueError("bad value: 42")


if __name__ == "__main__":
    unittest.main()
PY
capture unittest-basic python3 -m unittest test_token

# --- cargo --------------------------------------------------------------------------------
if command -v cargo >/dev/null 2>&1; then
  mkdir -p "$work/cargo/src" && cd "$work/cargo"
  cat > Cargo.toml <<'TOML'
[package]
name = "fixture"
version = "0.1.0"
edition = "2021"
TOML
  cat > src/lib.rs <<'RS'
pub fn make_user_id(id: u32) -> String {
    id.to_string()
}

pub fn checked(v: i32) -> i32 {
    if v > 10 {
        panic!("value out of range: {}", v);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_id() {
        assert!(!make_user_id(1).is_empty());
    }

    #[test]
    fn numeric_user_id() {
        assert_eq!(make_user_id(123), "124");
    }

    #[test]
    fn sums() {
        assert_eq!(1 + 1, 3, "math is broken");
    }

    #[test]
    fn panics_in_lib() {
        checked(42);
    }

    #[test]
    fn not_equal() {
        assert_ne!(2, 2);
    }
}
RS
  cargo build --tests -q >/dev/null 2>&1 || true
  capture cargo-basic env RUST_BACKTRACE=0 cargo test --color=never -- --test-threads=1
  capture cargo-backtrace-color env RUST_BACKTRACE=1 cargo test --color=always -- --test-threads=1 --color=always
  capture cargo-quiet env RUST_BACKTRACE=0 cargo test -q --color=never -- --test-threads=1
else
  echo "cargo not found: cargo fixtures kept"
fi
