import { describe, expect, it } from "vitest";
import { containsToken, factRecall } from "./fact-recall.mjs";

describe("factRecall", () => {
  const fact = {
    test: "login › returns a JWT",
    file: "test/login.test.js",
    line: 12,
    expected: "123",
    received: '"123"',
    keyword: "toBe",
  };

  it("counts every known part of every fact", () => {
    const text = 'test/login.test.js:12 login > returns a JWT: expected 123, received "123" (toBe)';
    expect(factRecall(text, [fact])).toBe(1);
  });

  it('tells 123 from "123": a value glued to quotes is another value', () => {
    const text = 'test/login.test.js:12 login › returns a JWT: expected "123", received "123" toBe';
    expect(factRecall(text, [fact])).toBeCloseTo(5 / 6);
  });

  it("reads either quote style as the same quoting", () => {
    expect(factRecall("received '123'", [{ received: '"123"' }])).toBe(1);
  });

  it("does not take :1 for :12, nor a name joined by another separator for a different name", () => {
    expect(factRecall("a.js:12", [{ line: 1 }])).toBe(0);
    expect(factRecall("cart > sums prices", [{ test: "cart sums prices" }])).toBe(1);
    expect(factRecall("cart sums", [{ test: "cart sums prices" }])).toBe(0);
  });

  it("matches keywords case-insensitively and skips unknown parts", () => {
    expect(factRecall("Test timed out", [{ keyword: "timed out", file: null }])).toBe(1);
  });

  it("reads a brief name after its stem, wherever another stem's same leaf came first", () => {
    const text =
      "a.rs:1 lower::tests::test1\n…:2 …::test6\nb.rs:3 title::tests::test1\n…:4 …::test6";
    const brief = { elisions: true };
    expect(factRecall(text, [{ test: "title::tests::test6" }], brief)).toBe(1);
    expect(factRecall(text, [{ test: "other::tests::test6" }], brief)).toBe(0);
    expect(
      factRecall("…::test6 title::tests::test1", [{ test: "title::tests::test6" }], brief),
    ).toBe(0);
    expect(factRecall("title::tests::a …::test60", [{ test: "title::tests::test6" }], brief)).toBe(
      0,
    );
  });

  it("reads a brief name by any separator its name holds, not only the first one tried", () => {
    // uvu's suite ` :: ` name holds `::` as well (held-out-6, regexparam).
    const text = 'a.js:1 "param :: static :: one"\n…:2 … :: multiple"';
    const brief = { elisions: true };
    expect(factRecall(text, [{ test: '"param :: static :: multiple"' }], brief)).toBe(1);
  });

  it("reads a brief name's stem up to its last separator outside its parameters (rfc3986)", () => {
    const test = "tests/test_parseresult.py::TestParseResultParsesURIs::test_in_fragment";
    const text = `t.py:9 ${test.replace("_in_", "_")}[[::1]]; …::test_in_fragment[[::1%25lo]]`;
    const brief = { elisions: true };
    expect(factRecall(text, [{ test: `${test}[[::1%25lo]]` }], brief)).toBe(1);
    expect(
      factRecall(`t.py:9 ${test}[[::1]]; …::1%25lo]]`, [{ test: `${test}[[::1%25lo]]` }], brief),
    ).toBe(0);
  });

  it("reads only `…:N` as the file above when asked for places alone", () => {
    const text = "tests/test_a.py:3 tests/test_a.py::TestX::test_one\n…:9 …::test_two";
    const places = { elisions: "places" } as const;
    expect(factRecall(text, [{ file: "tests/test_a.py", line: 9 }], places)).toBe(1);
    expect(factRecall(text, [{ test: "tests/test_a.py::TestX::test_two" }], places)).toBe(0);
    expect(
      factRecall(text, [{ test: "tests/test_a.py::TestX::test_two" }], { elisions: true }),
    ).toBe(1);
  });

  it("reads `…[params]` as another case of a parametrised test written before it", () => {
    const test = "tests/test_filesize.py::test_naturalsize";
    const text = `t.py:9 ${test}[args23-31.0 KiB]; …[args24-32.0 MiB]`;
    const brief = { elisions: true };
    expect(factRecall(text, [{ test: `${test}[args24-32.0 MiB]` }], brief)).toBe(1);
    expect(factRecall(text, [{ test: `${test}_gnu[args24-32.0 MiB]` }], brief)).toBe(0);
    expect(factRecall(text, [{ test: `${test}[args24-32.0 MiB]` }])).toBe(0);
    expect(
      factRecall(`…[args24-32.0 MiB] ${test}[x]`, [{ test: `${test}[args24-32.0 MiB]` }], brief),
    ).toBe(0);
  });

  it("reads `…/rest` as a path in the directory of the path before it", () => {
    const text =
      "src/test/java/acme/ATest.java:1\n…/BTest.java:2; …/expr/CTest.java:3\nDTest.java:4\n…/ETest.java:5";
    const brief = { elisions: true };
    expect(factRecall(text, [{ file: "src/test/java/acme/BTest.java" }], brief)).toBe(1);
    expect(factRecall(text, [{ file: "src/test/java/acme/expr/CTest.java" }], brief)).toBe(1);
    // After a bare file name there is no directory to read `…/` against.
    expect(factRecall(text, [{ file: "src/test/java/acme/ETest.java" }], brief)).toBe(0);
    expect(factRecall(text, [{ file: "src/test/java/acme/BTest.java" }])).toBe(0);
    expect(
      factRecall(text, [{ file: "src/test/java/acme/BTest.java" }], { elisions: "places" }),
    ).toBe(0);
    const absolute = "/tmp/run/app/billing.py:5:12 reportReturnType\n…/users.py:13:20";
    expect(factRecall(absolute, [{ file: "/tmp/run/app/users.py" }], brief)).toBe(1);
  });

  it("is 1 without facts and 0 for empty feedback", () => {
    expect(factRecall("anything", [])).toBe(1);
    expect(factRecall("", [fact])).toBe(0);
  });
});

describe("containsToken", () => {
  it("finds a later unglued occurrence after a glued one", () => {
    expect(containsToken('"123" then 123', "123")).toBe(true);
    expect(containsToken("x", "")).toBe(false);
  });
});
