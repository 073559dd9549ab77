import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itemPathNames, shortPathNames } from "./path-names.js";

const segment = fc.constantFrom("src", "lib", "a", "b", "core", "app.ts", "b.ts", "x.py");
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/"));

describe("shortPathNames", () => {
  it("names each path by its base name when no other path has it, else whole", () => {
    const names = shortPathNames(["studio/core/parser.py", "studio/routes/app.py", "lib/app.py"]);
    expect([...names.values()]).toEqual(["parser.py", "studio/routes/app.py", "lib/app.py"]);
    // held-out-27's match-sorter: `__tests__/index.ts` is no path under the root.
    const tests = shortPathNames(["src/__tests__/index.ts", "src/index.ts"]);
    expect(tests.get("src/__tests__/index.ts")).toBe("src/__tests__/index.ts");
  });

  it("keeps a path whole when it is the ending of another", () => {
    expect(shortPathNames(["a.py", "src/a.py"]).get("a.py")).toBe("a.py");
    expect(shortPathNames(["a.py", "src/a.py"]).get("src/a.py")).toBe("src/a.py");
  });

  it("gives each path its whole self or an ending of its own that names no other path", () => {
    fc.assert(
      fc.property(fc.array(path, { maxLength: 8 }), (paths) => {
        const names = shortPathNames(paths);
        for (const [whole, name] of names) {
          expect(whole === name || whole.endsWith(`/${name}`)).toBe(true);
          if (name === whole) continue;
          for (const other of names.keys()) {
            if (other !== whole) expect(other === name || other.endsWith(`/${name}`)).toBe(false);
          }
        }
      }),
    );
  });
});

describe("itemPathNames", () => {
  it("writes … after the same file, the short name for a file named before, else the path", () => {
    const paths = ["src/a.ts", "src/a.ts", "src/b.ts", null, "src/a.ts"];
    const names = itemPathNames(paths, shortPathNames(["src/a.ts", "src/b.ts"]));
    expect(names).toEqual(["src/a.ts", "…", "src/b.ts", null, "a.ts"]);
  });

  it("names every file whole the first time it comes", () => {
    fc.assert(
      fc.property(fc.array(fc.option(path), { maxLength: 10 }), (paths) => {
        const names = itemPathNames(
          paths,
          shortPathNames(paths.filter((entry): entry is string => entry !== null)),
        );
        paths.forEach((entry, index) => {
          if (entry !== null && paths.indexOf(entry) === index) expect(names[index]).toBe(entry);
        });
      }),
    );
  });
});
