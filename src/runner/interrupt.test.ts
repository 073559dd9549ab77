import { once } from "node:events";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { Journal } from "./journal.js";
import { cli, requireBuild, startCli } from "./test-support/built-cli.js";
import { fixtureProject } from "./test-support/fixture-project.js";
import { cleanUp, eventually, isAlive, pidFrom, stillAlive } from "./test-support/processes.js";

// The runner stopped during a long step: by SIGTERM or SIGINT it stops at once and takes the
// step with it; by SIGKILL it cannot, and the next resume kills what is left. Either way nothing
// of the cut-off step is journaled, the run resumes, and the step runs again — never beside what
// is left of its first run.

beforeAll(requireBuild);

/**
 * A project whose generate step, the first time, writes its pid, starts a daemon that leaves its
 * session and ignores SIGTERM (its pid written too), and sleeps a minute; run again, it passes,
 * noting in `overlapped` the pids of the first run still alive (not zombies) as it starts.
 */
function project() {
  const fixture = fixtureProject({ passFrom: 1 });
  const document = parse(readFileSync(fixture.taskFile, "utf8")) as {
    steps: Record<string, { command: unknown }>;
  };
  document.steps.generate = {
    command: [
      "if [ -f again ]; then",
      "  for p in $(cat step.pid daemon.pid); do",
      "    if grep -qs '^State:[[:space:]]*[^Z[:space:]]' /proc/$p/status; then echo $p >> overlapped; fi",
      "  done",
      "  exit 0",
      "fi",
      "touch again",
      `setsid sh -c 'trap "" TERM; echo $$ > daemon.pid; exec sleep 60' > /dev/null 2>&1 &`,
      "echo $$ > step.pid",
      "exec sleep 60",
    ].join("\n"),
  };
  writeFileSync(fixture.taskFile, stringify(document));
  return {
    ...fixture,
    pids: async () => [
      await pidFrom(join(fixture.dir, "step.pid")),
      await pidFrom(join(fixture.dir, "daemon.pid")),
    ],
    overlapped: () => existsSync(join(fixture.dir, "overlapped")),
  };
}

/** How many times each step started and finished in the run, in order. */
function steps(db: string): string[] {
  // Read-only: it is read while the runner writes it too.
  const journal = Journal.open(db, { readonly: true });
  try {
    return journal
      .events(1)
      .flatMap((entry) =>
        entry.event.type === "step-started" || entry.event.type === "step-finished"
          ? [`${entry.event.type} ${entry.event.effectId}`]
          : [],
      );
  } finally {
    journal.close();
  }
}

const generate = JSON.stringify(["task-1", 1, "generate", 0]);

describe("the runner stopped during a step (built CLI)", () => {
  const leftovers: number[] = [];
  afterEach(() => cleanUp(leftovers.splice(0)));

  // Ctrl-C: SIGINT to the terminal's foreground process group, the runner and its step
  // launcher; the step, in a session of its own, is not in it.
  it.each([
    ["SIGTERM", 143, "runner"],
    ["SIGINT", 130, "runner"],
    ["SIGINT", 130, "group"],
  ] as const)(
    "stops at once on %s (exit %i) sent to the %s, killing the step and the daemon it started; resume runs the step again",
    async (signal, code, to) => {
      const fixture = project();
      // At a concurrency above 1 the runner's steps are its step launcher's.
      const places = to === "group" ? ["--concurrency", "2"] : [];
      const args = ["run", fixture.taskFile, "--db", fixture.db, "--quiet", ...places];
      const runner = startCli(args, fixture.dir, "pipe", {}, to === "group");
      let stderr = "";
      runner.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const pids = await fixture.pids();
      leftovers.push(...pids);
      const signalled = performance.now();
      if (to === "runner") runner.kill(signal);
      else if (runner.pid !== undefined) process.kill(-runner.pid, signal);
      else throw new Error("the runner did not start");
      const [exitCode] = (await once(runner, "exit")) as [number | null];
      expect(performance.now() - signalled).toBeLessThan(10_000);
      expect(exitCode).toBe(code);
      expect(stderr).toBe(`loopgate: stopped by ${signal}; loopgate resume carries the run on\n`);
      // The step got SIGTERM; the daemon ignores it, and was killed once the step had exited.
      expect(await eventually(() => !pids.some(isAlive)), `alive: ${stillAlive(pids)}`).toBe(true);
      expect(steps(fixture.db)).toEqual([`step-started ${generate}`]);
      const resumed = cli(["resume", "--db", fixture.db, "--quiet"], {}, fixture.dir);
      expect(resumed.stderr).toBe("");
      expect(resumed.status).toBe(0);
      expect(steps(fixture.db).slice(0, 3)).toEqual([
        `step-started ${generate}`,
        `step-started ${generate}`,
        `step-finished ${generate}`,
      ]);
    },
    60_000,
  );

  it("after a SIGKILL mid-step, resume kills the step and the daemon it started, then runs it again", async () => {
    const fixture = project();
    const runner = startCli(["run", fixture.taskFile, "--db", fixture.db, "--quiet"], fixture.dir);
    const pids = await fixture.pids();
    leftovers.push(...pids);
    // The step runs from its spawn and its start is journaled just after: on a busy machine it
    // can start its daemon and write both pids first. Mid-step is once its start is journaled
    // (a kill before that is the next test's).
    expect(await eventually(() => steps(fixture.db).length === 1)).toBe(true);
    runner.kill("SIGKILL");
    await once(runner, "exit");
    expect(pids.every(isAlive)).toBe(true);
    const resumed = cli(["resume", "--db", fixture.db, "--quiet"], {}, fixture.dir);
    expect(resumed.status).toBe(0);
    expect(await eventually(() => !pids.some(isAlive)), `alive: ${stillAlive(pids)}`).toBe(true);
    expect(steps(fixture.db).slice(0, 3)).toEqual([
      `step-started ${generate}`,
      `step-started ${generate}`,
      `step-finished ${generate}`,
    ]);
    expect(fixture.overlapped()).toBe(false);
  }, 60_000);

  it("after a SIGKILL between the step's spawn and its journaled start, resume kills the step and its daemon, then runs it once", async () => {
    const fixture = project();
    // At a concurrency of 2, through the step launcher, which outlives the runner a moment.
    const runner = startCli(
      ["run", fixture.taskFile, "--db", fixture.db, "--quiet", "--concurrency", "2"],
      fixture.dir,
      "ignore",
      { LOOPGATE_CRASH_AFTER_SPAWNS: "1" },
    );
    await once(runner, "exit");
    const pids = await fixture.pids();
    leftovers.push(...pids);
    expect(pids.every(isAlive)).toBe(true);
    // Nothing in the journal names the step: only its lease owner's tag in its environment does.
    expect(steps(fixture.db)).toEqual([]);
    const resumed = cli(["resume", "--db", fixture.db, "--quiet"], {}, fixture.dir);
    expect(resumed.status).toBe(0);
    expect(await eventually(() => !pids.some(isAlive)), `alive: ${stillAlive(pids)}`).toBe(true);
    expect(steps(fixture.db).slice(0, 2)).toEqual([
      `step-started ${generate}`,
      `step-finished ${generate}`,
    ]);
    expect(fixture.overlapped()).toBe(false);
  }, 60_000);
});
