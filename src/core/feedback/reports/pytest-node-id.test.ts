import { describe, expect, it } from "vitest";
import { pytestNodeId } from "./pytest-node-id.js";

describe("pytestNodeId", () => {
  it.each([
    ["tests.test_calc", "test_add", null, "tests/test_calc.py::test_add"],
    ["tests.test_calc.TestAdd", "test_x[1-2]", null, "tests/test_calc.py::TestAdd::test_x[1-2]"],
    // A doctest's name is the object's dotted path; a package's doctest is in its __init__.
    [
      "boltons.iterutils",
      "boltons.iterutils.chunked",
      null,
      "boltons/iterutils.py::boltons.iterutils.chunked",
    ],
    ["src.pkg.__init__", "pkg", null, "src/pkg/__init__.py::pkg"],
    ["docs.introduction.rst", "introduction.rst", null, "docs/introduction.rst::introduction.rst"],
    // xunit1 gives the file, which decides where the module ends.
    [
      "tests.Legacy.test_a.TestX",
      "test_y",
      "tests/Legacy/test_a.py",
      "tests/Legacy/test_a.py::TestX::test_y",
    ],
  ])("%s + %s → the node id pytest prints", (classname, name, file, id) => {
    expect(pytestNodeId(classname, name, file)).toBe(id);
  });

  it("gives none without a module path, or for a file the classname is not under", () => {
    expect(pytestNodeId("", "test_a", null)).toBeNull();
    expect(pytestNodeId("TestX", "test_a", null)).toBeNull();
    expect(pytestNodeId("tests.test_b", "test_a", "tests/test_a.py")).toBeNull();
  });
});
