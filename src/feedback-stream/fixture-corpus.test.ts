import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { factRecall, type FailureFact } from "../../bench/lib/fact-recall.mjs";
import { testFeedback } from "../core/feedback/test-feedback.js";
import { logFeedback, openLog } from "./log-feedback.js";

const runners = fileURLToPath(new URL("../../fixtures/runners/", import.meta.url));

/** Every `output*.txt` of the real runners' fixtures with the case's expected facts. */
function outputs(): { name: string; file: string; facts: FailureFact[] }[] {
  if (!existsSync(runners)) return [];
  return readdirSync(runners).flatMap((runner) =>
    readdirSync(join(runners, runner)).flatMap((name) => {
      const dir = join(runners, runner, name);
      const expected = join(dir, "expected.json");
      if (!existsSync(expected)) return [];
      const facts = JSON.parse(readFileSync(expected, "utf8")) as FailureFact[];
      return readdirSync(dir)
        .filter((file) => /^output.*\.txt$/.test(file))
        .map((file) => ({ name: `${runner}/${name}/${file}`, file: join(dir, file), facts }));
    }),
  );
}

const text = (feedback: { summary: string; actionableItems: readonly string[] }) =>
  [feedback.summary, ...feedback.actionableItems].join("\n");

describe("streamed feedback on the real runners' outputs", () => {
  const cases = outputs();

  it("finds the fixture corpus", () => {
    expect(cases.length).toBeGreaterThan(10);
  });

  it.each(cases.map((entry) => [entry.name, entry] as const))(
    "%s: recalls at least the facts the whole log gives",
    async (_name, { file, facts }) => {
      const { feedback } = await logFeedback(openLog(file), { kind: "test", maxLength: 500 });
      const whole = testFeedback(readFileSync(file, "utf8"), { maxLength: 500 });
      expect(factRecall(text(feedback), facts)).toBeGreaterThanOrEqual(
        factRecall(text(whole), facts),
      );
    },
  );
});
