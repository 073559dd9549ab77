import * as v from "valibot";
import { mapping, name } from "./fields.js";

/** Who the attempt commits are by when the task file names nobody. */
export const DEFAULT_COMMIT_AUTHOR = "loopgate <loopgate@localhost>";

/** Where a task's steps run: its own git worktree, or the repository's own working tree. */
export type WorkspaceKind = "worktree" | "in-place";

/** What becomes of a task's branch when the task proceeds: kept, merged into the base branch, or squashed onto it. */
export type OnProceed = "keep" | "merge" | "squash";

/** What becomes of a task's worktree when the task is aborted: kept, or removed (its branch is kept). */
export type OnAbort = "keep" | "remove";

/** A task's git workspace as the task file gives it (file-wide, a task's own field by field). */
export interface WorkspaceSpec {
  readonly git: WorkspaceKind;
  /** The commit the task starts from (a branch, tag or commit); default HEAD. */
  readonly base?: string;
  /** Where the task worktrees go, relative to the task file; default `worktrees/` next to the journal. */
  readonly dir?: string;
  /** `Name <email>` of the attempt commits; default DEFAULT_COMMIT_AUTHOR. */
  readonly author?: string;
  /** After a proceed; default keep. */
  readonly onProceed?: OnProceed;
  /** After an abort; default keep. */
  readonly onAbort?: OnAbort;
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
    on_proceed: v.optional(
      v.pipe(
        v.picklist(["keep", "merge", "squash"], "expected keep, merge or squash"),
        v.description(
          "the task's branch when it proceeds: keep it, merge or squash it into the base branch; default keep",
        ),
      ),
    ),
    on_abort: v.optional(
      v.pipe(
        v.picklist(["keep", "remove"], "expected keep or remove"),
        v.description(
          "the task's worktree when it is aborted: keep or remove it (the branch is kept); default keep",
        ),
      ),
    ),
  },
  "expected a mapping with git, base, dir, author, on_proceed, on_abort",
);
