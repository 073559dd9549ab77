import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { oneCommitRepository } from "./one-commit-repository.js";

/**
 * A repository and a task file whose tasks (one worktree each, two attempts before they pause)
 * get worse: attempts 1-2 write v1-v2 to calc.py and as many failing tests; attempt 3 fixes
 * the code it finds. Every attempt notes the code it started from (`seen`), and the answer it
 * was handed (`answer`).
 */
export function worseAttemptsProject(prefix: string, tasks: readonly string[]) {
  const { dir, repo } = oneCommitRepository(prefix, "v0\n");
  const agent = join(dir, "agent.sh");
  writeFileSync(
    agent,
    `#!/bin/sh
echo "$LOOPGATE_ITERATION $(cat calc.py)" >> "${dir}/seen-$LOOPGATE_TASK_ID"
if [ -f "$LOOPGATE_ANSWER_FILE" ]; then cp "$LOOPGATE_ANSWER_FILE" "${dir}/answer-$LOOPGATE_TASK_ID"; fi
if [ "$LOOPGATE_ITERATION" -le 2 ]; then echo "v$LOOPGATE_ITERATION" > calc.py; echo "$LOOPGATE_ITERATION" > failing
else echo 0 > failing; fi
`,
    { mode: 0o755 },
  );
  // TAP: one failing test per line of the count, so the standing reads the parsed report.
  const test = join(dir, "test.sh");
  writeFileSync(
    test,
    `#!/bin/sh
n=$(cat failing); echo "TAP version 13"; i=1
while [ $i -le $n ]; do echo "not ok $i - case $i"; i=$((i+1)); done
echo "1..$n"; [ "$n" = 0 ]
`,
    { mode: 0o755 },
  );
  const taskFile = join(repo, "tasks.yaml");
  writeFileSync(
    taskFile,
    stringify({
      workspace: { git: "worktree" },
      iteration_control: { max_iterations: 2 },
      steps: { generate: { command: [agent] }, test: { command: [test] } },
      tasks: tasks.map((id) => ({ id, prompt: "fix calc" })),
    }),
  );
  const db = join(repo, ".loopgate", "journal.db");
  const worktree = (task: string) => join(repo, ".loopgate", "worktrees", task);
  const seen = (task: string) => readFileSync(join(dir, `seen-${task}`), "utf8");
  const answer = (task: string) => readFileSync(join(dir, `answer-${task}`), "utf8");
  return { dir, repo, taskFile, db, worktree, seen, answer };
}
