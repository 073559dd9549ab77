import js from "@eslint/js";
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "node_modules/",
      "coverage/",
      "fixtures/",
      "examples/**/project/",
      ".loopgate/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  regexp.configs["flat/recommended"],
  {
    rules: {
      // Every regular expression must run in linear time: loopgate parses untrusted, huge logs.
      // `potential` also reports what may backtrack depending on how the regex is used (nested
      // quantifiers such as `(a+)+` or `(\w+\s?)+` included); moves are checked for patterns
      // built into others and for sticky ones too, which scanners try at every position. Some
      // quadratic searches escape both rules (`\beyJ[\w-]+\.` on "eyJa-eyJa-…"):
      // src/regex-linear-time.test.ts times every regex of the product on such shapes.
      "regexp/no-super-linear-backtracking": ["error", { report: "potential" }],
      "regexp/no-super-linear-move": [
        "error",
        { report: "potential", ignorePartial: false, ignoreSticky: false },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["src/core/**/*.ts"],
    rules: {
      // The core is pure: no clock, no I/O, no randomness, nothing from outside core.
      "no-restricted-imports": [
        "error",
        { patterns: ["node:*", "fs", "path", "child_process", "yaml", "valibot"] },
      ],
      "no-restricted-globals": ["error", "Date", "process", "setTimeout", "setInterval", "fetch"],
      "no-restricted-properties": [
        "error",
        { object: "Math", property: "random" },
        { object: "Date", property: "now" },
        { object: "performance", property: "now" },
      ],
    },
  },
  {
    // Tests read small, trusted text; the linear-time rules guard the code that reads user logs.
    files: ["**/*.test.ts"],
    rules: {
      "regexp/no-super-linear-move": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
