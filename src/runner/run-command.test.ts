import { mkdtempSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { runCommand as inProcess, type CommandResult, type CommandSpec } from "./run-command.js";
import { StepLauncher } from "./step-launcher.js";
import { launcherArgs, requireBuild } from "./test-support/built-cli.js";
import { cleanUp, eventually, isAlive, pidFrom } from "./test-support/processes.js";

const dir = mkdtempSync(join(tmpdir(), "loopgate-run-command-"));
const base = {
  cwd: dir,
  env: { PATH: process.env.PATH ?? "" },
  timeoutMs: 10_000,
  outputLimit: 4096,
};

// Every case runs twice: in this process, and through the step launcher (the built CLI's), which
// `run` and `resume` spawn their steps with — the same behaviour either way.
requireBuild();
const launcher = new StepLauncher(launcherArgs());
afterAll(() => launcher.close());
const ways: [string, (spec: CommandSpec) => Promise<CommandResult>][] = [
  ["in this process", inProcess],
  ["through the step launcher", (spec) => launcher.run(spec)],
];

// Daemons' pid files are numbered across both ways: each way's are its own.
let count = 0;

describe.each(ways)("%s", (_, runCommand) => {
  describe("runCommand", () => {
    it("runs an argv array without a shell: metacharacters stay text", async () => {
      const result = await runCommand({
        ...base,
        command: ["echo", "$(touch pwned)", "`id`", "'\""],
      });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe("$(touch pwned) `id` '\"\n");
      expect(existsSync(join(dir, "pwned"))).toBe(false);
    });

    it("runs a shell string with sh -c, in cwd, with env, and reports the exit code", async () => {
      const result = await runCommand({
        ...base,
        command: 'echo "$GREETING" > out.txt; echo err >&2; exit 3',
        env: { ...base.env, GREETING: "hi" },
      });
      expect(result).toMatchObject({ exitCode: 3, timedOut: false, stdout: "", output: "err\n" });
      expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("hi\n");
    });

    it("kills the whole process group on timeout", async () => {
      const marker = join(dir, "survivor");
      const started = performance.now();
      const result = await runCommand({
        ...base,
        timeoutMs: 300,
        // The grandchild would write the marker after 2 s if it survived the group kill.
        command: `(sleep 2; touch ${marker}) & sleep 30`,
      });
      expect(result.timedOut).toBe(true);
      expect(result.output).toContain("timed out after 300 ms");
      expect(performance.now() - started).toBeLessThan(5_000);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(existsSync(marker)).toBe(false);
    });

    it("bounds the output of a step that prints hundreds of megabytes", async () => {
      const result = await runCommand({
        ...base,
        // 300 MB through a pipe takes seconds on a busy machine; this test is about the bound.
        timeoutMs: 60_000,
        command: "echo FIRST; head -c 300000000 /dev/zero | tr '\\0' x; echo; echo LAST",
      });
      expect(result.exitCode).toBe(0);
      expect(result.output.startsWith("FIRST")).toBe(true);
      expect(result.output.trimEnd().endsWith("LAST")).toBe(true);
      expect(result.output.length).toBeLessThan(5000);
    }, 90_000);

    it("reports a program that cannot start", async () => {
      const result = await runCommand({ ...base, command: ["/nonexistent/agent"] });
      expect(result.exitCode).toBeNull();
      expect(result.output).toContain("cannot run /nonexistent/agent");
    });
  });

  describe("runCommand and what a step leaves behind", () => {
    const daemons: number[] = [];
    afterEach(() => cleanUp(daemons.splice(0)));

    /** A shell line starting a daemon (`exec sleep 60`, its pid in a file), and that file. */
    function daemon(start: (script: string) => string): { line: string; pidFile: string } {
      count += 1;
      const pidFile = join(dir, `daemon-${count}.pid`);
      return { line: start(`echo $$ > ${pidFile}; exec sleep 60`), pidFile };
    }

    /** Runs the command, and returns its result, how long it took, and whether the daemon is dead. */
    async function run(command: string, pidFile: string, timeoutMs = 10_000) {
      const started = performance.now();
      const result = await runCommand({ ...base, command, timeoutMs });
      const tookMs = performance.now() - started;
      const pid = await pidFrom(pidFile);
      daemons.push(pid);
      return { result, tookMs, killed: await eventually(() => !isAlive(pid)) };
    }

    /** Waits in the step's shell until the daemon has written its pid. */
    const waitFor = (pidFile: string) => `while [ ! -s ${pidFile} ]; do sleep 0.05; done`;

    it("enforces the timeout when a descendant that left with setsid holds stdout", async () => {
      const { line, pidFile } = daemon((script) => `setsid sh -c '${script}' &`);
      const { result, tookMs, killed } = await run(`${line} sleep 60`, pidFile, 1_000);
      expect(result.timedOut).toBe(true);
      expect(tookMs).toBeLessThan(10_000);
      expect(killed).toBe(true);
    });

    it("does so when the step and its escaped descendant ignore SIGTERM", async () => {
      const { line, pidFile } = daemon(
        (script) => `trap '' TERM; setsid sh -c 'trap "" TERM; ${script}' &`,
      );
      const { result, tookMs, killed } = await run(`${line} sleep 60`, pidFile, 500);
      expect(result.timedOut).toBe(true);
      expect(tookMs).toBeLessThan(10_000);
      expect(killed).toBe(true);
    });

    it("returns once the step exits while a descendant that left with setsid holds stdout, and kills it", async () => {
      const { line, pidFile } = daemon((script) => `setsid sh -c '${script}' &`);
      const { result, tookMs, killed } = await run(
        `${line} ${waitFor(pidFile)}; echo done`,
        pidFile,
      );
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, output: "done\n" });
      expect(tookMs).toBeLessThan(10_000);
      expect(killed).toBe(true);
    });

    it("kills a descendant that left with setsid with its output sent elsewhere", async () => {
      const { line, pidFile } = daemon((script) => `setsid sh -c '${script}' > /dev/null 2>&1 &`);
      const { result, killed } = await run(`${line} ${waitFor(pidFile)}; echo done`, pidFile);
      expect(result).toMatchObject({ exitCode: 0, output: "done\n" });
      expect(killed).toBe(true);
    });

    it("kills a descendant that cleared its environment and left, found by the output it holds", async () => {
      // Gone from the step's session, without its token, its parent exited before a snapshot.
      const { line, pidFile } = daemon(
        (script) => `env -i PATH="$PATH" setsid sh -c '${script}' &`,
      );
      const { result, tookMs, killed } = await run(`${line} ${waitFor(pidFile)}`, pidFile);
      expect(result).toMatchObject({ exitCode: 0, output: "" });
      expect(tookMs).toBeLessThan(10_000);
      expect(killed).toBe(true);
    });

    it("kills a descendant that cleared its environment, left, and sent its output elsewhere, seen while its parent ran", async () => {
      // Nothing but a snapshot (taken at least every 500 ms) ties it to the step.
      const { line, pidFile } = daemon(
        (script) => `env -i PATH="$PATH" setsid sh -c '${script}' > /dev/null 2>&1 &`,
      );
      const { result, killed } = await run(`${line} ${waitFor(pidFile)}; sleep 0.6`, pidFile);
      expect(result).toMatchObject({ exitCode: 0, output: "" });
      expect(killed).toBe(true);
    });

    it("stops reading a short while after the step exited, whoever still holds its output", async () => {
      // Exits at once, possibly before loopgate could tell what its output is: then nothing finds
      // the holder, and reading stops after the grace instead of waiting 60 s for the pipe to close.
      const { line, pidFile } = daemon(
        (script) => `env -i PATH="$PATH" setsid sh -c '${script}' &`,
      );
      const started = performance.now();
      const result = await runCommand({ ...base, command: `${line} echo done` });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(result).toMatchObject({ exitCode: 0, stdout: "done\n" });
      // Killed before it could leave, or found by its output, or left running: then clean it up.
      if (await eventually(() => existsSync(pidFile), 1_000)) daemons.push(await pidFrom(pidFile));
    });

    it("kills what each of two steps running at once left behind, and only that", async () => {
      // The other step's leader is in each search, not read; its daemon is not the step's.
      const first = daemon((script) => `setsid sh -c '${script}' > /dev/null 2>&1 &`);
      const second = daemon((script) => `setsid sh -c '${script}' > /dev/null 2>&1 &`);
      const release = join(dir, `release-${count}`);
      const running = runCommand({
        ...base,
        command: `${second.line} while [ ! -e ${release} ]; do sleep 0.05; done; echo second`,
      });
      const secondDaemon = await pidFrom(second.pidFile);
      daemons.push(secondDaemon);
      const { result, killed } = await run(
        `${first.line} ${waitFor(first.pidFile)}`,
        first.pidFile,
      );
      expect(result).toMatchObject({ exitCode: 0 });
      expect(killed).toBe(true);
      expect(isAlive(secondDaemon)).toBe(true);
      writeFileSync(release, "");
      expect(await running).toMatchObject({ exitCode: 0, output: "second\n" });
      expect(await eventually(() => !isAlive(secondDaemon))).toBe(true);
    });

    it("gives every step run a token of its own in its environment", async () => {
      const token = async () =>
        (await runCommand({ ...base, command: 'echo "$LOOPGATE_STEP_TOKEN"' })).stdout.trim();
      const [first, second] = [await token(), await token()];
      expect(first).toMatch(/^[0-9a-f-]{36}$/);
      expect(second).not.toBe(first);
    });
  });
});
