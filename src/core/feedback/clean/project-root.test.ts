import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { projectRoot, relativeTo, withoutProjectRoot } from "./project-root.js";

describe("relativeTo", () => {
  it("writes paths and file URLs under the directory relative to it", () => {
    const text = [
      "    at Object.<anonymous> (/home/ana/shop/src/cart.test.js:5:3)",
      '"uri": "file:///home/ana/shop/src/cart.js"',
      "/home/ana/shop/src/a b.js:2 and file:///home/ana/shop/src/a%20b.js",
    ].join("\n");
    expect(relativeTo("/home/ana/shop", text)).toBe(
      [
        "    at Object.<anonymous> (src/cart.test.js:5:3)",
        '"uri": "src/cart.js"',
        "src/a b.js:2 and src/a%20b.js",
      ].join("\n"),
    );
  });

  it("leaves other paths alone, a sibling directory with the same prefix included", () => {
    const text = "/home/ana/shop-old/x.js /home/ana/shop /usr/lib/node/y.js";
    expect(relativeTo("/home/ana/shop", text)).toBe(text);
    expect(relativeTo("/home/ana/shop/", "/home/ana/shop/x.js")).toBe("x.js");
  });

  it("never touches text for the root or a relative directory", () => {
    fc.assert(
      fc.property(fc.constantFrom("/", "//", "", "shop", "./shop"), fc.string(), (dir, text) => {
        expect(relativeTo(dir, text)).toBe(text);
      }),
    );
  });
});

describe("projectRoot", () => {
  it("takes the directory a runner states", () => {
    expect(
      projectRoot("platform linux -- Python 3.11.2\nrootdir: /tmp/rw/toolz\ncollected 3"),
    ).toBe("/tmp/rw/toolz");
    expect(projectRoot(" RUN  v4.1.2 /home/ana/shop/\n")).toBe("/home/ana/shop");
    expect(projectRoot("   Compiling semver v1.0.23 (/tmp/rw/semver)\n")).toBe("/tmp/rw/semver");
  });

  it("cuts before the first source or test directory, even for one failing file", () => {
    expect(projectRoot("    at Object.<anonymous> (/tmp/rw/ms/test/index.js:12:3)")).toBe(
      "/tmp/rw/ms",
    );
    expect(projectRoot("/usr/src/app/src/a.js:3\n/usr/src/app/src/b.js:4")).toBe("/usr/src/app");
    expect(projectRoot("/app/src/a.js:3")).toBe("/app");
  });

  it("takes the directory two project directories share when none is marked", () => {
    expect(projectRoot("/home/ana/shop/cart.js:1\n/home/ana/shop/util/x.js:2")).toBe(
      "/home/ana/shop",
    );
  });

  it("takes the directory whose node_modules the dependencies are in when the project's files sit at its top (dot-prop)", () => {
    const text = [
      "at getProperty (file:///work/heldout15/dot-prop/index.js:281:18)",
      "at file:///work/heldout15/dot-prop/test.js:60:7",
      "at Test.callFn (file:///work/heldout15/dot-prop/node_modules/ava/lib/test.js:525:26)",
    ].join("\n");
    expect(projectRoot(text)).toBe("/work/heldout15/dot-prop");
    expect(withoutProjectRoot(text)).toContain("at getProperty (index.js:281:18)");
    // Dependencies of another directory than the project's own files say nothing of it.
    expect(projectRoot("/work/a/index.js:1\n/work/b/node_modules/ava/lib/test.js:2")).toBeNull();
  });

  it("does not count dependencies' or toolchains' paths, and never takes a shared top level", () => {
    const text = [
      "/tmp/rw/ms/test/a.js:1",
      "/tmp/rw/ms/node_modules/mocha/lib/runner.js:2",
      "/usr/lib/python3/dist-packages/_pytest/main.py:3",
    ].join("\n");
    expect(projectRoot(text)).toBe("/tmp/rw/ms");
    expect(projectRoot("/tmp/a.js:1\n/home/b.js:2")).toBeNull();
    expect(projectRoot("/home/ana/x.js:1")).toBeNull();
    expect(projectRoot("no paths here, only a/b/c.js:3")).toBeNull();
  });

  it("writes the project's paths relative to it, file URLs included, others as printed", () => {
    const text = "/tmp/rw/ms/test/a.js:1 file:///tmp/rw/ms/src/b.js /tmp/other/c.js";
    expect(withoutProjectRoot(text)).toBe("test/a.js:1 src/b.js /tmp/other/c.js");
  });

  it("reads a path-heavy line in linear time: a long run of segments is one match", () => {
    const line = `/${"a/".repeat(200_000)}x.js`;
    expect(projectRoot(line)).toBeNull();
  });
});
