import { describe, expect, it } from "vitest";
import { queuePollingFrom } from "./queue-polling.js";

describe("queuePollingFrom", () => {
  it("takes a positive LOOPGATE_QUEUE_POLL_MS, and leaves DBOS's default otherwise", () => {
    expect(queuePollingFrom({ LOOPGATE_QUEUE_POLL_MS: "50" })).toEqual({
      minPollingIntervalMs: 50,
    });
    for (const value of [undefined, "", "0", "-5", "fast", "Infinity"]) {
      expect(queuePollingFrom({ LOOPGATE_QUEUE_POLL_MS: value }), String(value)).toEqual({});
    }
  });
});
