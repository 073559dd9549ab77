// Outputs captured from real runners (fixtures/runners regenerates them; test-fixtures are older captures).
import cargoAssertions from "../../fixtures/runners/cargo/assertions/output.txt?raw";
import cargoNoisy from "../../fixtures/runners/cargo/noisy-log/output.txt?raw";
import cargoPassing from "../../fixtures/runners/cargo/all-passing/output.txt?raw";
import goAssertions from "../../fixtures/runners/go/assertions/output.txt?raw";
import goNoisy from "../../fixtures/runners/go/noisy-log/output.txt?raw";
import goPassing from "../../fixtures/runners/go/all-passing/output.txt?raw";
import jestAssertions from "../../fixtures/runners/jest/assertions/output.txt?raw";
import jestNoisy from "../../fixtures/runners/jest/noisy-log/output.txt?raw";
import jestPassing from "../../fixtures/runners/jest/all-passing/output.txt?raw";
import mochaAssertions from "../../fixtures/runners/mocha/assertions/output.txt?raw";
import mochaNoisy from "../../fixtures/runners/mocha/noisy-log/output.txt?raw";
import mochaPassing from "../../fixtures/runners/mocha/all-passing/output.txt?raw";
import nodeTestAssertions from "../../fixtures/runners/node-test/assertions/output.txt?raw";
import nodeTestNoisy from "../../fixtures/runners/node-test/noisy-log/output.txt?raw";
import nodeTestPassing from "../../fixtures/runners/node-test/all-passing/output.txt?raw";
import pytestNoisy from "../../fixtures/runners/pytest/noisy-log/output.txt?raw";
import pytestPassing from "../../fixtures/runners/pytest/all-passing/output.txt?raw";
import pytestSeveralFiles from "../../fixtures/runners/pytest/several-files/output.txt?raw";
import vitestAssertions from "../../fixtures/runners/vitest/assertions/output.txt?raw";
import vitestNoisy from "../../fixtures/runners/vitest/noisy-log/output.txt?raw";
import vitestPassing from "../../fixtures/runners/vitest/all-passing/output.txt?raw";
import cargoCompileError from "../../fixtures/runners/cargo/compile-error/output.txt?raw";
import goTimeout from "../../fixtures/runners/go/timeout/output.txt?raw";
import jestTimeout from "../../fixtures/runners/jest/timeout/output.txt?raw";
import mochaTimeout from "../../fixtures/runners/mocha/timeout/output.txt?raw";
import nodeTestTimeout from "../../fixtures/runners/node-test/timeout/output.txt?raw";
import pytestAssertions from "../../fixtures/runners/pytest/assertions/output.txt?raw";
import pytestCollectionError from "../../fixtures/runners/pytest/collection-error/output.txt?raw";
import vitestTimeout from "../../fixtures/runners/vitest/timeout/output.txt?raw";
import cargoBasic from "../core/feedback/test-fixtures/cargo-basic.txt?raw";
import nodeTestSpec from "../core/feedback/test-fixtures/node-test-spec.txt?raw";
import pytestBasic from "../core/feedback/test-fixtures/pytest-basic.txt?raw";

/** One runner's real outputs: failing runs, most failures first, and a passing run. */
export interface RunnerOutputs {
  readonly runner: string;
  /** Failing outputs whose failing-test counts strictly fall, as a fix-by-fix run would show. */
  readonly falling: readonly string[];
  /** A failing output with one failure. */
  readonly oneFailure: string;
  /** Another failing output, failing differently from `oneFailure`. */
  readonly otherFailure: string;
  /** A failing output where one value is printed in two types (`123` vs `"123"`), when the runner has one. */
  readonly typeMismatch: string | null;
  readonly passing: string;
}

/** Real outputs of the runners loopgate reads, grouped so tests can build multi-attempt histories. */
export const RUNNER_OUTPUTS: readonly RunnerOutputs[] = [
  {
    runner: "jest",
    falling: [jestAssertions, jestNoisy],
    oneFailure: jestNoisy,
    otherFailure: jestTimeout,
    typeMismatch: jestAssertions,
    passing: jestPassing,
  },
  {
    runner: "vitest",
    falling: [vitestAssertions, vitestNoisy],
    oneFailure: vitestNoisy,
    otherFailure: vitestTimeout,
    typeMismatch: vitestAssertions,
    passing: vitestPassing,
  },
  {
    runner: "mocha",
    falling: [mochaAssertions, mochaNoisy],
    oneFailure: mochaNoisy,
    otherFailure: mochaTimeout,
    typeMismatch: mochaAssertions,
    passing: mochaPassing,
  },
  {
    runner: "node:test",
    falling: [nodeTestAssertions, nodeTestSpec, nodeTestNoisy],
    oneFailure: nodeTestNoisy,
    otherFailure: nodeTestTimeout,
    typeMismatch: nodeTestAssertions,
    passing: nodeTestPassing,
  },
  {
    runner: "pytest",
    falling: [pytestBasic, pytestSeveralFiles, pytestNoisy],
    oneFailure: pytestNoisy,
    otherFailure: pytestCollectionError,
    typeMismatch: pytestAssertions,
    passing: pytestPassing,
  },
  {
    runner: "cargo",
    falling: [cargoAssertions, cargoBasic, cargoNoisy],
    oneFailure: cargoNoisy,
    otherFailure: cargoCompileError,
    typeMismatch: null,
    passing: cargoPassing,
  },
  {
    runner: "go",
    falling: [goAssertions, goNoisy],
    oneFailure: goNoisy,
    otherFailure: goTimeout,
    typeMismatch: null,
    passing: goPassing,
  },
];
