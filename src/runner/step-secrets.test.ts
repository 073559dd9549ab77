import { readFileSync, writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "./test-support/built-cli.js";

beforeAll(requireBuild);

const TOKEN = "ghp_4bX9qLm2Rt7Wz0Kc5Vn8Yp3Hd6Js1Fa2Ge4Q";

/**
 * A project whose steps see the token whole or say they did not: the generate step notes in
 * `seen` whether its `env` and its command line hold it, the test step passes only from the
 * second attempt and only with it. The first attempt pauses for a human (max_iterations 1).
 */
function project() {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-secrets-"));
  const taskFile = join(dir, "loopgate.yaml");
  const db = join(dir, ".loopgate", "journal.db");
  const document = {
    iteration_control: { max_iterations: 1 },
    steps: {
      generate: {
        // Compared by length and by an 8-character head, which no redaction would keep apart.
        command: `if [ "\${#API_TOKEN}" -eq 40 ] && [ "\${API_TOKEN#ghp_4bX9}" != "$API_TOKEN" ] && [ "$(printf %s ${TOKEN} | wc -c)" -eq 40 ]; then echo ok; else echo bad; fi >> seen`,
        env: { API_TOKEN: TOKEN },
      },
      test: {
        command: `[ "$LOOPGATE_ITERATION" -ge 2 ] && [ "$API_TOKEN" = "$EXPECTED" ] && [ "$EXPECTED" = "${TOKEN}" ]`,
        env: { API_TOKEN: TOKEN, EXPECTED: TOKEN, NODE_ENV: "test" },
      },
    },
    tasks: [{ id: "t", prompt: `use the token ${TOKEN} to call the API` }],
  };
  writeFileSync(taskFile, stringify(document));
  return { dir, taskFile, db };
}

describe("a task file's secrets", () => {
  it("reach the steps whole while the journal and the prompt keep them redacted", () => {
    const { dir, taskFile, db } = project();
    const paused = cli(["run", taskFile, "--db", db, "--quiet"]);
    expect(paused.status).toBe(3);
    const answered = cli(["answer", "t", "--text", "go on", "--db", db]);
    expect(answered.status).toBe(0);
    const resumed = cli(["resume", "--db", db, "--quiet"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toMatch(/^t\s+proceeded/m);
    // Once in the session that ran the task file, once in the one that read it again.
    expect(readFileSync(join(dir, "seen"), "utf8")).toBe("ok\nok\n");
    const journal = readFileSync(db).toString("latin1") + readWal(db);
    expect(journal).not.toContain(TOKEN.slice(4, 20));
    expect(journal).toContain("[REDACTED:github_token]");
    const prompt = readFileSync(join(dir, ".loopgate", "runs", "1", "t", "1", "prompt.md"), "utf8");
    expect(prompt).toBe("use the token [REDACTED:github_token] to call the API");
  });

  it("stop a resume, with one line, when the task file changed since the run started", () => {
    const { taskFile, db } = project();
    expect(cli(["run", taskFile, "--db", db, "--quiet"]).status).toBe(3);
    expect(cli(["answer", "t", "--text", "go on", "--db", db]).status).toBe(0);
    writeFileSync(
      taskFile,
      readFileSync(taskFile, "utf8").replace("NODE_ENV: test", "NODE_ENV: prod"),
    );
    const resumed = cli(["resume", "--db", db, "--quiet"]);
    expect(resumed.status).toBe(2);
    expect(resumed.stderr).toMatch(
      /^error: .*loopgate\.yaml: run 1's steps hold secrets the journal keeps only redacted, .*\n$/,
    );
  });
});

/** The journal's write-ahead log, if any, as text to search. */
function readWal(db: string): string {
  try {
    return readFileSync(`${db}-wal`).toString("latin1");
  } catch {
    return "";
  }
}
