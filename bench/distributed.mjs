// Benchmarks the distributed driver after `npm run build` (run it as `node bench/distributed.mjs`).
//
// Starts a throwaway PostgreSQL server the way the tests do (initdb + pg_ctl in a temporary
// directory; skipped, with the reason, when the server binaries are missing), then measures in
// one run, against the same task file of trivial steps (`true`, `true`, an approving review):
//   - tasks and steps per second on the SQLite journal (`loopgate run`), the baseline;
//   - the same on PostgreSQL with one `loopgate worker` and with two (submitted with
//     `run --submit-only` to workers already running, timed from the submission to the last
//     task's end by DBOS's own timestamps);
//   - database round trips per step: every query a worker sends, counted by a preload that
//     wraps pg's Client#query (bench/lib/count-queries.cjs), minus what the idle worker sends
//     in the same time (its queue polling);
//   - enqueue-to-start latency of a task submitted to an idle worker: to its task workflow's
//     start, and to its first step's start (a step runs in a work workflow, on another queue);
//   - the recovery after `kill -9` of a worker in a step: the time until a live worker has the
//     task again, for two leases.
// Writes the figures to bench/out/distributed.json.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import pg from "pg";
import { median } from "./lib/stats.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(root, "bin", "loopgate.js");
const TASKS = Number(process.env.LOOPGATE_BENCH_TASKS ?? 40);
const CONCURRENCY = 4;
const LATENCY_SAMPLES = 5;
const LEASES_MS = [2_000, 5_000];

const dir = mkdtempSync(join(tmpdir(), "loopgate-bench-distributed-"));
// The tests' server helpers, compiled for this script (they live beside the tests, not in dist).
const helpers = join(dir, "postgres-server.mjs");
await build({
  entryPoints: [join(root, "src/test-support/postgres-server.ts")],
  outfile: helpers,
  format: "esm",
  platform: "node",
  logLevel: "warning",
});
const { findPostgresBinaries, startPostgresServer, stopPostgresServer } = await import(
  pathToFileURL(helpers).href
);
const binaries = findPostgresBinaries();
if (!binaries.found) {
  console.log(`distributed bench: skipped: ${binaries.reason}`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

// Its own directory: the server's user (postgres, when run as root) must own it.
const serverDir = mkdtempSync(join(tmpdir(), "loopgate-bench-pg-"));
const server = await startPostgresServer(binaries.binDir, serverDir);
const children = [];
let databases = 0;

/** A new database on the bench's server, migrated as `db migrate` does. */
function freshStore() {
  const url = new URL(server.url);
  databases += 1;
  url.pathname = `/bench_${databases}`;
  const migrated = spawnSync(process.execPath, [BIN, "db", "migrate", "--store", url.toString()], {
    encoding: "utf8",
  });
  if (migrated.status !== 0) throw new Error(`db migrate: ${migrated.stderr}`);
  return url.toString();
}

/** A task file of `tasks` tasks of three trivial steps each; `hang` names one whose test hangs. */
function taskFile(name, tasks, hang) {
  const file = join(dir, `${name}.json`);
  const hung = join(dir, `${name}.hung`);
  const test =
    hang === undefined
      ? "true"
      : `if [ "$LOOPGATE_TASK_ID" = '${hang}' ] && [ ! -e '${hung}' ]; then touch '${hung}'; exec sleep 600; fi`;
  writeFileSync(
    file,
    JSON.stringify({
      iteration_control: { max_iterations: 3 },
      steps: {
        generate: { command: "true" },
        test: { command: test },
        review: { command: `echo '{"status": "approve", "feedback": ""}'` },
      },
      tasks: Array.from({ length: tasks }, (_, index) => ({ id: `t${index + 1}`, prompt: "x" })),
    }),
  );
  return { file, hung };
}

/** Starts `loopgate worker`, its queries counted into `counter` when given; resolves once it works. */
function startWorker(url, executor, args = [], counter = undefined) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    if (counter !== undefined) {
      env.NODE_OPTIONS = `--require ${join(root, "bench/lib/count-queries.cjs")}`;
      env.LOOPGATE_BENCH_QUERIES = counter;
    }
    const child = spawn(
      process.execPath,
      [BIN, "worker", "--store", url, "--executor", executor, ...args],
      {
        env,
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    children.push(child);
    let said = "";
    child.stderr.setEncoding("utf8").on("data", (text) => {
      said += text;
      if (said.includes("working on")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`worker ${executor} exited ${code}: ${said}`)));
  });
}

function stopWorker(child, signal = "SIGTERM") {
  return new Promise((resolve) => {
    child.on("exit", resolve);
    child.kill(signal);
  });
}

function submit(url, file) {
  const submitted = spawnSync(
    process.execPath,
    [BIN, "run", file, "--store", url, "--submit-only"],
    {
      encoding: "utf8",
    },
  );
  if (submitted.status !== 0) throw new Error(`run --submit-only: ${submitted.stderr}`);
  return Number(/submitted run (\d+)/.exec(submitted.stdout)[1]);
}

/** The run's task workflows as DBOS has them. */
async function tasksOf(db, runId) {
  const found = await db.query(
    `SELECT workflow_uuid, status, executor_id, created_at::float8 AS created, started_at_epoch_ms::float8 AS started,
            updated_at::float8 AS updated
       FROM dbos.workflow_status WHERE workflow_uuid LIKE $1`,
    [`loopgate-run-${runId}-task-%`],
  );
  return found.rows;
}

async function until(check, what, timeoutMs = 300_000) {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(20)) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: timed out`);
  }
}

const queriesIn = (counter) => (existsSync(counter) ? Number(readFileSync(counter, "utf8")) : 0);

/** One PostgreSQL throughput run with `workers` workers; the first one's queries counted. */
async function postgresRun(workers) {
  const url = freshStore();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const counter = join(dir, `queries-${workers}.txt`);
  const started = await Promise.all(
    Array.from({ length: workers }, (_, index) =>
      startWorker(
        url,
        `bench-${workers}-${index}`,
        ["--concurrency", String(CONCURRENCY)],
        workers === 1 ? counter : undefined,
      ),
    ),
  );
  // The idle worker's own rate, for the per-step figure.
  await sleep(1_000);
  const idleFrom = queriesIn(counter);
  const idleStart = performance.now();
  await sleep(3_000);
  const idlePerMs = (queriesIn(counter) - idleFrom) / (performance.now() - idleStart);
  const { file } = taskFile(`throughput-${workers}`, TASKS);
  const before = queriesIn(counter);
  const submittedAt = performance.now();
  const runId = submit(url, file);
  const rows = await until(async () => {
    const found = await tasksOf(db, runId);
    return found.length === TASKS && found.every((row) => row.status === "SUCCESS") && found;
  }, "the run");
  const windowMs = performance.now() - submittedAt;
  await sleep(100);
  const queries = queriesIn(counter) - before;
  const first = Math.min(...rows.map((row) => row.created));
  const last = Math.max(...rows.map((row) => row.updated));
  const seconds = (last - first) / 1_000;
  const byWorker = {};
  for (const row of rows) byWorker[row.executor_id] = (byWorker[row.executor_id] ?? 0) + 1;
  // The task workflows wait on the unthrottled queue; the steps run as work workflows, which
  // are what a second worker shares.
  const work = await db.query(
    `SELECT executor_id, count(*)::int AS n FROM dbos.workflow_status WHERE workflow_uuid LIKE $1 GROUP BY executor_id`,
    [`loopgate-run-${runId}-work-%`],
  );
  const workByWorker = Object.fromEntries(work.rows.map((row) => [row.executor_id, row.n]));
  await Promise.all(started.map((child) => stopWorker(child)));
  await db.end();
  return {
    workers,
    seconds,
    tasksPerSecond: TASKS / seconds,
    stepsPerSecond: (TASKS * 3) / seconds,
    tasksByWorker: byWorker,
    workByWorker,
    ...(workers === 1
      ? {
          queries,
          idleQueriesPerSecond: idlePerMs * 1_000,
          queriesPerStep: (queries - idlePerMs * windowMs) / (TASKS * 3),
        }
      : {}),
  };
}

function sqliteRun() {
  const { file } = taskFile("sqlite", TASKS);
  const db = join(dir, "bench.db");
  const start = performance.now();
  const ran = spawnSync(
    process.execPath,
    [BIN, "run", file, "--db", db, "--quiet", "--concurrency", String(CONCURRENCY)],
    {
      encoding: "utf8",
    },
  );
  const seconds = (performance.now() - start) / 1_000;
  if (ran.status !== 0) throw new Error(`loopgate run: ${ran.stderr}`);
  return { seconds, tasksPerSecond: TASKS / seconds, stepsPerSecond: (TASKS * 3) / seconds };
}

/** Enqueue-to-start of single tasks submitted to an idle worker, by DBOS's timestamps. */
async function latency() {
  const url = freshStore();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const worker = await startWorker(url, "bench-latency");
  const samples = [];
  const stepSamples = [];
  for (let sample = 0; sample < LATENCY_SAMPLES; sample += 1) {
    await sleep(300 + sample * 170);
    const runId = submit(url, taskFile(`latency-${sample}`, 1).file);
    const [row] = await until(async () => {
      const found = await tasksOf(db, runId);
      return found.length === 1 && found[0].status === "SUCCESS" && found;
    }, "the latency task");
    samples.push(row.started - row.created);
    // The task's first step: on PostgreSQL it starts in a work workflow, on a queue of its own.
    const step = await db.query(
      "SELECT extract(epoch FROM at) * 1000 AS at FROM loopgate.events WHERE run_id = $1 AND type = 'step-started' ORDER BY seq LIMIT 1",
      [runId],
    );
    stepSamples.push(Number(step.rows[0].at) - row.created);
  }
  await stopWorker(worker);
  await db.end();
  return {
    medianMs: median(samples),
    maxMs: Math.max(...samples),
    samplesMs: samples,
    stepMedianMs: median(stepSamples),
    stepMaxMs: Math.max(...stepSamples),
    stepSamplesMs: stepSamples,
  };
}

/** A worker killed in a step, with `leaseMs`: how long until another worker has the task. */
async function recovery(leaseMs) {
  const url = freshStore();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const lease = ["--lease", `${leaseMs}ms`];
  const victim = await startWorker(url, "bench-victim", lease);
  const { file, hung } = taskFile(`recovery-${leaseMs}`, 1, "t1");
  const runId = submit(url, file);
  await until(() => existsSync(hung), "the hanging step");
  const survivor = await startWorker(url, "bench-survivor", lease);
  const killedAt = Date.now();
  await stopWorker(victim, "SIGKILL");
  const moved = await until(async () => {
    const [row] = await tasksOf(db, runId);
    return row.status === "ENQUEUED" || row.executor_id === "bench-survivor"
      ? Date.now()
      : undefined;
  }, "the move");
  const taken = await until(async () => {
    const [row] = await tasksOf(db, runId);
    return row.executor_id === "bench-survivor" && row.status !== "ENQUEUED"
      ? Date.now()
      : undefined;
  }, "the survivor's start");
  const steps = await db.query(
    "SELECT meta FROM loopgate.events WHERE run_id = $1 AND type = 'step-started' AND effect_id LIKE '%test%' ORDER BY seq LIMIT 1",
    [runId],
  );
  try {
    process.kill(-steps.rows[0].meta.pid, "SIGKILL");
  } catch {
    // Gone already.
  }
  await stopWorker(survivor);
  await db.end();
  return { leaseMs, movedMs: moved - killedAt, takenMs: taken - killedAt };
}

const fmt = (value, digits = 1) => value.toFixed(digits);
try {
  const sqlite = sqliteRun();
  const one = await postgresRun(1);
  const two = await postgresRun(2);
  const latencies = await latency();
  const recoveries = [];
  for (const leaseMs of LEASES_MS) recoveries.push(await recovery(leaseMs));
  const results = {
    tasks: TASKS,
    stepsPerTask: 3,
    concurrency: CONCURRENCY,
    sqlite,
    postgres: [one, two],
    latency: latencies,
    recoveries,
  };
  console.log(`distributed bench: ${TASKS} tasks of 3 trivial steps, --concurrency ${CONCURRENCY}`);
  console.log(
    `  SQLite run:          ${fmt(sqlite.tasksPerSecond)} tasks/s, ${fmt(sqlite.stepsPerSecond)} steps/s (baseline)`,
  );
  for (const run of [one, two]) {
    console.log(
      `  PostgreSQL, ${run.workers} worker${run.workers === 1 ? " " : "s"}: ${fmt(run.tasksPerSecond)} tasks/s, ${fmt(run.stepsPerSecond)} steps/s (${fmt(run.stepsPerSecond / sqlite.stepsPerSecond, 2)}x SQLite; task workflows by worker ${JSON.stringify(run.tasksByWorker)}, work workflows by worker ${JSON.stringify(run.workByWorker)})`,
    );
  }
  console.log(
    `  round trips per step (1 worker): ${fmt(one.queriesPerStep)} (${one.queries} queries in the run, idle polling ${fmt(one.idleQueriesPerSecond)}/s subtracted)`,
  );
  console.log(
    `  enqueue-to-start (idle worker): median ${fmt(latencies.medianMs, 0)} ms, max ${fmt(latencies.maxMs, 0)} ms; to the first step's start: median ${fmt(latencies.stepMedianMs, 0)} ms, max ${fmt(latencies.stepMaxMs, 0)} ms`,
  );
  for (const entry of recoveries) {
    console.log(
      `  kill -9 in a step, lease ${entry.leaseMs / 1_000} s: moved to the queue after ${fmt(entry.movedMs / 1_000, 2)} s, running on the other worker after ${fmt(entry.takenMs / 1_000, 2)} s`,
    );
  }
  mkdirSync(join(root, "bench/out"), { recursive: true });
  writeFileSync(join(root, "bench/out/distributed.json"), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  stopPostgresServer(binaries.binDir, server.dataDir);
  rmSync(dir, { recursive: true, force: true });
  rmSync(serverDir, { recursive: true, force: true });
}
