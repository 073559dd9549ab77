import { describe, expect, it } from "vitest";
import type { Failure } from "../feedback.js";
import { failureGist, failureParts, foldedPair, withoutErrorName } from "./feedback-items.js";

const failure = (overrides: Partial<Failure>): Failure => ({
  test: "login returns a token",
  file: "src/login.test.ts",
  line: 12,
  expected: "123",
  received: '"123"',
  message: "",
  ...overrides,
});

describe("failureParts", () => {
  it("gives the values, then the error's words that name the kind of check", () => {
    const parts = failureParts(
      failure({ message: "AssertionError: expected the token's id '123' to be a number" }),
    );
    expect(parts.values).toEqual(['want 123, got "123"']);
    expect(parts.words).toEqual([
      "expected the token's id … to be a number",
      "expected the token's id '123' to be a number",
      "AssertionError: expected the token's id '123' to be a number",
    ]);
  });

  it("offers no words that only repeat the pair the summary's kind already names (pytest's `assert`)", () => {
    const parts = failureParts(
      failure({ expected: "'13rd'", received: "'13th'", message: "assert '13th' == '13rd'" }),
      "9 with assert … == …",
    );
    expect(parts.values).toEqual(["want '13rd', got '13th'"]);
    expect(parts.words).toEqual([]);
  });

  it("offers every one of Jasmine's toEqual differences in its fullest words", () => {
    const differences = [
      "Expected $.rootNode.tag['@_int'] = '045' to equal 45.",
      "Expected $.rootNode.tag['@_intNegative'] = '-045' to equal -45.",
      "Expected $.rootNode.tag['@_float'] = '65.34' to equal 65.34.",
      "Expected $.rootNode.tag['@_floatNegative'] = '-65.34' to equal -65.34.",
    ];
    const parts = failureParts(
      failure({ expected: "45", received: "'045'", message: differences.join(" ") }),
    );
    expect(parts.words.at(-1)).toBe(differences.join(" "));
  });

  it("offers no brief note that would still be cut once its values are elided", () => {
    const long = failureParts(
      failure({
        expected: "45",
        received: "'0045'",
        message:
          "Expected $.rootNode['@_attr1'] = '0045' to equal 45. Expected $.rootNode['@_name'] = '004.5' to equal 4.5.",
      }),
    );
    expect(long.words.every((note) => !note.endsWith("…"))).toBe(true);
    const check = failureParts(
      failure({ message: "expect(received).toBe(expected) // Object.is equality" }),
    );
    // A matcher hint with placeholders is its matcher: nothing to cut.
    expect(check.words[0]).toBe("toBe");
  });

  it("lets the error's own words stand for the pair when they quote both values", () => {
    const parts = failureParts(
      failure({ message: "AssertionError: expected '123' to be 123 // Object.is equality" }),
    );
    // Briefest without the matcher's note; whole, the runner's line with the error's name.
    expect(parts.values).toEqual([
      "expected '123' to be 123",
      "expected '123' to be 123 // Object.is equality",
      "AssertionError: expected '123' to be 123 // Object.is equality",
    ]);
    expect(parts.words).toEqual([]);
    expect(parts.sides).toBe(2);
    const go = failureParts(
      failure({
        expected: "'10 kB'",
        received: "'9.8 kB'",
        message: "On bytes(9999), expected '10 kB', but got '9.8 kB'",
      }),
    );
    expect(go.values).toEqual(["On bytes(9999), expected '10 kB', but got '9.8 kB'"]);
    // Words far longer than the pair, or quoting one side only, do not stand for it.
    const long = `expected '123' to be 123 ${"and more words ".repeat(5)}`;
    expect(failureParts(failure({ message: long })).values).toEqual(['want 123, got "123"']);
    expect(failureParts(failure({ message: "expected 123 to be a string" })).values).toEqual([
      'want 123, got "123"',
    ]);
  });

  it("shows the bare pair when the summary already names the words' kind of check", () => {
    const message = "AssertionError: expected '123' to deeply equal 123 // deep equality";
    const said =
      "Test failed: 3 failing tests; 3 with expected … to deeply equal … // deep equality";
    expect(failureParts(failure({ message }), said).values).toEqual(['want 123, got "123"']);
  });

  it("shows the words instead, without their comment, when they are hardly longer", () => {
    const message = "AssertionError: expected '123' to be 123 // Object.is equality";
    const said = "Test failed: 3 failing tests; 3 with expected … to be … // Object.is equality";
    expect(failureParts(failure({ message }), said).values).toEqual(["expected '123' to be 123"]);
  });

  it("shows a pair whole up to 130 characters; a longer one first shows what differs", () => {
    const short = failureParts(
      failure({ expected: '"Mixed Up Camel Case"', received: '"Mixed UP Camel Case"' }),
    );
    expect(short.values).toEqual(['want "Mixed Up Camel Case", got "Mixed UP Camel Case"']);
    const words = "word ".repeat(12);
    const long = failureParts(
      failure({ expected: `"${words}Up end"`, received: `"${words}UP end"` }),
    );
    expect(long.values).toHaveLength(2);
    expect(long.values[0]).toContain("…");
  });

  it("reads RSpec's Failure/Error: label as the generic prefix it is", () => {
    expect(withoutErrorName("Failure/Error: expect(x).to eq(1)")).toBe("expect(x).to eq(1)");
  });

  it("names a qualified error by its class: the package says nothing a developer needs", () => {
    expect(withoutErrorName("java.lang.IllegalArgumentException: Error in script engine")).toBe(
      "IllegalArgumentException: Error in script engine",
    );
    expect(withoutErrorName("requests.exceptions.HTTPError")).toBe("HTTPError");
    // A call or a field is no error's name.
    expect(withoutErrorName("os.path.join failed: bad input")).toBe(
      "os.path.join failed: bad input",
    );
  });

  it("shortens no pair whose sides read the same: the values are whole or not shown", () => {
    const same = "{ a: { b: { c: { d: { e: [Object] } } } } }";
    const parts = failureParts(failure({ expected: same, received: same }));
    expect(parts.values).toEqual([`want ${same}, got ${same}`]);
  });

  it("leaves out words whose only other side is the runner's own cut of a value (rfc3986)", () => {
    const parts = failureParts(
      failure({
        expected: "'/%2521%2522%2523%25ah%2512%25ff'",
        received: "'/%21%22%23%ah%12%ff'",
        message: "AssertionError: assert '/%21%22%23%ah%12%ff' == '/%2521%2522%...5ah%2512%25ff'",
      }),
    );
    expect(parts.values).toEqual([
      "want '/%2521%2522%2523%25ah%2512%25ff', got '/%21%22%23%ah%12%ff'",
    ]);
    expect(parts.words).toEqual([]);
  });

  it("leaves out words that only repeat the values, or the test's own name", () => {
    expect(failureParts(failure({ message: 'Expected: 123\nReceived: "123"' })).words).toEqual([]);
    const tap = failure({
      test: "cart > should be strictly equal",
      message: "Error: should be strictly equal",
    });
    expect(failureParts(tap).words).toEqual([]);
  });

  it("cuts a long first line of the error's words", () => {
    const [, whole = ""] = failureParts(failure({ message: `toBe ${"x".repeat(800)}` })).words;
    expect(whole.length).toBeLessThan(410);
    expect(whole.endsWith("…")).toBe(true);
  });

  it("shows long values by the part that differs first", () => {
    const parts = failureParts(
      failure({
        expected: 'User { id: 1, name: "Ada", address: Address { city: "Lyon", zip: "75001" } }',
        received: 'User { id: 1, name: "Ada", address: Address { city: "Paris", zip: "75001" } }',
      }),
    );
    expect(parts.values[0]).toBe('want …city: "Lyon"…, got …city: "Paris"…');
    expect(parts.values[1]).toContain('address: Address { city: "Lyon", zip: "75001" }');
  });

  it("without values, gives the error's words, its generic name left out first", () => {
    const parts = failureParts(
      failure({ expected: null, received: null, message: "AssertionError: token is undefined" }),
    );
    expect(parts.values).toEqual([]);
    expect(parts.words).toEqual(["token is undefined", "AssertionError: token is undefined"]);
    expect(failureParts(failure({ expected: "4", received: null })).values).toEqual(["want 4"]);
  });
});

describe("failureGist", () => {
  it("is the values when known, else the message, else the name", () => {
    expect(failureGist(failure({}))).toBe('want 123, got "123"');
    expect(failureGist(failure({ expected: null, message: "boom" }))).toBe("boom");
    expect(failureGist(failure({ expected: null }))).toBe("login returns a token");
  });
});

describe("foldedPair", () => {
  it("folds each side to one line", () => {
    expect(foldedPair("Object {\n  a: 1\n}", "Object {\n  a: 2\n}")).toEqual({
      expected: "Object { a: 1 }",
      received: "Object { a: 2 }",
    });
  });

  it("keeps line breaks and inner indentation when only they differ, never two alike sides", () => {
    expect(foldedPair("  foo;\n\n  SELECT", "  foo;\n  SELECT")).toEqual({
      expected: "foo;\\n\\nSELECT",
      received: "foo;\\nSELECT",
    });
    expect(foldedPair("        1", "  1")).toEqual({ expected: '"        1"', received: '"  1"' });
    expect(foldedPair("if (a) {\n  b();\n}", "if (a) {\nb();\n}")).toEqual({
      expected: "if (a) {\\n  b();\\n}",
      received: "if (a) {\\nb();\\n}",
    });
    expect(failureGist(failure({ expected: ";\n\n;", received: ";\n;" }))).toBe(
      "want ;\\n\\n;, got ;\\n;",
    );
  });

  it("writes a side that ends with its printed comma once, never `,,` before `got`", () => {
    const parts = failureParts(
      failure({
        expected: '"color": "white",',
        received: '"color": "rgba(0,0,0,1)",',
        message: "x",
      }),
    );
    expect(parts.values[0]).toBe('want "color": "white", got "color": "rgba(0,0,0,1)",');
  });
});
