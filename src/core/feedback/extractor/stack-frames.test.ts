import { describe, expect, it } from "vitest";
import { frameLocation, isInternalPath, isTestPath, parseLocation } from "./stack-frames.js";

describe("frameLocation", () => {
  it.each([
    ["at Object.<anonymous> (src/a.test.ts:12:26)", "src/a.test.ts", 12],
    ["at async run (file:///home/u/app/lib.js:5:9)", "/home/u/app/lib.js", 5],
    ["at src/a.js:3:1", "src/a.js", 3],
    ["❯ src/auth/login.test.ts:10:41", "src/auth/login.test.ts", 10],
    ["❯ parseId src/auth/login.ts:5:23", "src/auth/login.ts", 5],
    ["TestContext.<anonymous> (file:///tmp/t/token.test.js:10:12)", "/tmp/t/token.test.js", 10],
    ['File "/app/tests/test_x.py", line 13, in test_x', "/app/tests/test_x.py", 13],
    ["at ./src/lib.rs:38:9", "src/lib.rs", 38],
    ["/home/u/m/add_test.go:12 +0x1d", "/home/u/m/add_test.go", 12],
    ["at C:\\work\\app\\a.test.js:4:2", "C:\\work\\app\\a.test.js", 4],
  ])("reads %s", (line, file, number) => {
    expect(frameLocation(line)).toEqual({ file, line: number });
  });

  it.each([
    "at the end of the day",
    "❯ src/a.test.ts (3 tests | 1 failed) 5ms",
    "plain text",
    "f(x)",
  ])("ignores %s", (line) => {
    expect(frameLocation(line)).toBeNull();
  });
});

describe("parseLocation", () => {
  it("reads path:line and path:line:column", () => {
    expect(parseLocation("a/b.ts:3")).toEqual({ file: "a/b.ts", line: 3 });
    expect(parseLocation("a/b.ts:3:9")).toEqual({ file: "a/b.ts", line: 3 });
    expect(parseLocation("no location")).toBeNull();
    expect(parseLocation(":3")).toBeNull();
  });
});

describe("isInternalPath", () => {
  it.each([
    "node:internal/process/task_queues",
    "internal/modules/cjs/loader.js",
    "/app/node_modules/jest-circus/build/run.js",
    "/rustc/5980/library/core/src/panicking.rs",
    "/usr/lib/python3.11/unittest/case.py",
    "/usr/local/go/src/testing/testing.go",
  ])("treats %s as internal", (path) => {
    expect(isInternalPath(path)).toBe(true);
  });

  it.each(["src/a.ts", "/home/u/app/lib.js", "tests/test_x.py", "src/lib.rs"])(
    "treats %s as user code",
    (path) => {
      expect(isInternalPath(path)).toBe(false);
    },
  );
});

describe("isTestPath", () => {
  it("knows a test's file by its directory or its name", () => {
    for (const path of [
      "test/cart.js",
      "src/__tests__/index.js",
      "tests/argument.variadic.test.js",
      "src/cart.spec.ts",
      "pkg/cart_test.go",
      "test_cart.py",
      "/ci/app/e2e/login.ts",
    ])
      expect(isTestPath(path), path).toBe(true);
    for (const path of ["src/index.js", "lib/command.js", "/ci/app/src/latest.js", "contest.js"])
      expect(isTestPath(path), path).toBe(false);
  });
});
