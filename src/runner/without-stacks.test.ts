import { unlinkSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { withoutStacks } from "./without-stacks.js";

describe("withoutStacks", () => {
  it("gives the action's result", () => {
    expect(withoutStacks(() => 42)).toBe(42);
  });

  it("lets a failure through with its code and message but no stack frames, and restores the limit", () => {
    const limit = Error.stackTraceLimit;
    const missing = join(tmpdir(), `loopgate-no-such-file-${process.pid}-${Date.now()}`);
    let caught: NodeJS.ErrnoException | undefined;
    try {
      withoutStacks(() => unlinkSync(missing));
    } catch (error) {
      caught = error as NodeJS.ErrnoException;
    }
    expect(caught?.code).toBe("ENOENT");
    expect(caught?.message).toContain(missing);
    expect(caught?.stack?.split("\n").filter((line) => line.trimStart().startsWith("at "))).toEqual(
      [],
    );
    expect(Error.stackTraceLimit).toBe(limit);
    // Outside, errors have their stacks as before.
    expect(new Error("here").stack).toContain("at ");
  });
});
