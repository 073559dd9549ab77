import { describe, expect, it } from "vitest";
import { isRunnerCut } from "./runner-cut.js";

describe("isRunnerCut", () => {
  it("tells a value a runner cut short by `...` or `…` from a whole one", () => {
    expect(isRunnerCut("{'_netloc_sep...t': None, ...}")).toBe(true);
    expect(isRunnerCut("{ path: '/route', …(1) }")).toBe(true);
    expect(isRunnerCut("{ null: 'hello' }")).toBe(false);
  });
});
