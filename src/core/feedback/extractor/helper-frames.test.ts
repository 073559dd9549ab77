import { describe, expect, it } from "vitest";
import { helperCaller, isNamedFrame } from "./helper-frames.js";

const at = (file: string, line: number, named: boolean) => ({ location: { file, line }, named });

describe("isNamedFrame", () => {
  it("tells a helper's frame from a callback's and a module's top level", () => {
    expect(isNamedFrame("at matchMoment (test/plugin/timezone.test.js:30:22)")).toBe(true);
    expect(isNamedFrame("at async expectToBeAt (tests/support/commands.ts:20:2)")).toBe(true);
    expect(isNamedFrame("❯ checkTotal test/helpers.ts:3:10")).toBe(true);
    expect(isNamedFrame("at /tmp/rw/swup/tests/functional/cache.spec.ts:18:3")).toBe(false);
    expect(isNamedFrame("at Object.<anonymous> (test/plugin/timezone.test.js:484:33)")).toBe(false);
    expect(isNamedFrame("❯ test/a.test.ts:12:5")).toBe(false);
  });
});

describe("helperCaller", () => {
  it("is the test's line that called a helper in the spec file (Jest on dayjs)", () => {
    const frames = [
      at("test/plugin/timezone.test.js", 30, true),
      at("test/plugin/timezone.test.js", 486, true),
      at("test/plugin/timezone.test.js", 484, false),
    ];
    expect(helperCaller(frames)).toEqual({ file: "test/plugin/timezone.test.js", line: 486 });
  });

  it("skips Playwright's location line and a support file's frames (swup)", () => {
    const frames = [
      at("../support/swup.ts", 28, false),
      at("tests/support/swup.ts", 28, true),
      at("tests/functional/cache.spec.ts", 18, false),
    ];
    expect(helperCaller(frames)).toEqual({ file: "tests/functional/cache.spec.ts", line: 18 });
  });

  it("is the first frame outside a helper's own file when the helper calls itself on", () => {
    // validator.js: `test()` loops with `forEach`, both named, both in the helper's file.
    const inHelper = [41, 32].map((line) => at("test/testFunctions.js", line, true));
    const test = at("test/validators.test.js", 252, false);
    expect(helperCaller([...inHelper, test])).toEqual(test.location);
  });

  it("is null for an assertion in the test's own callback or in the code under test", () => {
    expect(helperCaller([at("test/cart.test.js", 5, false)])).toBeNull();
    expect(helperCaller([at("test/cart.test.js", 5, true)])).toBeNull();
    expect(
      helperCaller([at("src/cart.js", 9, true), at("test/cart.test.js", 5, false)]),
    ).toBeNull();
  });

  it("reads Babel's regenerator body of an async test as the test's own code, not a helper (json-rules-engine)", () => {
    expect(isNamedFrame("at _callee9$ (test/condition.test.js:181:72)")).toBe(false);
    expect(isNamedFrame("at step (test/condition.test.js:23:191)")).toBe(true);
    const frames = [
      {
        location: { file: "test/condition.test.js", line: 181 },
        named: isNamedFrame("at _callee9$ (test/condition.test.js:181:72)"),
      },
      {
        location: { file: "test/condition.test.js", line: 23 },
        named: isNamedFrame("at step (test/condition.test.js:23:191)"),
      },
    ];
    expect(helperCaller(frames)).toBeNull();
  });
});
