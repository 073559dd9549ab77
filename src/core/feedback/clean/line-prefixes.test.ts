/// <reference types="vite/client" />
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripAnsi } from "./ansi.js";
import { linePrefixesOf, stripLinePrefixes } from "./line-prefixes.js";

const outputs = import.meta.glob<string>("../../../../fixtures/runners/*/*/output*.txt", {
  query: "?raw",
  import: "default",
  eager: true,
});

const JEST = [
  "FAIL test/cart.test.js",
  "  ● cart › sums prices",
  "",
  "    Expected: 4",
  "    Received: 3",
  "",
  "      at Object.toBe (test/cart.test.js:5:49)",
  "",
  "Tests:       1 failed, 1 total",
];

const each = (lines: readonly string[], prefix: (index: number) => string): string =>
  lines.map((line, index) => `${prefix(index)}${line}`).join("\n");

/** Lines of test output that carry no transport prefix, whatever they hold. */
const CONTENT_LINES = fc.array(
  fc.oneof(
    fc.string({ unit: "grapheme-ascii" }),
    fc.constantFrom(...JEST, "File      | % Stmts | % Branch", "Error: boom", "a | b", "x:y: z"),
  ),
  { maxLength: 30 },
);

describe("stripLinePrefixes", () => {
  it("removes GitHub Actions' timestamps and workflow-command markers", () => {
    const log = each(
      ["##[group]Run npm test", "npm test", "##[endgroup]", ...JEST, "##[error]exit code 1"],
      (index) => `2024-05-01T12:34:${String(10 + index)}.1234567Z `,
    );
    expect(stripLinePrefixes(log)).toBe(
      ["Run npm test", "npm test", "", ...JEST, "exit code 1"].join("\n"),
    );
  });

  it("removes `gh run view --log`'s job and step columns with the timestamp", () => {
    const log = each(JEST, () => "test\tRun npm test\t2024-05-01T12:34:56.1234567Z ");
    expect(stripLinePrefixes(log)).toBe(JEST.join("\n"));
  });

  it("removes GitLab's timestamps and stream markers", () => {
    const log = each(JEST, (index) => `2024-05-01T12:34:56.123456Z 01${index % 2 ? "E" : "O"} `);
    expect(stripLinePrefixes(log)).toBe(JEST.join("\n"));
  });

  it("removes docker compose's service columns, several services too", () => {
    const log = each(JEST, (index) => (index === 2 ? "db-1   | " : "app-1  | "));
    expect(stripLinePrefixes(log)).toBe(JEST.join("\n"));
    expect(stripLinePrefixes(each(JEST, () => "app_1     | "))).toBe(JEST.join("\n"));
  });

  it("removes Turborepo's and pnpm -r's package and task columns, keeping their own lines", () => {
    const turbo = [
      "• Packages in scope: web",
      each(JEST, () => "web:test: "),
      "web#test: command (/repo/web) npm run test exited (1)",
    ].join("\n");
    expect(stripLinePrefixes(turbo)).toBe(
      [
        "• Packages in scope: web",
        ...JEST,
        "web#test: command (/repo/web) npm run test exited (1)",
      ].join("\n"),
    );
    expect(stripLinePrefixes(each(JEST, () => "@acme/web:test:unit: "))).toBe(JEST.join("\n"));
    expect(stripLinePrefixes(each(JEST, () => "packages/web test: "))).toBe(JEST.join("\n"));
  });

  it("removes nested prefixes: a Turborepo task in a CI log", () => {
    const log = each(JEST, () => "2024-05-01T12:34:56Z web:test: ");
    expect(stripLinePrefixes(log)).toBe(JEST.join("\n"));
  });

  it("leaves content that only looks like a prefix", () => {
    const compile = [
      "# example.com/billing",
      "./billing.go:5:19: cannot use 0 as string value",
      "./billing.go:7:3: invalid operation",
      "./billing.go:9:9: cannot use sum as int",
      "src/a.ts:3:1: error: x",
      "FAIL\texample.com/billing [build failed]",
    ].join("\n");
    expect(stripLinePrefixes(compile)).toBe(compile);
    // Each name once: a list, not a transport.
    const list = ["alpha | 1", "beta | 2", "gamma | 3", "delta | 4"].join("\n");
    expect(stripLinePrefixes(list)).toBe(list);
    expect(stripLinePrefixes("2024-05-01T12:34:56Z one line")).toBe(
      "2024-05-01T12:34:56Z one line",
    );
  });

  it("leaves the real outputs of the fixture corpus unchanged, but the prefixed ones", () => {
    const changed = Object.entries(outputs)
      .filter(([, output]) => stripLinePrefixes(stripAnsi(output)) !== stripAnsi(output))
      .map(([path]) => path.slice(path.indexOf("runners/")));
    expect(Object.keys(outputs).length).toBeGreaterThan(50);
    expect(changed.sort()).toEqual([
      "runners/jest/workspace/output.pnpm.txt",
      "runners/jest/workspace/output.turbo.txt",
    ]);
  });

  it("property: lines none of which is a prefix's are unchanged, however mixed", () => {
    const plain = (line: string): boolean => linePrefixesOf([line, line, line, line]).length === 0;
    fc.assert(
      fc.property(CONTENT_LINES, (lines) => {
        fc.pre(lines.every(plain));
        const text = lines.join("\n");
        expect(stripLinePrefixes(text)).toBe(text);
      }),
    );
  });

  it("property: prefixing every line and stripping gives the text back", () => {
    const prefixes = fc.constantFrom(
      () => "2024-05-01T12:34:56.1234567Z ",
      () => "app-1  | ",
      () => "web:test: ",
    );
    fc.assert(
      fc.property(CONTENT_LINES, prefixes, (lines, prefix) => {
        // At least two lines, so the prefix is seen to repeat.
        const content = [...JEST, ...lines];
        fc.pre(linePrefixesOf(content).length === 0);
        expect(stripLinePrefixes(each(content, prefix))).toBe(content.join("\n"));
      }),
    );
  });
});
