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
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
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
