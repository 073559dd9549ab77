import { describe, expect, it } from "vitest";
import {
  firstPath,
  firstReference,
  lineOnly,
  locationOf,
  looksLikePath,
} from "./path-reference.js";

describe("firstReference", () => {
  it.each([
    ["see src/a.ts:3.", { path: "src/a.ts", line: 3 }],
    ["(`src/a.ts:3:7`):", { path: "src/a.ts", line: 3 }],
    ["`src/a.cpp:670-691` loops twice", { path: "src/a.cpp", line: 670 }],
    ["lib/argument.js(99,23): error TS2552", { path: "lib/argument.js", line: 99 }],
    ["at a/helpers.py#L51", { path: "a/helpers.py", line: 51 }],
    ["step:2 of the runbook", null],
    ["http://x:80", null],
    ["line 12", null],
  ])("reads %j", (text, reference) => {
    expect(firstReference(text)).toEqual(reference);
  });
});

describe("firstPath and looksLikePath", () => {
  it.each([
    ["In the file a/helpers.py, following are", "a/helpers.py"],
    ["sdk/src/rag_backend.cpp (1)", "sdk/src/rag_backend.cpp"],
    ["Typo in README.md", "README.md"],
    ["see e.g. the docs", null],
    ["https://example.com/a.ts", null],
    ["version v1.2 is out", null],
  ])("reads %j", (text, path) => {
    expect(firstPath(text)).toBe(path);
  });

  it("wants a directory or a lettered extension", () => {
    expect(["GEMINI.md", ".codex/CODEX.md", "a.b", "x.12"].map(looksLikePath)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe("lineOnly and locationOf", () => {
  it.each([
    ["670-691: Redundant enumeration", 670],
    ["Line 51:9: E123 closing bracket", 51],
    ["around lines 93 - 112, the toggle", 93],
    ["at L12", 12],
    ["no line here", null],
  ])("reads the line in %j", (text, line) => {
    expect(lineOnly(text)).toBe(line);
  });

  it("prefers the point's own reference, then its section's file, then a file named with a line", () => {
    expect(locationOf("fix src/a.ts:3", "b.ts")).toEqual({ path: "src/a.ts", line: 3 });
    expect(locationOf("Line 5: passes rac_abi.cpp values through", "idl/rag.proto")).toEqual({
      path: "idl/rag.proto",
      line: 5,
    });
    expect(locationOf("app/views.py line 23: loads everything", null)).toEqual({
      path: "app/views.py",
      line: 23,
    });
    expect(locationOf("the command mentioned in CLAUDE.md", null)).toEqual({
      path: null,
      line: null,
    });
  });
});
