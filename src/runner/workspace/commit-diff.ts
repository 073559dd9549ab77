import { gitOk } from "./git.js";

/** The diff between two commits, bounded (head and tail) and redacted like step output. */
export async function commitDiff(
  dir: string,
  from: string,
  to: string,
  limit: number,
): Promise<string> {
  if (from === to) return "";
  return await gitOk(
    dir,
    ["diff", "--no-color", "--no-ext-diff", "--no-textconv", from, to, "--"],
    { limit },
  );
}
