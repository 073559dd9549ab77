/**
 * The id of a piece of work: task, attempt, kind and ordinal. JSON keeps it unambiguous
 * whatever characters a task id holds.
 */
export function effectId(taskId: string, iteration: number, kind: string, ordinal: number): string {
  return JSON.stringify([taskId, iteration, kind, ordinal]);
}
