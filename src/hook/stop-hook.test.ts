import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Journal } from "../runner/journal.js";
import { Leases } from "../runner/lease.js";
import { loadRun } from "../runner/load-run.js";
import { failingRun } from "../runner/test-support/journaled-run.js";
import { writeVersion1Journal } from "../runner/test-support/version-1-journal.js";
import { decodeHookConfig, type HookConfig } from "./hook-config.js";
import { blocksInARow, stopHook, type HookReply } from "./stop-hook.js";

const journals: Journal[] = [];
afterEach(() => {
  for (const journal of journals.splice(0)) journal.close();
});

/** A session whose test passes once `done.txt` exists, with `config` over the document. */
function session(
  config: (decoded: HookConfig) => HookConfig = (decoded) => decoded,
  before: (db: string) => void = () => undefined,
  review?: string,
) {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-stop-hook-"));
  before(join(dir, "journal.db"));
  const journal = Journal.open(join(dir, "journal.db"));
  journals.push(journal);
  const configDocument = {
    iteration_control: { max_iterations: 3 },
    steps: {
      test: { command: "test -f done.txt || { echo 'FAIL: no done.txt'; exit 1; }" },
      ...(review === undefined ? {} : { review: { command: review } }),
    },
  };
  const call = (): Promise<HookReply> =>
    stopHook({
      journal,
      input: {
        sessionId: "s",
        cwd: dir,
        hookEventName: "Stop",
        stopHookActive: false,
        transcriptPath: null,
        lastAssistantMessage: "done",
      },
      configFile: join(dir, "loopgate-hook.yaml"),
      configDocument,
      config: config(decodeHookConfig(configDocument, 8)),
    });
  return { dir, journal, call };
}

const kind = (reply: HookReply) =>
  reply.kind === "block" ? "block" : reply.message === null ? "stop" : "note";

describe("stopHook", () => {
  it("lets the agent stop at the block cap instead of blocking past it, and counts afresh after the agent's own turn", async () => {
    // A cap the config check would refuse (3 attempts need 2 blocks): the guard still holds.
    const s = session((decoded) => ({ ...decoded, blockCap: 1 }));
    expect(kind(await s.call())).toBe("block");
    const capped = await s.call();
    expect(capped.kind).toBe("stop");
    expect(capped.kind === "stop" ? capped.message : "").toMatch(
      /needs attempt 3, but the agent allows 1 block in a row[\s\S]*Test failed: FAIL: no done.txt/,
    );
    const { entries } = loadRun(s.journal, 1);
    expect(blocksInARow(entries)).toBe(1);
    // The agent went on by itself (the human told it to): its turn is attempt 3, checked.
    writeFileSync(join(s.dir, "done.txt"), "");
    expect(kind(await s.call())).toBe("stop");
    const after = loadRun(s.journal, 1);
    expect(after.state.tasks[0]?.phase).toMatchObject({ name: "done", outcome: "proceeded" });
    expect(blocksInARow(after.entries)).toBe(0);
  });

  it("keeps a session apart from the runs and other sessions of the same journal", async () => {
    const a = session();
    const runId = a.journal.createRun("/x/tasks.yaml", "/x", {
      steps: { generate: { command: ["true"] } },
      tasks: [{ id: "s", prompt: "p" }],
    });
    expect(kind(await a.call())).toBe("block");
    expect(a.journal.runIds()).toEqual([runId, runId + 1]);
    expect(loadRun(a.journal, runId).entries).toEqual([]);
    expect(loadRun(a.journal, runId + 1).state.tasks[0]?.iteration).toBe(2);
  });

  it("joins a journal of schema version 1, its old run left as it was", async () => {
    const old = failingRun({ attempts: 2, outputBytes: 256 });
    const s = session(undefined, (db) => writeVersion1Journal(db, old.document, old.events));
    expect(kind(await s.call())).toBe("block");
    expect(s.journal.runIds()).toEqual([1, 2]);
    expect(loadRun(s.journal, 1).entries.map((entry) => entry.event)).toEqual(old.events);
    expect(loadRun(s.journal, 2).state.tasks.map((task) => task.id)).toEqual(["s"]);
  });

  it("asks a human at once when the review is pending, and hands the answer over next", async () => {
    const s = session(undefined, undefined, `echo '{"status": "pending"}'`);
    writeFileSync(join(s.dir, "done.txt"), "");
    const paused = await s.call();
    expect(paused.kind === "stop" ? paused.message : "").toMatch(
      /awaits your answer \(run 1, attempt 1, REVIEW_PENDING\)[\s\S]*--text "…" \| --approve/,
    );
    expect(loadRun(s.journal, 1).state.tasks[0]?.polls).toBe(0);
  });

  it("lets the stop through, unchecked, while another call holds the session", async () => {
    const s = session();
    expect(kind(await s.call())).toBe("block");
    const other = new Leases(s.journal);
    expect(other.acquire("run:1").ok).toBe(true);
    try {
      const reply = await s.call();
      expect(reply.kind === "stop" ? reply.message : "").toMatch(
        /session run 1 is being checked by pid \d+ .*; this stop goes through unchecked/,
      );
    } finally {
      other.releaseAll();
    }
    expect(kind(await s.call())).toBe("block");
  });
});
