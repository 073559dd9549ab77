import { describe, expect, it } from "vitest";
import { taskOfTaskWorkflow, taskWorkflowId } from "./task-workflow.js";

describe("taskOfTaskWorkflow", () => {
  it("reads back the run and the task, dashes and digits included, of a task workflow's id", () => {
    for (const taskId of ["a", "fix-login-2", "task-7"]) {
      expect(taskOfTaskWorkflow(taskWorkflowId(12, taskId))).toEqual({ runId: 12, taskId });
    }
  });

  it("names nothing for another workflow's id", () => {
    expect(taskOfTaskWorkflow("loopgate-run-3-work-0-a")).toBeUndefined();
    expect(taskOfTaskWorkflow("loopgate-old-version-task")).toBeUndefined();
  });
});
