import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bootId, readStat } from "./proc-table.js";
import {
  killOrphanedStep,
  killStepsOfDeadRunner,
  STEP_OWNER_VARIABLE,
  STEP_TOKEN_VARIABLE,
} from "./step-processes.js";
import { cleanUp, eventually, isAlive, pidFrom, runningAs } from "./test-support/processes.js";

const dir = mkdtempSync(join(tmpdir(), "loopgate-step-processes-"));
const started = { taskId: "a", iteration: 1, step: "generate" } as const;
const protocol = { LOOPGATE_TASK_ID: "a", LOOPGATE_ITERATION: "1", LOOPGATE_STEP: "generate" };

describe("killOrphanedStep", () => {
  const spawned: number[] = [];
  afterEach(() => cleanUp(spawned.splice(0)));

  /** Starts a shell line as a step would run (its own session), with `env` added. */
  function start(line: string, env: Record<string, string> = {}): number {
    const child = spawn("sh", ["-c", line], {
      detached: true,
      stdio: "ignore",
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    spawned.push(child.pid!);
    return child.pid!;
  }

  /** What a runner journals with the step's pid. */
  const identity = (pid: number, token: string) => ({
    pid,
    startTime: readStat(pid)!.startTime,
    bootId: bootId()!,
    token,
  });

  it("kills the step while its pid has the journaled start time, and what left its session", async () => {
    const daemonFile = join(dir, "daemon-1.pid");
    const pid = start(`setsid sh -c 'echo $$ > ${daemonFile}; exec sleep 60' & exec sleep 60`, {
      [STEP_TOKEN_VARIABLE]: "token-1",
    });
    const daemon = await pidFrom(daemonFile);
    spawned.push(daemon);
    const outcome = killOrphanedStep(identity(pid, "token-1"), started);
    expect(outcome).toEqual({ kind: "killed", pids: [pid, daemon].sort((a, b) => a - b) });
    expect(await eventually(() => !isAlive(pid) && !isAlive(daemon))).toBe(true);
  });

  it("leaves a process alone whose pid was journaled with another start time: the pid came round again", async () => {
    const pid = start("exec sleep 60");
    const reused = { ...identity(pid, "token-2"), startTime: readStat(pid)!.startTime - 1 };
    expect(killOrphanedStep(reused, started)).toEqual({ kind: "not-the-step" });
    expect(
      killOrphanedStep({ ...identity(pid, "token-2"), bootId: "another-boot" }, started),
    ).toEqual({
      kind: "other-boot",
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isAlive(pid)).toBe(true);
  });

  it("finds the descendants by their token once the step's own process has exited", async () => {
    const daemonFile = join(dir, "daemon-3.pid");
    const leader = spawn(
      "sh",
      ["-c", `setsid sh -c 'echo $$ > ${daemonFile}; exec sleep 60' > /dev/null 2>&1 &`],
      {
        detached: true,
        stdio: "ignore",
        env: { PATH: process.env.PATH ?? "", [STEP_TOKEN_VARIABLE]: "token-3" },
      },
    );
    const meta = identity(leader.pid!, "token-3");
    await once(leader, "exit");
    const daemon = await pidFrom(daemonFile);
    spawned.push(daemon);
    expect(killOrphanedStep(meta, started)).toEqual({ kind: "killed", pids: [daemon] });
    expect(await eventually(() => !isAlive(daemon))).toBe(true);
    expect(killOrphanedStep(meta, started)).toEqual({ kind: "gone" });
  });

  it("kills a pid from an older journal (no start time) only if its environment names the step", async () => {
    const stranger = start("exec sleep 60");
    const otherAttempt = start("exec sleep 60", { ...protocol, LOOPGATE_ITERATION: "2" });
    const step = start("exec sleep 60", protocol);
    // Read before its execs are done, a step's environment may not be its own yet: a CI run
    // under load read the step as `not-the-step`.
    for (const pid of [stranger, otherAttempt, step])
      expect(await runningAs(pid, "sleep")).toBe(true);
    const older = (pid: number) => ({ pid, host: "this-host" });
    expect(killOrphanedStep(older(stranger), started)).toEqual({ kind: "not-the-step" });
    expect(killOrphanedStep(older(otherAttempt), started)).toEqual({ kind: "not-the-step" });
    expect(killOrphanedStep(older(step), started)).toEqual({ kind: "killed", pids: [step] });
    expect(await eventually(() => !isAlive(step))).toBe(true);
    expect(isAlive(stranger) && isAlive(otherAttempt)).toBe(true);
  });
});

describe("killStepsOfDeadRunner", () => {
  const spawned: number[] = [];
  afterEach(() => cleanUp(spawned.splice(0)));

  /** Starts a shell line in its own session, as a runner whose lease owner is `owner` would. */
  function startAs(owner: string, line: string): number {
    const child = spawn("sh", ["-c", line], {
      detached: true,
      stdio: "ignore",
      env: { PATH: process.env.PATH ?? "", [STEP_OWNER_VARIABLE]: owner },
    });
    spawned.push(child.pid!);
    return child.pid!;
  }

  /** Starts an untagged process in its own session. */
  function start(line: string): number {
    const child = spawn("sh", ["-c", line], { detached: true, stdio: "ignore" });
    spawned.push(child.pid!);
    return child.pid!;
  }

  it("kills every step the owner started, what left their session, and what cleared its environment in it", async () => {
    const daemonFile = join(dir, "owned-daemon.pid");
    const clearedFile = join(dir, "owned-cleared.pid");
    const step = startAs(
      "owner-a",
      [
        `setsid sh -c 'echo $$ > ${daemonFile}; exec sleep 60' &`,
        `env -i /bin/sh -c 'echo $$ > ${clearedFile}; exec sleep 60' &`,
        "exec sleep 60",
      ].join("\n"),
    );
    const second = startAs("owner-a", "exec sleep 60");
    // Another runner's step, whose owner only begins with the dead one's, and a stranger.
    const other = startAs("owner-a2", "exec sleep 60");
    const stranger = start("exec sleep 60");
    const daemon = await pidFrom(daemonFile);
    const cleared = await pidFrom(clearedFile);
    spawned.push(daemon, cleared, stranger);
    const killed = killStepsOfDeadRunner("owner-a");
    expect(killed).toEqual([step, second, daemon, cleared].sort((a, b) => a - b));
    expect(await eventually(() => !killed.some(isAlive))).toBe(true);
    expect(isAlive(other) && isAlive(stranger)).toBe(true);
    expect(killStepsOfDeadRunner("owner-a")).toEqual([]);
  });
});
