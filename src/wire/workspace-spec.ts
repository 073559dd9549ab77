import * as v from "valibot";
import { mapping, name } from "./fields.js";

/** Who the attempt commits are by when the task file names nobody. */
export const DEFAULT_COMMIT_AUTHOR = "loopgate <loopgate@localhost>";

/** Where a task's steps run: its own git worktree, or the repository's own working tree. */
export type WorkspaceKind = "worktree" | "in-place";

/** A task's git workspace as the task file gives it (file-wide, a task's own field by field). */
export interface WorkspaceSpec {
  readonly git: WorkspaceKind;
  /** The commit the task starts from (a branch, tag or commit); default HEAD. */
  readonly base?: string;
  /** Where the task worktrees go, relative to the task file; default `worktrees/` next to the journal. */
  readonly dir?: string;
  /** `Name <email>` of the attempt commits; default DEFAULT_COMMIT_AUTHOR. */
  readonly author?: string;
}

const noNul = v.check((value: string) => !value.includes("\u0000"), "expected no NUL byte");

// Handed to git as one argument: a leading '-' would read as an option.
const notAnOption = v.check(
  (value: string) => !value.startsWith("-"),
  "expected a name that does not start with '-'",
);

/** The `workspace` mapping of a task file or a task. */
export const workspaceSchema = mapping(
  {
    git: v.picklist(["worktree", "in-place"], "expected worktree or in-place"),
    base: v.optional(
      v.pipe(name, noNul, notAnOption, v.description("commit, branch or tag; default HEAD")),
    ),
    dir: v.optional(
      v.pipe(
        name,
        noNul,
        v.description("directory of the task worktrees; default worktrees/ next to the journal"),
      ),
    ),
    author: v.optional(
      v.pipe(
        name,
        v.regex(/^[^<>\n\0]+ <[^<>\n\0]+>$/, "expected Name <email>"),
        v.description(`author of the attempt commits; default ${DEFAULT_COMMIT_AUTHOR}`),
      ),
    ),
  },
  "expected a mapping with git, base, dir, author",
);
