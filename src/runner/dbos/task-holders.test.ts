import type { DBOSClient } from "@dbos-inc/dbos-sdk";
import { describe, expect, it } from "vitest";
import { taskHolders } from "./task-holders.js";
import { taskWorkflowId } from "./task-workflow.js";
import { workWorkflowId } from "./work-workflow.js";

/** A client whose `listWorkflows` answers with `rows` (those of the prefix asked for). */
function clientWith(rows: readonly { workflowID: string; status: string; executorId: string }[]) {
  return {
    listWorkflows: ({ workflow_id_prefix }: { workflow_id_prefix: string }) =>
      Promise.resolve(rows.filter((row) => row.workflowID.startsWith(workflow_id_prefix))),
  } as unknown as DBOSClient;
}

describe("taskHolders", () => {
  it("names the executor running a task's work before the one its task workflow waits on, and skips queued and ended workflows", async () => {
    const client = clientWith([
      // "split": its task workflow waits on worker a for the work worker b runs.
      { workflowID: taskWorkflowId(7, "split"), status: "PENDING", executorId: "a" },
      { workflowID: workWorkflowId(7, "split", 0, 0), status: "SUCCESS", executorId: "a" },
      { workflowID: workWorkflowId(7, "split", 4, 1), status: "PENDING", executorId: "b" },
      // "asks": waits for an answer on a; its work ended.
      { workflowID: taskWorkflowId(7, "asks"), status: "PENDING", executorId: "a" },
      { workflowID: workWorkflowId(7, "asks", 0, 0), status: "SUCCESS", executorId: "b" },
      // "queued": nobody holds it; "done": ended.
      { workflowID: taskWorkflowId(7, "queued"), status: "ENQUEUED", executorId: "c" },
      { workflowID: taskWorkflowId(7, "done"), status: "SUCCESS", executorId: "a" },
      // Another run's, whose id starts alike.
      { workflowID: taskWorkflowId(70, "other"), status: "PENDING", executorId: "a" },
    ]);
    expect(Object.fromEntries(await taskHolders(client, 7))).toEqual({
      split: { executor: "b", status: "PENDING" },
      asks: { executor: "a", status: "PENDING" },
    });
  });

  it("reads a task id with dashes and digits back from a work workflow's id", async () => {
    const client = clientWith([
      { workflowID: workWorkflowId(1, "t-12-at-3", 12, 2), status: "PENDING", executorId: "x" },
    ]);
    expect([...(await taskHolders(client, 1)).keys()]).toEqual(["t-12-at-3"]);
  });
});
