import type { TestOutputParser } from "../feedback.js";
import { avaParser } from "./ava.js";
import { biomeParser } from "./biome.js";
import { ctrfParser } from "../reports/ctrf.js";
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
import { rspecParser } from "./rspec.js";
import { minitestParser } from "./minitest.js";
import { testUnitParser } from "./test-unit.js";
import { phpunitParser } from "./phpunit.js";
import { junit5Parser } from "./junit5.js";
import { gtestParser } from "./gtest.js";
import { flake8Parser } from "./flake8.js";
import { mypyParser } from "./mypy.js";
import { ruffParser } from "./ruff.js";
import { rustcParser } from "./rustc.js";
import { unittestParser } from "./unittest.js";
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
  unittestParser,
  goTestParser,
  cargoParser,
  rspecParser,
  minitestParser,
  testUnitParser,
  phpunitParser,
  junit5Parser,
  gtestParser,
  // Type checkers, linters and compilers: their findings have no test. After the test runners,
  // whose own output may quote a compiler's diagnostics (ts-jest's `● Test suite failed to run`);
  // rustc after cargo, which reads a failed `cargo test` build itself; ruff before flake8, whose
  // lines it shares.
  eslintParser,
  tscParser,
  biomeParser,
  rustcParser,
  mypyParser,
  pyrightParser,
  ruffParser,
  flake8Parser,
  // Generic formats last: many runners emit them.
  ctrfParser,
  tapParser,
  junitParser,
];

/** The built-in parser called `name` (`--runner NAME`), or undefined when there is none. */
export function parserByName(name: string): TestOutputParser | undefined {
  return builtinParsers.find((parser) => parser.name === name);
}
