import Database from "better-sqlite3";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import {
  leakedPiece,
  SECRET_CORPUS,
  type PlantedSecret,
} from "./core/redaction/test-support/secret-corpus.js";
import { cli, requireBuild } from "./runner/test-support/built-cli.js";

// Every secret of the corpus planted in every place text enters loopgate — a task's prompt, a
// step's env, its output and diff, a failing test's log, a review, an answer's text, note and
// author, a verdict's and a decision's documents — then every sink searched for any piece of
// any of them: what the CLI prints, the journal's bytes, the files handed to steps.

beforeAll(requireBuild);

/** A secret only the `env` of a step holds, under a name that says what it is. */
const ENV_SECRET: PlantedSecret = {
  name: "a step's env value named API_TOKEN",
  text: "Zq8vN3kR7tW1yB5mX9cL2pF6hJ4dG0sA",
  secret: "Zq8vN3kR7tW1yB5mX9cL2pF6hJ4dG0sA",
};
const PLANTED: readonly PlantedSecret[] = [...SECRET_CORPUS, ENV_SECRET];

/** Each corpus line after a canary, so a test can see the sink printed the line at all. */
const lines = (prefix: string): string[] =>
  SECRET_CORPUS.map((planted, index) => `CANARY-${prefix}${index} ${planted.text}`);

/** The planted secrets `output` holds a piece of, with the piece, for the failure message. */
function leaks(output: string): string[] {
  return PLANTED.flatMap((planted) => {
    const piece = leakedPiece(output, planted);
    return piece === null ? [] : [`${planted.name}: ${JSON.stringify(piece)}`];
  });
}

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, "latin1") }));
}

const STEPS = {
  // The step's output and the diff it reports: both journaled, the diff shown on escalation.
  "generate.mjs": `import { appendFileSync, readFileSync } from "node:fs";
const texts = JSON.parse(readFileSync(new URL("./texts.json", import.meta.url), "utf8"));
console.log(texts.map((text, i) => "CANARY-G" + i + " " + text).join("\\n"));
const diff = "--- a/src/x.ts\\n+++ b/src/x.ts\\n" + texts.map((text) => "+" + text).join("\\n");
appendFileSync(process.env.LOOPGATE_REPORT_FILE, JSON.stringify({ spend: 0.01, diff }) + "\\n");
`,
  // A failing test run whose failures quote each secret.
  "test.mjs": `import { readFileSync } from "node:fs";
const texts = JSON.parse(readFileSync(new URL("./texts.json", import.meta.url), "utf8"));
for (const [i, text] of texts.entries()) {
  console.log("FAIL src/secrets.test.ts\\n  ● secrets › case " + i + "\\n\\n    Error: CANARY-T" + i + " " + text + "\\n\\n      at Object.<anonymous> (src/secrets.test.ts:" + (i + 1) + ":5)\\n");
}
process.exit(1);
`,
  // A review that rejects, quoting each secret in its feedback.
  "review.mjs": `import { readFileSync } from "node:fs";
const texts = JSON.parse(readFileSync(new URL("./texts.json", import.meta.url), "utf8"));
const feedback = texts.map((text, i) => "src/x.ts:" + (i + 1) + " issue (blocking): CANARY-R" + i + " " + text).join("\\n");
console.log(JSON.stringify({ status: "reject", feedback, score: 0.2 }));
`,
};

describe("no secret reaches any sink", () => {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-sinks-"));
  const db = join(dir, ".loopgate", "journal.db");
  const printed: Record<string, string> = {};
  const run = (name: string, args: readonly string[], codes: readonly number[] = [0]) => {
    const result = cli([...args, "--db", db], {}, dir);
    printed[name] = result.stdout + result.stderr;
    expect(codes, `${name}: ${result.stderr}`).toContain(result.status);
    return result;
  };

  beforeAll(() => {
    writeFileSync(join(dir, "texts.json"), JSON.stringify(SECRET_CORPUS.map((p) => p.text)));
    for (const [name, text] of Object.entries(STEPS)) writeFileSync(join(dir, name), text);
    const env = Object.fromEntries(SECRET_CORPUS.map((p, index) => [`SAMPLE_${index}`, p.text]));
    writeFileSync(
      join(dir, "loopgate.yaml"),
      stringify({
        iteration_control: { max_iterations: 2, escalation_includes_diff: true },
        // Each pause's notification is written where the scan of the run's files finds it.
        on_pause: { command: ["node", "-e", "0"] },
        steps: {
          generate: { command: ["node", "generate.mjs"] },
          test: { command: ["node", "test.mjs"], env: { ...env, API_TOKEN: ENV_SECRET.text } },
          review: { command: ["node", "review.mjs"] },
        },
        tasks: [
          { id: "approved", prompt: lines("P").join("\n") },
          { id: "guided", prompt: lines("Q").join("\n") },
        ],
      }),
    );
    const all = SECRET_CORPUS.map((p) => p.text).join("\n");
    run("run", ["run", "loopgate.yaml", "--concurrency", "2"], [3]);
    run("answer --approve", ["answer", "approved", "--approve", "--note", all, "--by", all]);
    run("answer --text", ["answer", "guided", "--text", all, "--by", all]);
    run("resume", ["resume"], [3]);
    run("status", ["status"]);
    run("status --json", ["status", "--json"]);
    run("history", ["history"]);
    run("history --json", ["history", "--json"]);
    run("history TASK", ["history", "guided"]);
    for (const [task, iteration] of [
      ["approved", "2"],
      ["guided", "2"],
      ["guided", "4"],
    ]) {
      run(`explain ${task} ${iteration}`, ["explain", task ?? "", iteration ?? ""]);
      run(`explain ${task} ${iteration} --json`, [
        "explain",
        task ?? "",
        iteration ?? "",
        "--json",
      ]);
    }
    run("export", ["export", "--jsonl"]);
  }, 120_000);

  it("in what run, resume, answer, status, history, explain and export print", () => {
    const leaked = Object.entries(printed).flatMap(([name, text]) =>
      leaks(text).map((leak) => `${name}: ${leak}`),
    );
    expect(leaked).toEqual([]);
    // The texts did reach those sinks: a canary stands next to each secret.
    expect(printed.export).toContain("CANARY-G70");
    expect(printed["history --json"]).toContain("CANARY-R0");
    expect(printed.run).toMatch(/\[REDACTED:/);
  });

  it("in the journal's bytes, its write-ahead log checkpointed", () => {
    const journal = new Database(db);
    journal.pragma("wal_checkpoint(TRUNCATE)");
    journal.close();
    const bytes = ["", "-wal", "-shm"].map((suffix) => {
      try {
        return readFileSync(db + suffix).toString("latin1");
      } catch {
        return "";
      }
    });
    expect(bytes[0]).toContain("CANARY-T70");
    expect(leaks(bytes.join("\n"))).toEqual([]);
  });

  it("in the files handed to steps: prompts, feedback, answers", () => {
    const files = filesUnder(join(dir, ".loopgate", "runs"))
      // A report file is the step's own writing, which loopgate reads, never writes.
      .filter((file) => !file.path.endsWith(".report.jsonl"));
    const names = files.map((file) => file.path.slice(dir.length));
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/answer\.txt$/)]));
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/feedback\.txt$/)]));
    expect(names).toEqual(
      expect.arrayContaining([expect.stringMatching(/notifications\/pause-guided-\d+\.json$/)]),
    );
    const leaked = files.flatMap((file) => leaks(file.text).map((leak) => `${file.path}: ${leak}`));
    expect(leaked).toEqual([]);
  });

  it("in feedback on a test log and on a review", () => {
    const log = join(dir, "test.log");
    const review = join(dir, "review.txt");
    const failures = SECRET_CORPUS.map(
      (p, i) =>
        `FAIL src/s.test.ts\n  ● case ${i}\n\n    Error: ${p.text}\n\n      at f (src/s.test.ts:${i + 1}:5)\n`,
    );
    writeFileSync(log, failures.join("\n"));
    writeFileSync(
      review,
      lines("V")
        .map((line, i) => `src/x.ts:${i + 1} issue: ${line}`)
        .join("\n"),
    );
    for (const [name, args] of [
      ["feedback", ["feedback", log, "--json", "--max-length", "100000"]],
      [
        "feedback --kind review",
        ["feedback", review, "--kind", "review", "--max-length", "100000"],
      ],
    ] as const) {
      const result = cli(args, {}, dir);
      expect(result.status).toBe(0);
      expect(leaks(result.stdout + result.stderr), name).toEqual([]);
      expect(result.stdout).toMatch(/\[REDACTED:/);
    }
  });

  it("in what decide and verdict print, approval note and author included", () => {
    const all = SECRET_CORPUS.map((p) => p.text).join("\n");
    const approval = { decision: "approve", by: all, note: all };
    const decide = join(dir, "decide.json");
    writeFileSync(
      decide,
      JSON.stringify({
        iteration_control: { max_iterations: 3, escalation_includes_diff: true },
        iteration_check: {
          task_id: "t",
          current_iteration: 3,
          max_iterations: 3,
          test_result: { status: "fail", output: lines("D").join("\n") },
          review_result: { status: "reject", feedback: all },
          diff: all,
        },
      }),
    );
    const approved = join(dir, "approved.json");
    writeFileSync(
      approved,
      JSON.stringify({
        iteration_control: { max_iterations: 3 },
        iteration_check: {
          task_id: "t",
          current_iteration: 1,
          max_iterations: 3,
          approval,
          test_result: { status: "pass", output: "" },
          review_result: { status: "approve", feedback: "" },
        },
      }),
    );
    const verdict = join(dir, "verdict.json");
    writeFileSync(
      verdict,
      JSON.stringify({
        counters: { iteration: 1, approval, signatures: SECRET_CORPUS.map((p) => p.text) },
        policy: { max_iterations: 3 },
      }),
    );
    for (const file of [decide, approved, verdict]) {
      const command = file === verdict ? "verdict" : "decide";
      const result = cli([command, file, "--json"], {}, dir);
      expect(result.status, result.stderr).toBe(0);
      expect(leaks(result.stdout + result.stderr), file).toEqual([]);
    }
  });
});
