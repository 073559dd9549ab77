// Benchmarks loopgate at many tasks, after `npm run build` (run it as `node bench/scale.mjs`).
//
//   a) `loopgate run --concurrency 8` over N tasks of trivial steps, two attempts each, against
//      `xargs -P 8` and a bare Node script spawning the same commands eight at a time, the three
//      taking turns in every round (median of LOOPGATE_SCALE_ROUNDS rounds), and run's peak
//      resident memory;
//   b) on the journal that run left: `status`, `history TASK`, `explain TASK` and `resume`
//      (nothing left to do), and one `answer` to a task paused at the end of a run;
//   c) the log-log slope of every figure between consecutive sizes: 1.0 is linear;
//   d) one long task: ms per iteration and journal bytes per attempt at 10, 50, 100 and 200
//      attempts (LOOPGATE_SCALE_LONG), each test step printing a 9.3 KB log, with NO_PROGRESS off
//      and watched (LOOPGATE_SCALE_LONG_MODES, default off,watched).
// Sizes: LOOPGATE_SCALE_SIZES (default 100,1000,5000); LOOPGATE_SCALE_LONG= (empty) skips d).
// Prints tables and writes the figures to bench/out/scale.json. LOOPGATE_SCALE_KEEP=DIR keeps
// each size's journals there (DIR/journal-N.db, DIR/journal-N-pause.db answered) to profile the
// commands on. No dependencies.
import { spawnSync } from "node:child_process";
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
const SIZES = (process.env.LOOPGATE_SCALE_SIZES ?? "100,1000,5000").split(",").map(Number);
const ROUNDS = Number(process.env.LOOPGATE_SCALE_ROUNDS ?? 3);
const LONG = (process.env.LOOPGATE_SCALE_LONG ?? "10,50,100,200")
  .split(",")
  .filter(Boolean)
  .map(Number);
/** The long task with NO_PROGRESS off, watched, or both (LOOPGATE_SCALE_LONG_MODES). */
const LONG_MODES = (process.env.LOOPGATE_SCALE_LONG_MODES ?? "off,watched").split(",");
const CONCURRENCY = 8;
const KEEP = process.env.LOOPGATE_SCALE_KEEP || undefined;

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

/** `loopgate run ARGS` timed, and its peak resident memory in MiB. */
function timedRun(args) {
  const rssFile = join(dir, "rss");
  const start = performance.now();
  const result = spawnSync(process.execPath, ["--require", rssProbe, cli, "run", ...args], {
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
  const times = { loopgate: [], xargs: [], node: [] };
  const rss = [];
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
  return { tasks: count, run, run_rss_mib: Math.round(median(rss)), reads };
}

/** `fn`'s results over ROUNDS calls. */
function repeat(fn) {
  return Array.from({ length: ROUNDS }, fn);
}

/** The log-log slope from (x1, y1) to (x2, y2): how y grows with x; 1 is linear. */
const slope = (x1, y1, x2, y2) => Math.log(y2 / y1) / Math.log(x2 / x1);

/**
 * One task of `attempts` attempts whose test prints a 9.3 KB log and fails until the last; with
 * `watched`, NO_PROGRESS is on (a window longer than the task, so it never fires) and every
 * decision reads every earlier attempt's signature.
 */
function measureLong(attempts, watched) {
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
  const ms = timed(loopgate("run", path, "--db", db, "--quiet"));
  const bytes = statSync(db).size;
  rmSync(db);
  return { attempts, no_progress: watched, ms, bytes };
}

const sizes = SIZES.map(measureSize);
const long = LONG_MODES.map((mode) =>
  LONG.map((attempts) => measureLong(attempts, mode === "watched")),
);

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
const longRows = long.flatMap((rows) =>
  rows.map((l, i) => {
    const before = rows[i - 1];
    const marginalMs =
      before === undefined
        ? l.ms / l.attempts
        : (l.ms - before.ms) / (l.attempts - before.attempts);
    const marginalBytes =
      before === undefined
        ? l.bytes / l.attempts
        : (l.bytes - before.bytes) / (l.attempts - before.attempts);
    return {
      ...l,
      ms_per_iteration: +marginalMs.toFixed(2),
      bytes_per_attempt: Math.round(marginalBytes),
    };
  }),
);
for (const [i, l] of longRows.entries()) {
  if (i === 0 || longRows[i - 1].no_progress !== l.no_progress) {
    console.log(
      `one long task, 9.3 KB test log per attempt, NO_PROGRESS ${l.no_progress ? "watched" : "off"}:`,
    );
  }
  console.log(
    `  ${String(l.attempts).padStart(4)} attempts: ${fmt(l.ms)} ms, journal ${(l.bytes / 2 ** 20).toFixed(2)} MiB; from the row above: ${l.ms_per_iteration} ms/iteration, ${l.bytes_per_attempt} bytes/attempt`,
  );
}
await mkdir(new URL("out/", import.meta.url), { recursive: true });
await writeFile(
  new URL("out/scale.json", import.meta.url),
  `${JSON.stringify({ concurrency: CONCURRENCY, rounds: ROUNDS, sizes, slopes, long: longRows }, null, 2)}\n`,
);
rmSync(dir, { recursive: true, force: true });
