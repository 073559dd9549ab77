import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { LoopgateError } from "../core/errors.js";
import { runMain } from "./test-support/run-main.js";

const failure = vi.hoisted(() => ({ error: undefined as unknown }));

// The verdict core fails the way a bug would; the CLI must not dress that up as bad input.
vi.mock("../core/verdict.js", () => ({
  verdict: () => {
    throw failure.error;
  },
}));

const input = fileURLToPath(new URL("../../examples/seed/verdict.yaml", import.meta.url));

describe("an internal error", () => {
  it("exits 1 with `internal error:` on stderr and nothing on stdout", async () => {
    failure.error = new TypeError("cannot read properties of undefined");
    const run = await runMain(["verdict", input]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^internal error: TypeError: cannot read properties of undefined/);
  });

  it("exits 1 for a loopgate error that is not about the input", async () => {
    failure.error = new LoopgateError("INVALID_CONDITION", "a condition returned nothing");
    const run = await runMain(["verdict", input, "--json"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("a condition returned nothing");
  });

  it("exits 1 for a thrown value that is not an Error", async () => {
    failure.error = "just a string";
    const run = await runMain(["verdict", input]);
    expect(run).toEqual({ code: 1, stdout: "", stderr: "internal error: just a string\n" });
  });
});
