import type { TaskEntry, TaskFile } from "../../wire/task-file.js";
import type { WorkspaceSpec } from "../../wire/workspace-spec.js";

/** A task's workspace: its own fields over the file's; none when neither sets one. */
export function workspaceOf(file: TaskFile, entry: TaskEntry): WorkspaceSpec | undefined {
  if (file.workspace === undefined && entry.workspace === undefined) return undefined;
  return { ...file.workspace, ...entry.workspace } as WorkspaceSpec;
}
