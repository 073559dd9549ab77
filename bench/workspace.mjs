// Benchmarks git workspaces after `npm run build` (run it as `node bench/workspace.mjs`).
//
// On a generated repository of 1,000 files: what `workspace: {git: worktree}` costs a run of
// TASKS tasks whose generate step edits a file, measured as the difference between the same
// task file run with and without the workspace, at 3 attempts a task and at 1 (so the cost of
// a worktree and the cost of an attempt's commit can be told apart):
//   with − without at 1 attempt  = TASKS × (worktree + commit)
//   with − without at 3 attempts = TASKS × (worktree + 3 × commit)
// The baseline, in the same invocation on a copy of the same repository: `git worktree add` per
// task and `git add --all` + `git commit` per attempt, each spawned by this script and timed
// alone — the least a tool can do for the same result — and told apart the same way (a task's
// first commit, which refreshes the new worktree's index, counts with the worktree beyond what
// a later commit costs). loopgate's commit also reads two diffs (against the base and the
// previous attempt) and checks what HEAD is; the baseline does not.
// Every contender starts from a fresh copy of the repository, made outside the timing; the
// contenders take turns, so a change in machine load hits them alike. Prints ms per worktree,
// ms per attempt commit and the ratios, and writes them to bench/out/workspace.json.
import { spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { median } from "./lib/stats.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const FILES = 1000;
const TASKS = Number(process.env.LOOPGATE_BENCH_TASKS ?? 10);
const RUNS = Number(process.env.LOOPGATE_BENCH_RUNS ?? 5);
const IDENTITY = {
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@localhost",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@localhost",
};

const dir = await mkdtemp(join(tmpdir(), "loopgate-bench-workspace-"));

/** Runs a command to its end; a failure aborts the bench, since a failing run is not a figure. */
function run(argv, cwd, env = {}) {
  const result = spawnSync(argv[0], argv.slice(1), {
    cwd,
    env: { ...process.env, ...IDENTITY, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.status !== 0) {
    throw new Error(`${argv.join(" ")}: exit ${result.status ?? result.signal}\n${result.stderr}`);
  }
  return result;
}

/** The mean of the samples. */
const mean = (samples) => samples.reduce((sum, sample) => sum + sample, 0) / samples.length;

/** How long `fn` takes, in milliseconds. */
function timed(fn) {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

// The repository: 1,000 files of 40 lines in 50 directories, one commit, the task files in it.
const template = join(dir, "template");
for (let index = 0; index < FILES; index += 1) {
  const folder = join(template, "src", `d${String(index % 50).padStart(2, "0")}`);
  await mkdir(folder, { recursive: true });
  const lines = Array.from({ length: 40 }, (_, line) => `file ${index} line ${line}`);
  await writeFile(join(folder, `f${index}.txt`), `${lines.join("\n")}\n`);
}
await writeFile(join(template, ".gitignore"), ".loopgate/\n");
// The generate step edits one file of the task's own; the test passes at the last attempt.
const generate = [
  "/bin/sh",
  "-c",
  'echo "$LOOPGATE_TASK_ID $LOOPGATE_ITERATION" >> src/d00/f0.txt',
];
const test = (attempts) => ["/bin/sh", "-c", `[ "$LOOPGATE_ITERATION" -ge ${attempts} ]`];
const taskFile = (attempts, workspace) => `tasks-${attempts}-${workspace ? "ws" : "none"}.json`;
for (const attempts of [1, 3]) {
  for (const workspace of [true, false]) {
    await writeFile(
      join(template, taskFile(attempts, workspace)),
      JSON.stringify({
        ...(workspace ? { workspace: { git: "worktree" } } : {}),
        iteration_control: { max_iterations: attempts },
        steps: { generate: { command: generate }, test: { command: test(attempts) } },
        tasks: Array.from({ length: TASKS }, (_, index) => ({ id: `t${index}`, prompt: "edit" })),
      }),
    );
  }
}
run(["git", "init", "--quiet", "--initial-branch=main"], template);
run(["git", "add", "--all"], template);
run(["git", "commit", "--quiet", "-m", "init"], template);

let copies = 0;
/** A fresh copy of the repository, made outside any timing. */
async function freshCopy() {
  copies += 1;
  const copy = join(dir, `copy-${copies}`);
  await cp(template, copy, { recursive: true });
  return copy;
}

/** One loopgate run of the task file in a fresh copy, in ms; tasks one at a time. */
async function loopgateRun(attempts, workspace) {
  const copy = await freshCopy();
  const argv = [process.execPath, join(root, "bin/loopgate.js"), "run"];
  const file = join(copy, taskFile(attempts, workspace));
  const args = [file, "--db", join(copy, ".loopgate", "journal.db"), "--quiet"];
  const ms = timed(() => run([...argv, ...args, "--concurrency", "1"], copy));
  await rm(copy, { recursive: true, force: true });
  return ms;
}

/**
 * The baseline in a fresh copy: per task a `git worktree add`, then per attempt the same
 * generate and test commands and `git add --all` + `git commit`, git's calls timed alone.
 */
async function plainGit(attempts) {
  const copy = await freshCopy();
  const worktrees = [];
  const firstCommits = [];
  const laterCommits = [];
  for (let index = 0; index < TASKS; index += 1) {
    const worktree = join(copy, ".loopgate", "worktrees", `t${index}`);
    const branch = `loopgate/t${index}`;
    worktrees.push(
      timed(() => run(["git", "worktree", "add", "--quiet", "-b", branch, worktree, "HEAD"], copy)),
    );
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const env = { LOOPGATE_TASK_ID: `t${index}`, LOOPGATE_ITERATION: String(attempt) };
      run(generate, worktree, env);
      (attempt === 1 ? firstCommits : laterCommits).push(
        timed(() => {
          run(["git", "add", "--all"], worktree);
          run(["git", "commit", "--quiet", "-m", `t${index} attempt ${attempt}`], worktree);
        }),
      );
      run(test(attempt), worktree, env);
    }
  }
  await rm(copy, { recursive: true, force: true });
  // Told apart as loopgate's figures are: a task's first commit, which refreshes the new
  // worktree's whole index, counts with its worktree beyond what a later commit costs.
  const later = mean(laterCommits);
  return { worktree: mean(worktrees) + mean(firstCommits) - later, commit: later };
}

const contenders = {
  ws3: () => loopgateRun(3, true),
  none3: () => loopgateRun(3, false),
  ws1: () => loopgateRun(1, true),
  none1: () => loopgateRun(1, false),
  plain: () => plainGit(3),
};
const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
for (let round = -1; round < RUNS; round += 1) {
  const order = Object.entries(contenders);
  if (round % 2 === 1) order.reverse();
  for (const [name, contender] of order) {
    const sample = await contender();
    if (round >= 0) samples[name].push(sample);
  }
}

const ms = (name) => median(samples[name]);
const perTaskAt3 = (ms("ws3") - ms("none3")) / TASKS;
const perTaskAt1 = (ms("ws1") - ms("none1")) / TASKS;
const commitMs = (perTaskAt3 - perTaskAt1) / 2;
const worktreeMs = perTaskAt1 - commitMs;
const plainWorktreeMs = median(samples.plain.map((sample) => sample.worktree));
const plainCommitMs = median(samples.plain.map((sample) => sample.commit));
const round2 = (value) => +value.toFixed(2);
const figures = {
  files: FILES,
  tasks: TASKS,
  attempts_per_task: 3,
  runs: RUNS,
  run_with_workspace_ms: Math.round(ms("ws3")),
  run_without_workspace_ms: Math.round(ms("none3")),
  run_ratio: round2(ms("ws3") / ms("none3")),
  workspace_ms_per_task: round2(perTaskAt3),
  loopgate_ms_per_worktree: round2(worktreeMs),
  loopgate_ms_per_attempt_commit: round2(commitMs),
  plain_git_ms_per_worktree: round2(plainWorktreeMs),
  plain_git_ms_per_attempt_commit: round2(plainCommitMs),
  worktree_ratio_to_plain_git: round2(worktreeMs / plainWorktreeMs),
  attempt_commit_ratio_to_plain_git: round2(commitMs / plainCommitMs),
  workspace_ratio_to_plain_git_per_task: round2(perTaskAt3 / (plainWorktreeMs + 3 * plainCommitMs)),
};
console.log(
  `git workspaces on a repository of ${FILES} files, ${TASKS} tasks x 3 attempts (one at a time), median of ${RUNS}`,
);
console.log(
  `  loopgate run  with workspace ${figures.run_with_workspace_ms} ms, without ${figures.run_without_workspace_ms} ms (${figures.run_ratio}x): ${figures.workspace_ms_per_task} ms a task for its worktree and 3 commits`,
);
console.log(
  `  per worktree       loopgate ${figures.loopgate_ms_per_worktree} ms  plain git worktree add ${figures.plain_git_ms_per_worktree} ms  (${figures.worktree_ratio_to_plain_git}x)`,
);
console.log(
  `  per attempt commit loopgate ${figures.loopgate_ms_per_attempt_commit} ms  plain git add + commit ${figures.plain_git_ms_per_attempt_commit} ms  (${figures.attempt_commit_ratio_to_plain_git}x; loopgate also reads two diffs)`,
);
console.log(
  `  per task (worktree + 3 commits): ${figures.workspace_ratio_to_plain_git_per_task}x plain git`,
);
await mkdir(new URL("out/", import.meta.url), { recursive: true });
await writeFile(
  new URL("out/workspace.json", import.meta.url),
  `${JSON.stringify(figures, null, 2)}\n`,
);
await rm(dir, { recursive: true, force: true });
