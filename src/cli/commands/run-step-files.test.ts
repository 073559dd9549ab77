import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runFilesDir } from "../../runner/journal-location.js";
import { cli, requireBuild } from "../../runner/test-support/built-cli.js";

beforeAll(requireBuild);

describe("loopgate run: step files and NO_PROGRESS over attempts", () => {
  it("hands each step the attempt's files as loopgate wrote them, and stops a task repeating itself", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopgate-step-files-cli-"));
    const file = join(dir, "tasks.json");
    const db = join(dir, "journal.db");
    writeFileSync(
      file,
      JSON.stringify({
        iteration_control: { max_iterations: 5 },
        stop_conditions: { no_progress: { window: 2 } },
        steps: {
          // The agent scribbles over its prompt; the test step must still read loopgate's. It
          // reports its tokens: only a step that reports leaves a report file.
          generate: {
            command:
              'echo scribbled > "$LOOPGATE_PROMPT_FILE"; echo \'{"tokens": 1}\' >> "$LOOPGATE_REPORT_FILE"',
          },
          test: {
            command:
              'cat "$LOOPGATE_PROMPT_FILE" > "$LOOPGATE_TASK_DIR/seen-$LOOPGATE_ITERATION"; [ "$LOOPGATE_ITERATION" -ge 2 ]',
          },
          review: { command: ["/bin/echo", '{"status": "approve"}'] },
        },
        tasks: [
          { id: "edits", prompt: "Write it" },
          // The same failure twice: NO_PROGRESS reads both attempts' signatures.
          {
            id: "stuck",
            prompt: "Never",
            steps: { test: { command: "echo 'FAIL same'; exit 1" } },
          },
        ],
      }),
    );
    const run = cli(["run", file, "--db", db]);
    expect(run.stderr).toContain("stuck #2/5 escalate (NO_PROGRESS)");
    expect(run.status).toBe(3);
    expect(run.stdout).toMatch(/^edits\s+proceeded\s+2\s/m);
    const taskDir = join(runFilesDir(db, 1), "edits");
    for (const attempt of ["1", "2"]) {
      expect(readFileSync(join(taskDir, `seen-${attempt}`), "utf8")).toBe("Write it");
    }
    expect(readdirSync(join(taskDir, "1")).sort()).toEqual([
      "generate-0.report.jsonl",
      "prompt.md",
    ]);
    expect(readdirSync(join(taskDir, "2")).sort()).toEqual([
      "feedback.json",
      "feedback.txt",
      "generate-0.report.jsonl",
      "prompt.md",
    ]);
  });
});
