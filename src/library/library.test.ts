import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { decide, defineCondition, fired, held, InputError, run, verdict } from "../index.js";
import type { DecideInput, RunProgressEvent, VerdictInput } from "../index.js";
import { builtinConditions } from "../core/conditions/builtin-conditions.js";
import { camelKey } from "../wire/codec.js";
import { errorLine, runMain } from "../cli/test-support/run-main.js";
import { fixtureProject } from "../runner/test-support/fixture-project.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The library as a JavaScript caller meets it, through src/index.ts: plain objects are checked
// by the CLI's own validators, and the mistakes they catch read the same.

/** The InputError a call throws, or a description of what it did instead. */
function thrown(call: () => unknown): string {
  try {
    return `returned ${JSON.stringify(call())}`;
  } catch (error) {
    return InputError.isInputError(error) ? error.message : `threw ${String(error)}`;
  }
}

/** What the CLI says about the same document written the wire's way. */
async function cliSays(command: "verdict" | "decide", document: unknown): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-library-"));
  const file = join(dir, "input.yaml");
  writeFileSync(file, stringify(document));
  const said = await runMain([command, file]);
  expect(said.code).toBe(2);
  return errorLine(said).replace(/^error: /, "");
}

const check = {
  taskId: "t",
  currentIteration: 1,
  testResult: { status: "fail", output: "FAIL x.test.ts\nExpected: 1\nReceived: 2\n" },
  reviewResult: { status: "approve", feedback: "" },
};

describe("library input is validated like the CLI's", () => {
  it("refuses snake_case keys instead of running uncapped", () => {
    const input = { counters: { iteration: 3 }, policy: { max_iterations: 3 } };
    expect(thrown(() => verdict(input as unknown as VerdictInput))).toBe(
      'policy: unknown key "max_iterations" (did you mean "maxIterations"?)',
    );
  });

  it("names a misspelled key as the CLI does, in the caller's spelling", async () => {
    const library = thrown(() =>
      verdict({
        counters: { iteration: 1 },
        policy: { maxIterations: 3, budgetCapp: 5 },
      } as unknown as VerdictInput),
    );
    expect(library).toBe('policy: unknown key "budgetCapp" (did you mean "budgetCap"?)');
    const cli = await cliSays("verdict", {
      counters: { iteration: 1 },
      policy: { max_iterations: 3, budget_capp: 5 },
    });
    expect(cli).toBe('policy: unknown key "budget_capp" (did you mean "budget_cap"?)');
  });

  it("refuses decide without stopConditions, naming the section", () => {
    const input = { iterationControl: { maxIterations: 3 }, iterationCheck: check };
    expect(thrown(() => decide(input as unknown as DecideInput))).toBe(
      "stopConditions: is required but missing",
    );
  });

  it("says what the CLI says about a wrong value, field named in camelCase", async () => {
    const bad = { ...check, testResult: { status: "passed", output: "" } };
    const library = thrown(() =>
      decide({
        iterationControl: { maxIterations: 3 },
        stopConditions: {},
        iterationCheck: bad,
      } as unknown as DecideInput),
    );
    const cli = await cliSays("decide", {
      iteration_check: {
        task_id: "t",
        current_iteration: 1,
        test_result: { status: "passed", output: "" },
        review_result: { status: "approve", feedback: "" },
      },
    });
    expect(library).toBe(
      `${camelKey(cli.split(": ")[0] ?? "")}: ${cli.split(": ").slice(1).join(": ")}`,
    );
    expect(library).toBe(
      'iterationCheck.testResult.status: expected one of pass, fail, got "passed" (a string)',
    );
  });

  it("refuses what is not an object, never with a TypeError", () => {
    expect(thrown(() => verdict(null as unknown as VerdictInput))).toBe(
      "document: expected a mapping with counters and policy, got null",
    );
    expect(thrown(() => decide(undefined as unknown as DecideInput))).toBe(
      "document: expected a mapping with iterationCheck, got nothing",
    );
  });

  it("decides from a valid plain object, iterationControl's missing fields defaulted", () => {
    const decision = decide({
      iterationControl: { maxIterations: 3 },
      stopConditions: { budgetCap: null },
      iterationCheck: check,
    } as unknown as DecideInput);
    expect(decision.action).toBe("retry");
  });

  it("hands custom conditions the rest of their input, and still checks counters and policy", () => {
    const late = defineCondition(
      "LATE",
      5,
      (input: VerdictInput & { readonly clock: { readonly hour: number } }) =>
        input.clock.hour >= 22 ? fired("too late") : held("early"),
    );
    const input = { counters: { iteration: 1 }, policy: { maxIterations: 3 }, clock: { hour: 23 } };
    expect(verdict(input, [...builtinConditions, late]).condition).toBe("LATE");
    expect(thrown(() => verdict({ ...input, policy: { maxIteration: 3 } } as never, [late]))).toBe(
      'policy: unknown key "maxIteration" (did you mean "maxIterations"?)',
    );
    expect(thrown(() => verdict(input as never))).toBe('document: unknown key "clock"');
  });
});

describe("run", () => {
  it("runs a task file to its end with answers given, reporting progress as events", async () => {
    const fixture = fixtureProject({ passFrom: 4 });
    const events: RunProgressEvent[] = [];
    const result = await run(fixture.taskFile, {
      db: fixture.db,
      answers: { "task-1": { text: "try harder" } },
      onProgress: (event) => events.push(event),
    });
    expect(result.status).toBe("finished");
    expect(result.tasks).toEqual([
      expect.objectContaining({ taskId: "task-1", outcome: "proceeded", iterations: 4 }),
    ]);
    const decisions = events.flatMap((event) =>
      event.type === "recorded" && event.event.type === "decision-recorded"
        ? [event.event.decision.action]
        : [],
    );
    expect(decisions).toEqual(["retry", "retry", "escalate", "proceed"]);
    expect(events.filter((event) => event.type === "step-starting")).toHaveLength(12);
  });

  it("leaves a task without an answer paused, for loopgate answer and resume", async () => {
    const fixture = fixtureProject({ passFrom: 4 });
    const result = await run(fixture.taskFile, { db: fixture.db });
    expect(result.status).toBe("awaiting-answer");
    expect(result.paused.map((effect) => [effect.taskId, effect.decision.reason])).toEqual([
      ["task-1", "MAX_ITERATIONS"],
    ]);
  });

  it("validates its answers like an --answers file", async () => {
    const fixture = fixtureProject();
    await expect(
      run(fixture.taskFile, { db: fixture.db, answers: { "task-1": { optoin: 2 } } }),
    ).rejects.toThrow("answers.task-1: expected an answer or a list of answers, got a mapping");
  });
});
