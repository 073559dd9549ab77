import type { TestOutputParser } from "../feedback.js";
import { avaParser } from "./ava.js";
import { biomeParser } from "./biome.js";
import { cargoParser } from "./cargo.js";
import { eslintParser } from "./eslint.js";
import { goTestParser } from "./go-test.js";
import { jasmineParser } from "./jasmine.js";
import { jestParser } from "./jest.js";
import { junitParser } from "../reports/junit.js";
import { mochaParser } from "./mocha.js";
import { nodeTestParser } from "./node-test.js";
import { playwrightParser } from "./playwright.js";
import { pyrightParser } from "./pyright.js";
import { pytestParser } from "./pytest.js";
import { tapParser } from "./tap.js";
import { tscParser } from "./tsc.js";
import { uvuParser } from "./uvu.js";
import { vitestParser } from "./vitest.js";

/**
 * The per-runner parsers `testFeedback` tries, in order: the first whose `detect` accepts the
 * output (and finds failures) wins, so the most specific come first — a runner's own formats
 * before the generic TAP and JUnit readers that several runners share (node:test's TAP before
 * `tap`, Vitest's JUnit before `junit`). Add a runner's parser above the generic ones.
 */
export const builtinParsers: readonly TestOutputParser[] = [
  // JavaScript runners.
  jestParser,
  vitestParser,
  mochaParser,
  nodeTestParser,
  avaParser,
  uvuParser,
  jasmineParser,
  playwrightParser,
  // Python, Go and Rust runners; pytest before `junit`, which reads its `--junitxml` for it.
  pytestParser,
  goTestParser,
  cargoParser,
  // Linters and type checkers: their findings have no test name. After the test runners, whose
  // own output may quote a compiler's diagnostics (ts-jest's `● Test suite failed to run`).
  eslintParser,
  tscParser,
  biomeParser,
  pyrightParser,
  // Generic formats last: many runners emit them.
  tapParser,
  junitParser,
];

/** The built-in parser called `name` (`--runner NAME`), or undefined when there is none. */
export function parserByName(name: string): TestOutputParser | undefined {
  return builtinParsers.find((parser) => parser.name === name);
}
