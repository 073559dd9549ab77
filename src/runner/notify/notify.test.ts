import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { cli, cliAsync, requireBuild } from "../test-support/built-cli.js";
import { fixtureProject, type Fixture } from "../test-support/fixture-project.js";

// Notifications as a user meets them: the built CLI, a task file with on_pause and on_finish,
// and a loopback HTTP server this test starts.

beforeAll(requireBuild);

interface Received {
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** A loopback server answering each request with the next status of `statuses` (the last repeats); `null` never answers. */
async function server(statuses: readonly (number | null)[]) {
  const received: Received[] = [];
  const open = new Set<ServerResponse>();
  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", body: JSON.parse(text) as Record<string, unknown> });
      const status = statuses[Math.min(received.length, statuses.length) - 1];
      if (status === null || status === undefined) open.add(response);
      else response.writeHead(status).end("ok");
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  servers.push(() => {
    for (const response of open) response.destroy();
    http.closeAllConnections();
    http.close();
  });
  return { url: `http://127.0.0.1:${port}`, received };
}

const servers: (() => void)[] = [];
afterEach(() => servers.splice(0).forEach((close) => close()));

/** The fixture's task file with `extra` settings added at its top. */
function withSettings(fixture: Fixture, extra: Record<string, unknown>): void {
  const document = parse(readFileSync(fixture.taskFile, "utf8")) as Record<string, unknown>;
  writeFileSync(fixture.taskFile, stringify({ ...document, ...extra }));
}

describe("on_pause and on_finish", () => {
  it("tells a webhook (after a failed try) and a command when a task pauses, and a webhook when the run finishes", async () => {
    const hooks = await server([500, 200]);
    const fixture = fixtureProject({ passFrom: 4 });
    withSettings(fixture, {
      on_pause: {
        webhook: `${hooks.url}/pause`,
        command: [
          "sh",
          "-c",
          'cp "$LOOPGATE_NOTIFICATION_FILE" "got-$LOOPGATE_NOTIFICATION_EVENT.json"',
        ],
      },
      on_finish: { webhook: `${hooks.url}/finish` },
    });
    const run = await cliAsync(["run", fixture.taskFile, "--db", fixture.db], {}, fixture.dir);
    expect(run.stderr).not.toContain("warning:");
    expect(run.status).toBe(3);
    // The first POST got a 500; the retry was delivered.
    expect(hooks.received.map((request) => request.path)).toEqual(["/pause", "/pause"]);
    const pause = hooks.received[1]?.body;
    expect(pause).toMatchObject({
      event: "pause",
      run: 1,
      journal: fixture.db,
      task_id: "task-1",
      iteration: 3,
      reason: "MAX_ITERATIONS",
    });
    expect(String(pause?.question)).toContain("After 3 attempts");
    expect(String(pause?.answer_with)).toContain(`loopgate answer task-1 --db "${fixture.db}"`);
    expect((pause?.decision as { action?: string }).action).toBe("escalate");
    const fromFile = JSON.parse(
      readFileSync(join(fixture.dir, "got-pause.json"), "utf8"),
    ) as unknown;
    expect(fromFile).toEqual(pause);

    expect(cli(["answer", "task-1", "--text", "go on", "--db", fixture.db]).status).toBe(0);
    const resume = await cliAsync(["resume", "--db", fixture.db], {}, fixture.dir);
    expect(resume.status).toBe(0);
    const finish = hooks.received.find((request) => request.path === "/finish")?.body;
    expect(finish).toMatchObject({ event: "finish", run: 1, status: "finished" });
    expect(finish?.tasks).toEqual([
      expect.objectContaining({ task_id: "task-1", outcome: "proceeded", iterations: 4 }),
    ]);
  });

  it("logs a webhook that never answers and a failing command, and the run goes on to the same pause", async () => {
    const silent = await server([null]);
    const fixture = fixtureProject({ passFrom: 4 });
    withSettings(fixture, {
      on_pause: {
        webhook: `${silent.url}/never`,
        command: "echo 'no mail today' >&2; exit 7",
        // Long enough for a loaded machine to connect before the abort, so both tries arrive.
        timeout_ms: 1000,
        retries: 1,
      },
    });
    const run = await cliAsync(["run", fixture.taskFile, "--db", fixture.db], {}, fixture.dir);
    expect(run.status).toBe(3);
    expect(silent.received).toHaveLength(2);
    expect(run.stderr).toContain(
      `warning: on_pause webhook ${silent.url}/never not delivered after 2 attempts: no answer within 1000 ms`,
    );
    expect(run.stderr).toContain(
      "warning: on_pause command not delivered: exited 7: no mail today",
    );
    expect(run.stderr).toContain("task-1 #3/3 escalate (MAX_ITERATIONS)");
    expect(run.stdout).toMatch(/^task-1\s+awaiting-answer\s+3/m);
  });

  it("refuses a notification that names neither a command nor a webhook, or a webhook that is not http", () => {
    const fixture = fixtureProject();
    withSettings(fixture, { on_pause: { timeout_ms: 100 } });
    const none = cli(["run", fixture.taskFile, "--db", fixture.db], {}, fixture.dir);
    expect(none.status).toBe(2);
    expect(none.stderr).toBe(
      "error: on_pause: expected a command, a webhook or both, got a mapping\n",
    );
    withSettings(fixture, { on_pause: { webhook: "ftp://example.com/x" } });
    const ftp = cli(["run", fixture.taskFile, "--db", fixture.db], {}, fixture.dir);
    expect(ftp.status).toBe(2);
    expect(ftp.stderr).toContain("error: on_pause.webhook: expected an http:// or https:// URL");
  });
});
