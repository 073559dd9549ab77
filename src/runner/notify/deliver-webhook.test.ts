import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { AwaitAnswer } from "../../core/loop/loop-effect.js";
import type { LoadedRun } from "../load-run.js";
import { deliverWebhook } from "./deliver-webhook.js";
import { sqliteStoreName } from "./store-name.js";
import { Notifier } from "./notifier.js";

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

/** A loopback server answering every POST with `status`; returns its URL and the bodies it got. */
async function answering(status: number) {
  const bodies: string[] = [];
  const http = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      bodies.push(text);
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(() => http.close());
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/`, bodies };
}

describe("deliverWebhook", () => {
  it("does not retry a refusal that trying again cannot change (404)", async () => {
    const server = await answering(404);
    const result = await deliverWebhook(server.url, "{}", { timeoutMs: 1000, retries: 3 });
    expect(result).toEqual({ delivered: false, attempts: 1, why: "HTTP 404" });
    expect(server.bodies).toEqual(["{}"]);
  });

  it("retries a server that is not there, then says why", async () => {
    const server = await answering(200);
    const url = server.url;
    closers.splice(0).forEach((close) => close());
    const result = await deliverWebhook(url, "{}", { timeoutMs: 1000, retries: 1 });
    expect(result.delivered).toBe(false);
    expect(result.attempts).toBe(2);
    expect(result.delivered === false && result.why).toMatch(/ECONNREFUSED/);
  });
});

describe("Notifier", () => {
  it("sends the pause redacted, like everything loopgate prints", async () => {
    const server = await answering(200);
    const warnings: string[] = [];
    const notifier = new Notifier(sqliteStoreName("/tmp/journal.db"), (line) =>
      warnings.push(line),
    );
    notifier.configure({
      run: { id: 7, baseDir: "/tmp" },
      runDir: "/tmp/runs/7",
      file: { onPause: { webhook: server.url } },
    } as unknown as LoadedRun);
    const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    notifier.paused({
      taskId: "t",
      iteration: 2,
      options: [],
      decision: { action: "wait", reason: "REVIEW_PENDING", message: `token ${secret}` },
    } as unknown as AwaitAnswer);
    await notifier.settled();
    expect(warnings).toEqual([]);
    expect(server.bodies).toHaveLength(1);
    expect(server.bodies[0]).not.toContain(secret);
    expect(JSON.parse(server.bodies[0] ?? "")).toMatchObject({
      event: "pause",
      run: 7,
      task_id: "t",
      question: "token [REDACTED:github_token]",
    });
  });
});
