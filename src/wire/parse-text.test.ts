import { describe, expect, it } from "vitest";
import { LoopgateError } from "../core/errors.js";
import { InputError } from "./input-error.js";
import { MAX_YAML_TOKENS, parseText } from "./parse-text.js";

function failure(text: string, source = "in.yaml"): InputError {
  try {
    parseText(text, source);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error(`parsed without error: ${JSON.stringify(text)}`);
}

describe("parseText", () => {
  it("reads YAML", () => {
    expect(parseText("a: 1\nb: [x, 'y']\nc: {d: null}\n", "in.yaml")).toEqual({
      a: 1,
      b: ["x", "y"],
      c: { d: null },
    });
  });

  it("reads JSON, tab-indented too", () => {
    expect(parseText('{\n\t"a": 1,\n\t"b": {"c": [true, "x\\/y\\u00e9"]}\n}', "in.json")).toEqual({
      a: 1,
      b: { c: [true, "x/yé"] },
    });
  });

  it("keeps quoted numbers and booleans as strings, so the schema can refuse them", () => {
    expect(parseText('a: "3"\nb: "true"\nc: yes\nd: 3\ne: true\n', "in.yaml")).toEqual({
      a: "3",
      b: "true",
      c: "yes", // YAML 1.2: `yes` is a word, not a boolean
      d: 3,
      e: true,
    });
  });

  it("reads YAML's non-finite numbers as numbers (the schema refuses them), and JSON's 1e999 as Infinity", () => {
    expect(parseText("a: .inf\nb: -.inf\nc: .nan\n", "in.yaml")).toEqual({
      a: Infinity,
      b: -Infinity,
      c: NaN,
    });
    expect(parseText('{"a": 1e999, "b": -1e999}', "in.json")).toEqual({
      a: Infinity,
      b: -Infinity,
    });
  });

  it.each(["", "   ", "\n\n", "\t\n"])("refuses an empty document %j", (text) => {
    const error = failure(text, "tasks.yaml");
    expect(error.path).toBe("tasks.yaml");
    expect(error.message).toBe("tasks.yaml: the document is empty");
  });

  it.each([
    ["an unclosed flow mapping", "a: {b: 1\nc: 2\n", 2],
    ["an unclosed flow list", "a: [1, 2\n", 2],
    ["an unclosed quote", "a: 'x\n", 2],
    ["tabs as indentation", "a:\n\tb: 1\n", 2],
    ["two documents in one", "a: 1\n---\nb: 2\n", 2],
    ["a truncated JSON document", '{"counters": {"iteration": 1', 1],
  ])("refuses %s, naming the source and the line", (_name, text, line) => {
    const error = failure(text);
    expect(error).toBeInstanceOf(LoopgateError);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(
      new RegExp(`^in\\.yaml: not valid YAML or JSON at line ${line}, column \\d+: \\S`),
    );
    expect(error.message).not.toContain("\n");
  });

  it.each([
    ["YAML", "counters: {iteration: 1}\ncounters: {iteration: 2}\n", 2, 1, "counters"],
    ["nested YAML", "a:\n  b: 1\n  b: 2\n", 3, 3, "b"],
    ["a YAML flow mapping", "{a: 1, b: 2, a: 3}", 1, 14, "a"],
    ["YAML, where 1 and '1' are one key of the object", "1: x\n'1': y\n", 2, 1, "1"],
    ["JSON", '{"a": 1, "a": 2}', 1, 10, "a"],
    ["nested JSON", '{"a": [{"b": 1}, {"b": 2, "c": {"d": 0, "d": 1}}]}', 1, 41, "d"],
    ["JSON, where escapes spell the same key", '{"ab": 1, "a\\u0062": 2}', 1, 11, "ab"],
  ])("refuses duplicate keys in %s, naming the key", (_name, text, line, column, key) => {
    expect(failure(text).message).toBe(
      `in.yaml: not valid YAML or JSON at line ${line}, column ${column}: duplicate key "${key}"`,
    );
  });

  it("keeps equal keys of different mappings apart", () => {
    expect(
      parseText('{"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 3}, {"x": 4}]}', "in.json"),
    ).toEqual({ a: { x: 1 }, b: { x: 2 }, c: [{ x: 3 }, { x: 4 }] });
    expect(parseText("a: {x: 1}\nb: [{x: 2}, {x: 3}]\n", "in.yaml")).toEqual({
      a: { x: 1 },
      b: [{ x: 2 }, { x: 3 }],
    });
  });

  it("quotes a long or odd duplicate key briefly and on one line", () => {
    const key = `k\n${"x".repeat(200)}`;
    const message = failure(
      JSON.stringify({ [key]: 1 }).replace("}", `, ${JSON.stringify(key)}: 2}`),
    ).message;
    expect(message).toMatch(/: duplicate key "k\\nx{55}…"$/);
  });

  it("refuses a mapping of 80,000 keys with one repeated at the end quickly: the check is linear", () => {
    const keys = Array.from({ length: 80_000 }, (_, index) => `key${index}: ${index}`);
    const started = performance.now();
    expect(failure(`${keys.join("\n")}\nkey0: again\n`).message).toMatch(/duplicate key "key0"$/);
    const json = `{${keys.map((entry) => `"${entry.replace(": ", '": ')}`).join(", ")}, "key0": 1}`;
    expect(failure(json).message).toMatch(/duplicate key "key0"$/);
    // Not a timing test: yaml's own check took 31 s here; a generous bound only catches that.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("reads valid JSON whatever its size without the YAML parser's token limit", () => {
    const list = Array.from({ length: MAX_YAML_TOKENS + 10 }, () => 1);
    expect(
      (parseText(JSON.stringify({ scores: list }), "in.json") as { scores: number[] }).scores,
    ).toHaveLength(list.length);
  });

  it("refuses a YAML document of more than MAX_YAML_TOKENS tokens before building its tree", () => {
    expect(failure("- 1\n".repeat(MAX_YAML_TOKENS)).message).toBe(
      "in.yaml: too many values for a YAML document (over 1,000,000 tokens); give it as JSON",
    );
  });

  it("reads flow-style YAML that starts like JSON", () => {
    expect(parseText("{a: 1, b: [x]}", "in.yaml")).toEqual({ a: 1, b: ["x"] });
    expect(parseText("[a, {b: c}]", "in.yaml")).toEqual(["a", { b: "c" }]);
  });

  it.each([
    ["a flow list", "[".repeat(5_000)],
    [
      "a block mapping",
      Array.from({ length: 3_000 }, (_, depth) => `${" ".repeat(depth)}a:`).join("\n"),
    ],
  ])("refuses %s nested too deeply as invalid input, not a crash", (_name, text) => {
    expect(failure(text).message).toMatch(
      /^in\.yaml: not valid YAML or JSON at line \d+, column \d+: /,
    );
  });

  it("returns top-level lists and scalars as they are; the schema refuses them", () => {
    expect(parseText("- 1\n- 2\n", "in.yaml")).toEqual([1, 2]);
    expect(parseText("hello\n", "in.yaml")).toBe("hello");
    expect(parseText("42\n", "in.yaml")).toBe(42);
    expect(parseText("# only a comment\n", "in.yaml")).toBeNull();
  });

  it("refuses an alias bomb instead of expanding it", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      ...Array.from({ length: 9 }, (_, index) => {
        const name = String.fromCharCode(98 + index);
        const previous = String.fromCharCode(97 + index);
        return `${name}: &${name} [${Array(10).fill(`*${previous}`).join(", ")}]`;
      }),
    ].join("\n");
    expect(failure(bomb).message).toMatch(/^in\.yaml: not valid input: .*alias/);
  });

  it("does not write warnings to the process for a list used as a key", async () => {
    const warnings: string[] = [];
    const listener = (warning: Error) => warnings.push(warning.message);
    process.on("warning", listener);
    try {
      expect(parseText("? [a]\n: 1\n", "in.yaml")).toEqual({ "[ a ]": 1 });
      // process.emitWarning reports on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", listener);
    }
    expect(warnings).toEqual([]);
  });
});
