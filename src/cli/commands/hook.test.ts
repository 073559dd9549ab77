import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cli, requireBuild } from "../../runner/test-support/built-cli.js";

// `loopgate hook stop` driven as Claude Code and Codex drive a Stop hook: the documented JSON on
// stdin, the reply read from stdout and the exit code.

beforeAll(requireBuild);

/** A project whose test passes once `done.txt` exists and whose review approves when it says "ok". */
function project(config: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-hook-"));
  const configFile = join(dir, "loopgate-hook.yaml");
  writeFileSync(
    configFile,
    stringify({
      iteration_control: { max_iterations: 3 },
      steps: {
        test: {
          command: 'test -f done.txt || { echo "FAIL: done.txt is missing"; exit 1; }',
        },
        review: {
          command: [
            "sh",
            "-c",
            'if grep -q ok done.txt; then echo \'{"status": "approve"}\'; else echo \'{"status": "reject", "feedback": "done.txt must say ok"}\'; fi',
          ],
        },
      },
      ...config,
    }),
  );
  const db = join(dir, "journal", "journal.db");
  /** One Stop-hook call as the agent makes it, from the project directory. */
  const stop = (
    fields: Record<string, unknown> = {},
    env: NodeJS.ProcessEnv = {},
    args: readonly string[] = [],
  ) =>
    cli(
      ["hook", "stop", "--config", configFile, "--db", db, ...args],
      { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "", ...env },
      dir,
      JSON.stringify({
        session_id: "3f0c2d9e-1b7a-4c55-9e0f-7a1d2c3b4a5e",
        transcript_path: join(dir, "transcript.jsonl"),
        cwd: dir,
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: "Done: the change is in.",
        permission_mode: "default",
        ...fields,
      }),
    );
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
  return { dir, db, configFile, stop, write };
}

const SESSION = "3f0c2d9e-1b7a-4c55-9e0f-7a1d2c3b4a5e";

/** The JSON the hook printed, or null for nothing. */
function reply(stdout: string): Record<string, unknown> | null {
  return stdout === "" ? null : (JSON.parse(stdout) as Record<string, unknown>);
}

describe("loopgate hook stop", () => {
  it("blocks with the test's feedback, then lets the agent stop once the checks pass", () => {
    const p = project();
    const first = p.stop();
    expect(first.status).toBe(0);
    expect(reply(first.stdout)).toEqual({
      decision: "block",
      reason: expect.stringContaining("done.txt is missing") as unknown,
    });
    p.write("done.txt", "nothing yet\n");
    const second = p.stop({ stop_hook_active: true });
    expect(reply(second.stdout)).toEqual({
      decision: "block",
      reason: expect.stringContaining("done.txt must say ok") as unknown,
    });
    p.write("done.txt", "ok\n");
    const third = p.stop({ stop_hook_active: true });
    expect(third.status).toBe(0);
    expect(third.stdout).toBe("");

    const status = JSON.parse(cli(["status", "--db", p.db, "--json"]).stdout) as {
      runs: { status: string; task_file: string; tasks: unknown[] }[];
    };
    expect(status.runs).toMatchObject([
      {
        status: "finished",
        task_file: p.configFile,
        tasks: [
          { task_id: SESSION, outcome: "proceeded", iterations: 3, reason: "VALIDATION_PASSED" },
        ],
      },
    ]);
    const history = cli(["history", SESSION, "--db", p.db]).stdout;
    expect(history).toContain("#1/3 test: fail");
    expect(history).toContain("#2/3 review: reject");
    expect(history).toContain("#3/3 proceed (VALIDATION_PASSED)");
    // The agent's own words are its attempt's output, as journaled.
    const events = cli(["export", "--jsonl", "--db", p.db])
      .stdout.trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { type: string; outcome?: { step: string; output?: string } },
      );
    const turns = events.filter((event) => event.outcome?.step === "generate");
    expect(turns.map((event) => event.outcome?.output)).toEqual(
      Array(3).fill("Done: the change is in."),
    );

    // The same session stopping again later is a new request: checked afresh, in a new run.
    const again = p.stop();
    expect(again.stdout).toBe("");
    expect(cli(["status", "--db", p.db]).stdout).toMatch(/^2\s.*finished/m);
  });

  it("escalates with the question and the exact answer command, and the answer reaches the agent", () => {
    const p = project({ iteration_control: { max_iterations: 2 } });
    expect(reply(p.stop().stdout)).toMatchObject({ decision: "block" });
    const paused = p.stop({ stop_hook_active: true });
    expect(paused.status).toBe(0);
    const message = reply(paused.stdout)?.systemMessage as string;
    expect(Object.keys(reply(paused.stdout) ?? {})).toEqual(["systemMessage"]);
    expect(message).toContain(`${SESSION} awaits your answer (run 1, attempt 2, MAX_ITERATIONS)`);
    expect(message).toContain("1. Continue with guidance");
    expect(paused.stderr).toContain(message);
    const command = /^ {2}(loopgate answer .*)$/m.exec(message)?.[1];
    expect(command).toBe(
      `loopgate answer ${SESSION} --db ${p.db} --option N | --text "…" | --approve | --abort`,
    );

    // Stopping again before anyone answers asks again and journals nothing.
    const before = cli(["export", "--jsonl", "--db", p.db]).stdout;
    expect(reply(p.stop().stdout)?.systemMessage).toBe(message);
    expect(cli(["export", "--jsonl", "--db", p.db]).stdout).toBe(before);

    const status = JSON.parse(cli(["status", "--db", p.db, "--json"]).stdout) as unknown;
    expect(status).toMatchObject({
      runs: [{ status: "awaiting-answer", awaiting: { task_id: SESSION, iteration: 2 } }],
    });
    const explain = cli(["explain", SESSION, "2", "--db", p.db]);
    expect(explain.stdout).toMatch(/MAX_ITERATIONS\s+FIRED\s+iteration 2 reached max_iterations 2/);
    const resumed = cli(["resume", "--db", p.db]);
    expect(resumed.status).toBe(2);
    expect(resumed.stderr).toContain("run 1 is an agent's Stop-hook session");

    // The printed command, as a human would type it from anywhere.
    const words = (command ?? "").split(" ").slice(1, 5);
    const answered = cli([...words, "--text", "write done.txt saying ok"], {}, tmpdir());
    expect(answered.status).toBe(0);
    expect(answered.stdout).toContain("its next stop hands it this answer");

    const handover = p.stop();
    const guidance = reply(handover.stdout);
    expect(guidance).toMatchObject({ decision: "block" });
    expect(guidance?.reason).toContain("Guidance: write done.txt saying ok");
    p.write("done.txt", "ok\n");
    const done = p.stop({ stop_hook_active: true });
    expect(done.stdout).toBe("");
    const history = cli(["history", SESSION, "--db", p.db]).stdout;
    expect(history).toContain("answered: guidance: write done.txt saying ok");
    expect(history).toMatch(/#3\/4 proceed \(VALIDATION_PASSED\)/);
  });

  it("lets the agent stop when the human's answer is to abort", () => {
    const p = project({ iteration_control: { max_iterations: 1 } });
    expect(reply(p.stop().stdout)).toHaveProperty("systemMessage");
    expect(cli(["answer", SESSION, "--abort", "--db", p.db]).status).toBe(0);
    const stopped = p.stop();
    expect(stopped.status).toBe(0);
    expect(reply(stopped.stdout)?.systemMessage).toContain(`${SESSION} was aborted`);
    expect(cli(["status", "--db", p.db]).stdout).toContain(`${SESSION}:aborted`);
  });

  it("counts its own blocks: never more in a row than the agent's cap, whatever stop_hook_active says", () => {
    const p = project({ iteration_control: { max_iterations: 3 } });
    const cap = { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "2" };
    const replies = [1, 2, 3].map(() => reply(p.stop({ stop_hook_active: false }, cap).stdout));
    expect(replies.map((r) => (r?.decision === "block" ? "block" : "stop"))).toEqual([
      "block",
      "block",
      "stop",
    ]);

    // Attempts that would need more blocks in a row than the cap allows are refused up front.
    const tooMany = project({ iteration_control: { max_iterations: 4 } });
    const refused = tooMany.stop({}, cap);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      `error: ${tooMany.configFile}: iteration_control.max_iterations: 4 attempts need 3 consecutive blocks, over the block cap of 2; at most 3\n`,
    );
    const above = project({ block_cap: 9 }).stop();
    expect(above.stderr).toMatch(/^error: \S+: block_cap: 9 is above the agent's own cap of 8 /);
    // A lower cap of its own is loopgate's to set.
    const lower = project({
      block_cap: 1,
      iteration_control: { max_iterations: 2 },
      on_answer: { extra_iterations: 1 },
    });
    expect(reply(lower.stop().stdout)).toMatchObject({ decision: "block" });
    expect(reply(lower.stop().stdout)).toHaveProperty("systemMessage");
  });

  it("fails with exit code 1 and one error line, never 2 (which would block the agent)", () => {
    const p = project();
    const cases: [string, ReturnType<typeof p.stop>][] = [
      [
        "stdin",
        cli(["hook", "stop", "--config", p.configFile, "--db", p.db], {}, p.dir, "not json {"),
      ],
      ["session_id", p.stop({ session_id: 7 })],
      ["hook_event_name", p.stop({ hook_event_name: "PreToolUse" })],
      ["config", p.stop({}, {}, ["--config", join(p.dir, "missing.yaml")])],
      ["option", p.stop({}, {}, ["--confg", "x"])],
      ["cap variable", p.stop({}, { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "lots" })],
    ];
    for (const [what, result] of cases) {
      expect(result.status, what).toBe(1);
      expect(result.stdout, what).toBe("");
      expect(result.stderr, what).toMatch(/^error: [^\n]+\n$/);
    }
    p.write("loopgate-hook.yaml", "steps: {test: {command: 'true'}}\nstop_condition: {}\n");
    const bad = p.stop();
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe(
      `error: ${p.configFile}: document: unknown key "stop_condition" (did you mean "stop_conditions"?)\n`,
    );
    expect(p.stop({ session_id: "" }).stderr).toBe(
      'error: stdin: session_id: expected a non-empty string, got "" (a string)\n',
    );
  });
});
