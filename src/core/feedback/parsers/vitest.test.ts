import { describe, expect, it } from "vitest";
import { failureOf } from "../failure-of.js";
import { vitestParser } from "./vitest.js";

const text = `
 RUN  v4.1.12 /p

 ❯ test/token.test.js (2 tests | 1 failed) 9ms
   × login > returns a numeric userId 6ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/token.test.js > login > returns a numeric userId
AssertionError: expected '123' to be 123 // Object.is equality

- Expected
+ Received

- 123
+ "123"

 ❯ test/token.test.js:6:43

 Test Files  1 failed (1)
`;

const failedSuite = `
 RUN  v4.1.12 /p

⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/broken.test.js [ test/broken.test.js ]
Error: Failed to parse source for import analysis because the content contains invalid JS syntax.
  Plugin: vite:import-analysis

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed | 1 passed (2)
`;

const json = JSON.stringify({
  numTotalTestSuites: 1,
  testResults: [
    {
      name: "/p/test/token.test.js",
      status: "failed",
      message: "",
      assertionResults: [
        {
          ancestorTitles: ["login"],
          title: "returns a numeric userId",
          status: "failed",
          failureMessages: [
            "AssertionError: expected '123' to be 123 // Object.is equality\n    at /p/test/token.test.js:6:43",
          ],
        },
      ],
    },
  ],
});

describe("vitestParser", () => {
  it("reads the default reporter: one failure per test, values as printed", () => {
    expect(vitestParser.detect(text)).toBe(true);
    expect(vitestParser.parse(text)).toEqual([
      {
        test: "login > returns a numeric userId",
        file: "test/token.test.js",
        line: 6,
        expected: "123",
        received: '"123"',
        message: "AssertionError: expected '123' to be 123 // Object.is equality",
      },
    ]);
  });

  it("keeps the quotes the message prints around strings that the diff prints bare (scule)", () => {
    const quoted = ` FAIL  test/scule.test.ts > trainCase > foo--bar-Baz => Foo-Bar-Baz
AssertionError: expected 'Foo--Bar-Baz' to match object 'Foo-Bar-Baz'

- Expected
+ Received

- Foo-Bar-Baz
+ Foo--Bar-Baz

 ❯ test/scule.test.ts:124:30

 Test Files  1 failed (1)
`;
    expect(vitestParser.parse(quoted)).toMatchObject([
      { line: 124, expected: "'Foo-Bar-Baz'", received: "'Foo--Bar-Baz'" },
    ]);
  });

  it("says one change made in several places once, and keeps a test named by brackets (css-what)", () => {
    const repeated = ` FAIL  src/stringify.spec.ts > Collected Selectors > #siblingTest em ~ em ~ span
AssertionError: expected [ [ …(9) ] ] to strictly equal [ [ …(9) ] ]

- Expected
+ Received

  [
    {
-     "type": "sibling",
+     "type": "adjacent",
    },
    {
-     "type": "sibling",
+     "type": "adjacent",
    },
  ]

 ❯ src/stringify.spec.ts:17:40

 FAIL  src/stringify.spec.ts > Collected Selectors > [ a=b i ]
AssertionError: expected 1 to be 2 // Object.is equality
 ❯ src/stringify.spec.ts:17:40

 Test Files  1 failed (1)
`;
    expect(vitestParser.parse(repeated)).toMatchObject([
      { expected: '"type": "sibling",', received: '"type": "adjacent",' },
      { test: "Collected Selectors > [ a=b i ]", expected: "2", received: "1" },
    ]);
  });

  it("takes both sides from the message when the diff shows one (cookie-es's toMatchObject)", () => {
    const oneSided = ` FAIL  test/cookie-parse.test.ts > cookie.parse(str) > should URL-decode values
AssertionError: expected { foo: '%1', ar: 'bar' } to match object { foo: '%1', bar: 'bar' }
(1 matching property omitted from actual)

- Expected
+ Received

  {
-   "bar": "bar",
    "foo": "%1",
  }

 ❯ test/cookie-parse.test.ts:32:37

 Test Files  1 failed (1)
`;
    expect(vitestParser.parse(oneSided)).toMatchObject([
      { line: 32, expected: "{ foo: '%1', bar: 'bar' }", received: "{ foo: '%1', ar: 'bar' }" },
    ]);
  });

  it("reads the JSON reporter, values from the message as printed", () => {
    expect(vitestParser.detect(json)).toBe(true);
    expect(vitestParser.parse(json)).toEqual([
      {
        test: "login > returns a numeric userId",
        file: "/p/test/token.test.js",
        line: 6,
        expected: "123",
        received: "'123'",
        message: "AssertionError: expected '123' to be 123 // Object.is equality",
      },
    ]);
  });

  it("reads a suite that failed to load as a failure of its file", () => {
    expect(vitestParser.parse(failedSuite)).toEqual([
      {
        test: "test/broken.test.js",
        file: "test/broken.test.js",
        line: null,
        expected: null,
        received: null,
        message:
          "Error: Failed to parse source for import analysis because the content contains invalid JS syntax.",
      },
    ]);
  });

  it("reads its JUnit report and yields nothing for an all-passing run", () => {
    const junit = `<testsuites name="vitest tests"><testsuite name="test/a.test.js">
<testcase classname="test/a.test.js" name="a &gt; b"><failure message="x" type="Error">Error: x
 ❯ test/a.test.js:3:1</failure></testcase></testsuite></testsuites>`;
    expect(vitestParser.detect(junit)).toBe(true);
    expect(vitestParser.parse(junit)).toMatchObject([{ test: "a > b", line: 3 }]);
    expect(vitestParser.parse(" RUN  v4.1.12 /p\n\n Test Files  1 passed (1)\n")).toEqual([]);
  });
  it("reads a compile error shared by files listed together at the place oxc names (knitwork)", () => {
    const output = `
 RUN  v4.1.12 /tmp/rw/knitwork

⎯⎯⎯⎯⎯⎯ Failed Suites 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/object.test.ts [ test/object.test.ts ]
 FAIL  test/string.test.ts [ test/string.test.ts ]
Error: Transform failed with 1 error:

[PARSE_ERROR] Expected \`,\` or \`)\` but found \`}\`
    ╭─[ src/string.ts:13:43 ]
    │
 13 │   return \`'\${escapeString(str).slice(1, -1}'\`;
────╯

  Plugin: vite:oxc
  File: /tmp/rw/knitwork/src/string.ts
 ❯ transformWithOxc node_modules/vitest/node_modules/vite/dist/node/chunks/node.js:7249:19

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯

 Test Files  2 failed (2)
`;
    const failure = (test: string) =>
      failureOf({
        test,
        file: "src/string.ts",
        line: 13,
        message: "[PARSE_ERROR] Expected `,` or `)` but found `}`",
      });
    expect(vitestParser.parse(output)).toEqual([
      failure("test/object.test.ts"),
      failure("test/string.test.ts"),
    ]);
  });

  it("gives a test whose name ends with a line break the error of the tests listed under it (cookie)", () => {
    const output = `
⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/stringify.spec.ts > stringify > should throw for invalid domain: example.com

 FAIL  src/stringify.spec.ts > stringify > should throw for invalid domain: my site.org
AssertionError: expected [Function] to throw an error
 ❯ src/stringify.spec.ts:113:67

 Test Files  1 failed (1)
`;
    expect(
      vitestParser.parse(output).map((failure) => [failure.test, failure.line, failure.message]),
    ).toEqual([
      [
        "stringify > should throw for invalid domain: example.com",
        113,
        "AssertionError: expected [Function] to throw an error",
      ],
      [
        "stringify > should throw for invalid domain: my site.org",
        113,
        "AssertionError: expected [Function] to throw an error",
      ],
    ]);
  });

  it("takes two short whole objects the message states over the diff's changed lines (fast-querystring)", () => {
    const output = `
⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/parse.test.ts > should decode key
AssertionError: expected { null: 'hello' } to deeply equal { 'invalid%key': 'hello' }

- Expected
+ Received

  Object {
-   "invalid%key": "hello",
+   "null": "hello",
  }

 ❯ test/parse.test.ts:43:10

 Test Files  1 failed (1)
`;
    expect(vitestParser.parse(output)[0]).toMatchObject({
      expected: "{ 'invalid%key': 'hello' }",
      received: "{ null: 'hello' }",
    });
  });

  it("keeps a diff's pair when the message's two objects read the same (purify's chai `{ Object (__value, _) }`)", () => {
    const output = `
 FAIL  src/Codec.test.ts > Codec > array > decode
AssertionError: expected { Object (__value, _) } to deeply equal { Object (__value, _) }

- Expected
+ Received

- "Problem with the value at index 0: Expected a number"
+ "Problem with the value at index 1: Expected a number"

 ❯ src/Codec.test.ts:263:40

 Test Files  1 failed (1)
`;
    expect(vitestParser.parse(output)[0]).toMatchObject({
      expected: '"Problem with the value at index 0: Expected a number"',
      received: '"Problem with the value at index 1: Expected a number"',
    });
  });

  it("leaves out received properties an objectContaining does not name (video-filename-parser)", () => {
    const output = `
 FAIL  test/filenameParse.spec.ts > parse tv show title "Its Always Sunny S14E04 720p"
AssertionError: expected { …(24) } to deeply equal ObjectContaining{…}

- Expected
+ Received

- ObjectContaining {
+ {
+   "airDate": null,
+   "audioChannels": undefined,
-   "resolution": "720P",
+   "resolution": "480P",
+   "year": null,
  }

 ❯ test/filenameParse.spec.ts:426:20

 Test Files  1 failed (1)
`;
    expect(vitestParser.parse(output)[0]).toMatchObject({
      expected: '"resolution": "720P",',
      received: '"resolution": "480P",',
    });
  });

  it("gives tests listed together above one error that error each (path-to-regexp)", () => {
    // Vitest 3 prints one FAIL header per test that failed with the same error, then the error.
    const output = `
 RUN  v3.2.7 /p

⎯⎯⎯⎯⎯⎯ Failed Tests 3 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/index.spec.ts > path-to-regexp > match '/:test{.:format}' with undefined > should match '/route'
 FAIL  src/index.spec.ts > path-to-regexp > match '/:foo{/test/:bar}' with undefined > should match '/route'
AssertionError: expected { path: '/route', params: { …(2) } } to deeply equal { path: '/route', …(1) }

- Expected
+ Received

  {
    "params": {
+     "format": "undefined",
      "test": "route",
    },
    "path": "/route",
  }

 ❯ src/index.spec.ts:266:27
    264|       it.each(tests)("should match $input", ({ input, expected }) => {
    265|         const fn = match(path, options);
    266|         expect(fn(input)).toEqual(expected);
       |                           ^

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/3]⎯

 FAIL  src/index.spec.ts > path-to-regexp > match '/{:pre}baz' with undefined > should match '/baz'
AssertionError: expected { path: '/baz', …(1) } to deeply equal { path: '/baz', …(1) }

- Expected
+ Received

  {
    "params": {
-     "pre": undefined,
+     "pre": "undefined",
    },
    "path": "/baz",
  }

 ❯ src/index.spec.ts:266:27

 Test Files  1 failed (1)
`;
    const shared = {
      file: "src/index.spec.ts",
      line: 266,
      expected: null,
      received: '"format": "undefined",',
      message:
        "AssertionError: expected { path: '/route', params: { …(2) } } to deeply equal { path: '/route', …(1) }",
    };
    expect(vitestParser.parse(output)).toEqual([
      failureOf({
        ...shared,
        test: "path-to-regexp > match '/:test{.:format}' with undefined > should match '/route'",
      }),
      failureOf({
        ...shared,
        test: "path-to-regexp > match '/:foo{/test/:bar}' with undefined > should match '/route'",
      }),
      failureOf({
        test: "path-to-regexp > match '/{:pre}baz' with undefined > should match '/baz'",
        file: "src/index.spec.ts",
        line: 266,
        expected: '"pre": undefined,',
        received: '"pre": "undefined",',
        message:
          "AssertionError: expected { path: '/baz', …(1) } to deeply equal { path: '/baz', …(1) }",
      }),
    ]);
  });
});
