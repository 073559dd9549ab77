// Benchmarks loopgate at many tasks, after `npm run build` (run it as `node bench/scale.mjs`).
//
//   a) `loopgate run --concurrency 8` over N tasks of trivial steps, two attempts each, against
//      `xargs -P 8` and a bare Node script spawning the same commands eight at a time, the three
//      taking turns in every round (median of LOOPGATE_SCALE_ROUNDS rounds), and run's peak
//      resident memory;
//   b) on the journal that run left: `status`, `history TASK`, `explain TASK` and `resume`
//      (nothing left to do), and one `answer` to a task paused at the end of a run;
//   c) the log-log slope of every figure between consecutive sizes: 1.0 is linear;
//   d) one long task of as many attempts as the largest of LOOPGATE_SCALE_LONG (10,50,100,200),
//      each test step printing a 9.3 KB log, with NO_PROGRESS off and watched
//      (LOOPGATE_SCALE_LONG_MODES, default off,watched): ms per iteration and journal bytes per
//      attempt AT each of those attempts, read back from the runs' journals over the window of
//      WINDOW attempts around it — neither process start-up nor the earlier attempts count —
//      and pass/fail against ±20% of attempt 10's; each mode runs again with V8's compiling tiers
//      off (the control: its attempts do not speed up as V8 warms up, so a figure that moves
//      there is the runner's own). Every run is repeated LOOPGATE_SCALE_LONG_ROUNDS times (default
//      3), the contenders taking turns, and each figure is the median of every round's attempts.
// Sizes: LOOPGATE_SCALE_SIZES (default 100,1000,5000; empty skips a–c); LOOPGATE_SCALE_LONG= (empty) skips d).
// LOOPGATE_SCALE_BASELINE=DIR adds another build's `run` (DIR/bin/loopgate.js, e.g. a worktree of
// main after `npm run build`) as a fourth contender in the same rounds, and its long task in d):
// before → after of a change, measured in one invocation.
// Prints tables and writes the figures to bench/out/scale.json. LOOPGATE_SCALE_KEEP=DIR keeps
// each size's journals there (DIR/journal-N.db, DIR/journal-N-pause.db answered) to profile the
// commands on. No dependencies.
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { nodeSpawnerSource } from "./lib/node-spawner.mjs";
import { median } from "./lib/stats.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "bin/loopgate.js");
const SIZES = (process.env.LOOPGATE_SCALE_SIZES ?? "100,1000,5000")
  .split(",")
  .filter(Boolean)
  .map(Number);
const ROUNDS = Number(process.env.LOOPGATE_SCALE_ROUNDS ?? 3);
const LONG = (process.env.LOOPGATE_SCALE_LONG ?? "10,50,100,200")
  .split(",")
  .filter(Boolean)
  .map(Number);
/** The long task with NO_PROGRESS off, watched, or both (LOOPGATE_SCALE_LONG_MODES). */
const LONG_MODES = (process.env.LOOPGATE_SCALE_LONG_MODES ?? "off,watched").split(",");
const CONCURRENCY = 8;
const KEEP = process.env.LOOPGATE_SCALE_KEEP || undefined;
/** Another build's CLI to compare `run` with (LOOPGATE_SCALE_BASELINE), if any. */
const BASELINE = process.env.LOOPGATE_SCALE_BASELINE
  ? join(process.env.LOOPGATE_SCALE_BASELINE, "bin/loopgate.js")
  : undefined;

const dir = mkdtempSync(join(tmpdir(), "loopgate-bench-scale-"));

// The same three commands for every contender; the test fails on a task's first attempt.
const generate = ["/bin/true"];
const test = ["/bin/sh", "-c", '[ "$LOOPGATE_ITERATION" -ge 2 ]'];
const review = ["/bin/echo", '{"status": "approve"}'];

/** A task file of `count` tasks; with `pauseLast`, the last task's review always rejects. */
function taskFile(count, { pauseLast = false } = {}) {
  const path = join(dir, `tasks-${count}${pauseLast ? "-pause" : ""}.json`);
  const reviewCommand = pauseLast
    ? [
        "/bin/sh",
        "-c",
        `if [ "$LOOPGATE_TASK_ID" = t${count} ]; then echo '{"status": "reject", "feedback": "no"}'; else echo '{"status": "approve"}'; fi`,
      ]
    : review;
  writeFileSync(
    path,
    JSON.stringify({
      iteration_control: { max_iterations: 2 },
      steps: {
        generate: { command: generate },
        test: { command: test },
        review: { command: reviewCommand },
      },
      tasks: Array.from({ length: count }, (_, i) => ({ id: `t${i + 1}`, prompt: "nothing" })),
    }),
  );
  return path;
}

const quote = (argv) => argv.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(" ");
const perTask = `for i in 1 2; do export LOOPGATE_ITERATION=$i; ${quote(generate)}; ${quote(test)}; ${quote(review)} > /dev/null; done; true`;

const nodeSpawner = join(dir, "node-spawner.mjs");
writeFileSync(
  nodeSpawner,
  nodeSpawnerSource([generate, test, review], { iterations: 2, concurrency: CONCURRENCY }),
);

/** Wall time of one command in ms; a command exiting other than `expect` aborts the bench. */
function timed(argv, { expect = 0, cwd = dir, input } = {}) {
  const start = performance.now();
  const result = spawnSync(argv[0], argv.slice(1), {
    cwd,
    input,
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - start;
  if (result.status !== expect) {
    throw new Error(
      `${argv.join(" ")}: exit ${result.status ?? result.signal}\n${result.stderr.toString().trim()}`,
    );
  }
  return ms;
}

const loopgate = (...args) => [process.execPath, cli, ...args];

// Loaded into `run` to write its peak resident memory (KiB) to the file LOOPGATE_BENCH_RSS names.
const rssProbe = join(dir, "rss-probe.cjs");
writeFileSync(
  rssProbe,
  `process.on("exit", () => require("node:fs").writeFileSync(process.env.LOOPGATE_BENCH_RSS, String(process.resourceUsage().maxRSS)));\n`,
);

/** `loopgate run ARGS` (of the build at `of`) timed, and its peak resident memory in MiB. */
function timedRun(args, of = cli) {
  const rssFile = join(dir, "rss");
  const start = performance.now();
  const result = spawnSync(process.execPath, ["--require", rssProbe, of, "run", ...args], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LOOPGATE_BENCH_RSS: rssFile },
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - start;
  if (result.status !== 0)
    throw new Error(`run ${args.join(" ")}: exit ${result.status}\n${result.stderr}`);
  return { ms, rssMiB: Number(readFileSync(rssFile, "utf8")) / 1024 };
}

/** Figures at one size: contenders' run times, then the read commands on the journal. */
function measureSize(count) {
  const file = taskFile(count);
  const xargsList = join(dir, `list-${count}`);
  writeFileSync(xargsList, Array.from({ length: count }, (_, i) => `t${i + 1}\n`).join(""));
  const times = { loopgate: [], xargs: [], node: [], ...(BASELINE ? { baseline: [] } : {}) };
  const rss = [];
  const baselineRss = [];
  let db = "";
  for (let round = 0; round < ROUNDS; round += 1) {
    db = join(dir, `journal-${count}-${round}.db`);
    const contenders = {
      loopgate: () => {
        const ran = timedRun([file, "--db", db, "--quiet", "--concurrency", String(CONCURRENCY)]);
        rss.push(ran.rssMiB);
        return ran.ms;
      },
      xargs: () =>
        timed([
          "/bin/sh",
          "-c",
          `xargs -P ${CONCURRENCY} -n 1 /bin/bash -c ${quote([perTask])} task < ${quote([xargsList])}`,
        ]),
      node: () => timed([process.execPath, nodeSpawner, String(count)]),
      ...(BASELINE
        ? {
            baseline: () => {
              const at = join(dir, `journal-${count}-${round}-baseline.db`);
              const ran = timedRun(
                [file, "--db", at, "--quiet", "--concurrency", String(CONCURRENCY)],
                BASELINE,
              );
              rmSync(at, { force: true });
              baselineRss.push(ran.rssMiB);
              return ran.ms;
            },
          }
        : {}),
    };
    const order = Object.entries(contenders);
    if (round % 2 === 1) order.reverse();
    for (const [name, run] of order) times[name].push(run());
  }
  const middle = `t${Math.ceil(count / 2)}`;
  const reads = {
    status: median(repeat(() => timed(loopgate("status", "--db", db)))),
    history: median(repeat(() => timed(loopgate("history", middle, "--db", db)))),
    explain: median(repeat(() => timed(loopgate("explain", middle, "--db", db)))),
    resume: median(repeat(() => timed(loopgate("resume", "--db", db, "--quiet")))),
  };
  const pauseDb = join(dir, `journal-${count}-pause.db`);
  timed(loopgate("run", taskFile(count, { pauseLast: true }), "--db", pauseDb, "--quiet"), {
    expect: 3,
  });
  reads.answer = timed(loopgate("answer", `t${count}`, "--abort", "--db", pauseDb));
  if (KEEP !== undefined) {
    renameSync(db, join(KEEP, `journal-${count}.db`));
    renameSync(pauseDb, join(KEEP, `journal-${count}-pause.db`));
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    rmSync(join(dir, `journal-${count}-${round}.db`), { force: true });
  }
  const run = Object.fromEntries(Object.entries(times).map(([name, ms]) => [name, median(ms)]));
  return {
    tasks: count,
    run,
    run_rss_mib: Math.round(median(rss)),
    ...(BASELINE ? { baseline_rss_mib: Math.round(median(baselineRss)) } : {}),
    reads,
  };
}

/** `fn`'s results over ROUNDS calls. */
function repeat(fn) {
  return Array.from({ length: ROUNDS }, fn);
}

/** The log-log slope from (x1, y1) to (x2, y2): how y grows with x; 1 is linear. */
const slope = (x1, y1, x2, y2) => Math.log(y2 / y1) / Math.log(x2 / x1);

/** Attempts each long-task figure is read over, around the attempt it is for. */
const WINDOW = 10;

/**
 * One task of `attempts` attempts whose test prints a 9.3 KB log and fails until the last; with
 * `watched`, NO_PROGRESS is on (a window longer than the task, so it never fires) and every
 * decision reads every earlier attempt's signature. Returns the run's journal.
 */
function runLong(attempts, watched, of, nodeFlags) {
  const path = join(dir, `long-${attempts}.json`);
  const line = "x".repeat(75);
  writeFileSync(
    path,
    JSON.stringify({
      iteration_control: { max_iterations: attempts },
      stop_conditions: { no_progress: watched ? { window: attempts + 1 } : null },
      steps: {
        generate: { command: generate },
        test: {
          command: [
            "/bin/sh",
            "-c",
            `i=0; while [ $i -lt 100 ]; do echo "FAIL line $i of attempt $LOOPGATE_ITERATION ${line}"; i=$((i+1)); done; [ "$LOOPGATE_ITERATION" -ge ${attempts} ]`,
          ],
        },
        review: { command: review },
      },
      tasks: [{ id: "long", prompt: "nothing" }],
    }),
  );
  const db = join(dir, `long-${attempts}.db`);
  const ms = timed([process.execPath, ...nodeFlags, of, "run", path, "--db", db, "--quiet"]);
  return { db, ms, bytes: statSync(db).size };
}

/**
 * Per attempt of the journal's one run: when its decision was journaled (ms), how long its steps
 * took (their journaled durations, spawn included), and the bytes it added — its events' bodies
 * and metas, and the blobs first referred to by them.
 */
function attemptsOf(db) {
  const Database = createRequire(import.meta.url)("better-sqlite3");
  const journal = new Database(db, { readonly: true });
  try {
    const decidedAt = new Map();
    const stepsMs = new Map();
    const bytes = new Map();
    const seen = new Set();
    const blobLength = journal
      .prepare("SELECT length(CAST(text AS BLOB)) FROM blobs WHERE hash = ?")
      .pluck();
    const rows = journal
      .prepare("SELECT at, type, iteration, body, meta FROM events ORDER BY seq")
      .iterate();
    const add = (map, key, value) => map.set(key, (map.get(key) ?? 0) + value);
    for (const row of rows) {
      let added = Buffer.byteLength(row.body) + Buffer.byteLength(row.meta ?? "");
      for (const [, hash] of row.body.matchAll(/"\$blob":"([0-9a-f]{64})"/g)) {
        if (seen.has(hash)) continue;
        seen.add(hash);
        added += blobLength.get(hash) ?? 0;
      }
      add(bytes, row.iteration, added);
      if (row.type === "step-finished") {
        add(stepsMs, row.iteration, JSON.parse(row.body).outcome.duration_ms);
      }
      if (row.type === "decision-recorded") decidedAt.set(row.iteration, Date.parse(row.at));
    }
    return { decidedAt, stepsMs, bytes };
  } finally {
    journal.close();
  }
}

/**
 * The long task's figures at attempt `k` of `attempts`, over the WINDOW attempts around it
 * (fewer at the ends; never the first, whose time holds the process's start-up) in every round's
 * run (`rounds`, each `attemptsOf` one journal): the median attempt's time from the decision
 * before it to its own — and of that, what is not its steps' (the runner's own share) — and the
 * mean bytes an attempt added. Medians of every round's attempts pooled, as a busy machine
 * stretches single attempts and whole spells of one run.
 */
function figuresAt(k, attempts, rounds) {
  const last = Math.min(attempts, Math.max(k + WINDOW / 2, WINDOW + 1));
  const first = Math.max(2, last - WINDOW + 1);
  const window = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const wall = rounds.flatMap(({ decidedAt }) =>
    window.map((i) => decidedAt.get(i) - decidedAt.get(i - 1)),
  );
  const own = rounds.flatMap(({ decidedAt, stepsMs }) =>
    window.map((i) => decidedAt.get(i) - decidedAt.get(i - 1) - (stepsMs.get(i) ?? 0)),
  );
  const total = rounds.reduce(
    (sum, { bytes }) => sum + window.reduce((part, i) => part + (bytes.get(i) ?? 0), 0),
    0,
  );
  return {
    attempt: k,
    window: [first, last],
    ms_per_iteration: median(wall),
    runner_ms_per_iteration: median(own),
    bytes_per_attempt: Math.round(total / (window.length * rounds.length)),
  };
}

/**
 * V8's compiling tiers off: the control run. Its time per attempt does not fall while V8 warms
 * up, so a figure that moves with the attempts there is the runner's, not the JIT's.
 */
const INTERPRETED = ["--no-opt", "--no-sparkplug", "--no-maglev"];

/** The long task's ±20% target: every figure within it of attempt LONG[0]'s. */
const BAND = 0.2;

const sizes = SIZES.map(measureSize);

/** Runs of the long task per mode and build, taking turns (LOOPGATE_SCALE_LONG_ROUNDS). */
const LONG_ROUNDS = Number(process.env.LOOPGATE_SCALE_LONG_ROUNDS ?? 3);

/** Each long-task contender: NO_PROGRESS off or watched, this build or the baseline, JIT or not. */
const contenders =
  LONG.length === 0
    ? []
    : LONG_MODES.flatMap((mode) => {
        const watched = mode === "watched";
        return [
          ...(BASELINE ? [{ watched, of: BASELINE, nodeFlags: [] }] : []),
          { watched, of: cli, nodeFlags: [] },
          { watched, of: cli, nodeFlags: INTERPRETED },
        ];
      });

/** Every contender's runs of the most attempts asked, round by round, each read back then dropped. */
const longRuns = contenders.map(() => []);
for (let round = 0; round < LONG_ROUNDS; round += 1) {
  for (const [index, { watched, of, nodeFlags }] of contenders.entries()) {
    const run = runLong(Math.max(...LONG), watched, of, nodeFlags);
    longRuns[index]?.push({ ms: run.ms, bytes: run.bytes, per: attemptsOf(run.db) });
    rmSync(run.db);
  }
}

const long = contenders.map(({ watched, of, nodeFlags }, index) => {
  const runs = longRuns[index] ?? [];
  const attempts = Math.max(...LONG);
  return {
    build: of === cli ? "this" : "baseline",
    attempts,
    no_progress: watched,
    v8: nodeFlags.length === 0 ? "jit" : "interpreted",
    rounds: runs.length,
    ms: median(runs.map((run) => run.ms)),
    bytes: median(runs.map((run) => run.bytes)),
    at: LONG.map((k) =>
      figuresAt(
        k,
        attempts,
        runs.map((run) => run.per),
      ),
    ),
  };
});

const fmt = (n) => String(Math.round(n)).padStart(8);
console.log(
  `loopgate at scale: trivial steps, 2 attempts per task, --concurrency ${CONCURRENCY}, median of ${ROUNDS}`,
);
console.log(
  "   tasks  run ms/task  × xargs  × bare Node  RSS MiB    status   history   explain    resume    answer",
);
for (const s of sizes) {
  const perTaskMs = s.run.loopgate / s.tasks;
  console.log(
    `${String(s.tasks).padStart(8)}  ${perTaskMs.toFixed(2).padStart(11)}  ${(s.run.loopgate / s.run.xargs).toFixed(2).padStart(7)}  ${(s.run.loopgate / s.run.node).toFixed(2).padStart(11)}  ${String(s.run_rss_mib).padStart(7)}  ${fmt(s.reads.status)}  ${fmt(s.reads.history)}  ${fmt(s.reads.explain)}  ${fmt(s.reads.resume)}  ${fmt(s.reads.answer)}`,
  );
  if (BASELINE) {
    const baseline = s.run.baseline;
    console.log(
      `          baseline build: ${(baseline / s.tasks).toFixed(2)} ms/task, ${(baseline / s.run.node).toFixed(2)}× bare Node, RSS ${s.baseline_rss_mib} MiB; this build ${(s.run.loopgate / baseline).toFixed(2)}× the baseline`,
    );
  }
}
const slopes = sizes.slice(1).map((s, i) => {
  const before = sizes[i];
  const of = (get) => +slope(before.tasks, get(before), s.tasks, get(s)).toFixed(2);
  return {
    from: before.tasks,
    to: s.tasks,
    run: of((x) => x.run.loopgate),
    bare_node: of((x) => x.run.node),
    ...Object.fromEntries(Object.keys(s.reads).map((k) => [k, of((x) => x.reads[k])])),
  };
});
for (const s of slopes) {
  console.log(
    `  slope ${s.from}→${s.to}: run ${s.run} (bare Node ${s.bare_node}), status ${s.status}, history ${s.history}, explain ${s.explain}, resume ${s.resume}, answer ${s.answer}`,
  );
}
for (const l of long) {
  console.log(
    `${l.build === "baseline" ? "baseline build: " : ""}one long task of ${l.attempts} attempts, 9.3 KB test log per attempt, NO_PROGRESS ${l.no_progress ? "watched" : "off"}${l.v8 === "jit" ? "" : ", V8 interpreting only (control)"}, ${l.rounds} runs: ${fmt(l.ms)} ms (median), journal ${(l.bytes / 2 ** 20).toFixed(2)} MiB`,
  );
  const base = l.at[0];
  const ratio = (a, get) => get(a) / get(base);
  const times = (a, get) => ratio(a, get).toFixed(2);
  const within = (get) => l.at.every((a) => Math.abs(ratio(a, get) - 1) <= BAND);
  const grows = l.at.some((a) => ratio(a, (x) => x.ms_per_iteration) > 1 + BAND);
  for (const a of l.at) {
    console.log(
      `  at attempt ${String(a.attempt).padStart(4)} (attempts ${a.window[0]}–${a.window[1]}): ${a.ms_per_iteration.toFixed(1).padStart(6)} ms/iteration (runner's own ${a.runner_ms_per_iteration.toFixed(1).padStart(5)}), ${String(a.bytes_per_attempt).padStart(6)} bytes/attempt; × attempt ${base.attempt}: ${times(a, (x) => x.ms_per_iteration)} (own ${times(a, (x) => x.runner_ms_per_iteration)}), ${times(a, (x) => x.bytes_per_attempt)}`,
    );
  }
  console.log(
    `  ±${BAND * 100}% of attempt ${base.attempt}: ms/iteration ${within((x) => x.ms_per_iteration) ? "pass" : "FAIL"}${grows ? " (grows)" : ""}, bytes/attempt ${within((x) => x.bytes_per_attempt) ? "pass" : "FAIL"}`,
  );
}
await mkdir(new URL("out/", import.meta.url), { recursive: true });
await writeFile(
  new URL("out/scale.json", import.meta.url),
  `${JSON.stringify({ concurrency: CONCURRENCY, rounds: ROUNDS, sizes, slopes, long }, null, 2)}\n`,
);
rmSync(dir, { recursive: true, force: true });
