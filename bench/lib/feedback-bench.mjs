// The feedback bench (issue 3, item 8), run after `npm run build`: key-fact recall at 500
// characters over the fixture corpus against first/last-500 baselines, stream throughput on a
// large synthetic log against a read-and-split baseline, and the CLI's peak RSS on that log.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval } from "node:timers";
import { fileURLToPath, pathToFileURL } from "node:url";
import { factCounts } from "./fact-recall.mjs";
import { splitLines } from "./split-lines.mjs";
import { median } from "./stats.mjs";
import { writeSyntheticLog } from "./synthetic-log.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const dist = join(root, "dist");

export const TARGETS = { recall: 0.95, throughputRatio: 0.5, peakRssMb: 150 };
const MAX_LENGTH = 500;

const importDist = (path) => import(pathToFileURL(join(dist, path)).href);

/** `fixtures/runners/<runner>/<case>/output*.txt` with the case's `expected.json`. */
function corpus() {
  const base = join(root, "fixtures", "runners");
  const cases = [];
  if (!existsSync(base)) return cases;
  for (const runner of readdirSync(base).sort()) {
    const runnerDir = join(base, runner);
    for (const name of readdirSync(runnerDir).sort()) {
      const dir = join(runnerDir, name);
      for (const output of readdirSync(dir).sort()) {
        if (!/^output.*\.txt$/.test(output)) continue;
        // A format that states the facts differently (JUnit has no line for a timeout) has its
        // own `expected.<format>.json`, as the corpus test reads it; else the case's.
        const format = output.slice("output".length, -".txt".length).replace(/^\./, "");
        const expectedFile =
          [join(dir, `expected.${format}.json`), join(dir, "expected.json")].find(
            (file) => format !== "" && existsSync(file),
          ) ?? join(dir, "expected.json");
        if (!existsSync(expectedFile)) continue;
        const expected = JSON.parse(readFileSync(expectedFile, "utf8"));
        const failures = Array.isArray(expected) ? expected : (expected.failures ?? []);
        cases.push({ name: relative(root, join(dir, output)), file: join(dir, output), failures });
      }
    }
  }
  return cases;
}

const codePoints = (text) => Array.from(text);

async function recallFigures(stream, stripAnsi, testFeedback) {
  const cases = corpus();
  const totals = { loopgate: [0, 0], wholeLog: [0, 0], first500: [0, 0], last500: [0, 0] };
  const perCase = [];
  for (const entry of cases) {
    const { feedback } = await stream.logFeedback(stream.openLog(entry.file), {
      kind: "test",
      maxLength: MAX_LENGTH,
      parsers: stream.runnerParsers,
    });
    const text = [feedback.summary, ...feedback.actionableItems].join("\n");
    const log = readFileSync(entry.file, "utf8");
    const plain = codePoints(stripAnsi(log));
    // The pure core on the whole log, not streamed: what the stream reduction may cost.
    const whole = testFeedback(log, { maxLength: MAX_LENGTH, parsers: stream.runnerParsers });
    const texts = {
      loopgate: text,
      wholeLog: [whole.summary, ...whole.actionableItems].join("\n"),
      first500: plain.slice(0, MAX_LENGTH).join(""),
      last500: plain.slice(-MAX_LENGTH).join(""),
    };
    const row = { case: entry.name, runner: feedback.runner };
    for (const [name, candidate] of Object.entries(texts)) {
      // `…:N`, `…/rest` and `…SEP leaf` read as the real-world bench reads them: the items
      // write a file, a directory or a stem once, and the measure follows them back.
      const { found, total } = factCounts(candidate, entry.failures, { elisions: true });
      totals[name][0] += found;
      totals[name][1] += total;
      row[name] = total === 0 ? null : found / total;
    }
    perCase.push(row);
  }
  const ratio = ([found, total]) => (total === 0 ? null : found / total);
  return {
    cases: cases.length,
    facts: totals.loopgate[1],
    loopgate: ratio(totals.loopgate),
    wholeLog: ratio(totals.wholeLog),
    first500: ratio(totals.first500),
    last500: ratio(totals.last500),
    target: TARGETS.recall,
    perCase,
  };
}

async function throughputFigures(stream, file, bytes, rounds) {
  const loopgateMs = [];
  const baselineMs = [];
  let feedback;
  let reduction;
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ["loopgate", "baseline"] : ["baseline", "loopgate"];
    for (const which of order) {
      const start = performance.now();
      if (which === "loopgate") {
        ({ feedback, reduction } = await stream.logFeedback(stream.openLog(file), {
          kind: "test",
          maxLength: MAX_LENGTH,
          parsers: stream.runnerParsers,
        }));
        loopgateMs.push(performance.now() - start);
      } else {
        await splitLines(file);
        baselineMs.push(performance.now() - start);
      }
    }
  }
  const mbps = (ms) => bytes / 1024 / 1024 / (ms / 1000);
  const ratio = mbps(median(loopgateMs)) / mbps(median(baselineMs));
  return {
    bytes,
    rounds,
    loopgateMs,
    baselineMs,
    loopgateMBps: mbps(median(loopgateMs)),
    baselineMBps: mbps(median(baselineMs)),
    ratio,
    target: TARGETS.throughputRatio,
    reduction: {
      lines: reduction.lines,
      keptLines: reduction.keptLines,
      droppedLines: reduction.droppedLines,
      keptChars: reduction.text.length,
    },
    feedback: { summary: feedback.summary, items: feedback.actionableItems.length },
  };
}

/** Peak RSS of a child in MB: `/usr/bin/time -v` when present, else /proc VmHWM polled. */
async function peakRss(argv) {
  if (existsSync("/usr/bin/time")) {
    const result = spawnSync("/usr/bin/time", ["-v", ...argv], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1];
    if (result.status !== 0) throw new Error(`${argv.join(" ")}: exit ${result.status}`);
    return { mb: Number(kb) / 1024, stdout: result.stdout, method: "/usr/bin/time -v" };
  }
  const child = spawn(argv[0], argv.slice(1), { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.on("data", (data) => (stdout += data));
  let kb = 0;
  const timer = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      kb = Math.max(kb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // Exited between two polls.
    }
  }, 10);
  const [code] = await new Promise((resolve) => child.on("close", (...args) => resolve(args)));
  clearInterval(timer);
  if (code !== 0) throw new Error(`${argv.join(" ")}: exit ${code}`);
  return { mb: kb / 1024, stdout, method: "/proc/<pid>/status VmHWM, polled" };
}

const fmt = (value, digits = 3) =>
  value === null
    ? "n/a"
    : value.toLocaleString("en-US", {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
const verdict = (pass) => (pass ? "PASS" : "MISS");

/**
 * Runs the three measurements, prints them side by side and writes bench/out/feedback.json.
 * `sizeMb` (default 200, or LOOPGATE_BENCH_LOG_MB) is the synthetic log's size; `rounds` the
 * interleaved throughput rounds (default 3, or LOOPGATE_BENCH_FEEDBACK_ROUNDS).
 */
export async function runFeedbackBench({
  sizeMb = Number(process.env.LOOPGATE_BENCH_LOG_MB ?? 200),
  rounds = Number(process.env.LOOPGATE_BENCH_FEEDBACK_ROUNDS ?? 3),
  log = console.log,
} = {}) {
  const stream = await importDist("feedback-stream/index.js");
  const { stripAnsi } = await importDist("core/feedback/clean/ansi.js");
  const { testFeedback } = await importDist("core/feedback/test-feedback.js");

  log(`feedback bench — node ${process.version}\n`);
  const recall = await recallFigures(stream, stripAnsi, testFeedback);
  log(
    `a) key-fact recall at ${MAX_LENGTH} characters — ${recall.cases} outputs, ${recall.facts} facts`,
  );
  if (recall.cases === 0) log("   no fixture corpus with expected.json under fixtures/runners/");
  log(`   loopgate feedback  ${fmt(recall.loopgate)}   target ≥ ${TARGETS.recall}`);
  log(`   (same, whole log)  ${fmt(recall.wholeLog)}   pure testFeedback on the unstreamed log`);
  log(`   first 500 chars    ${fmt(recall.first500)}`);
  log(`   last 500 chars     ${fmt(recall.last500)}`);
  recall.pass = recall.loopgate !== null && recall.loopgate >= TARGETS.recall;
  log(`   ${recall.loopgate === null ? "n/a" : verdict(recall.pass)}\n`);

  const dir = mkdtempSync(join(tmpdir(), "loopgate-feedback-bench-"));
  try {
    const file = join(dir, "synthetic.log");
    const { facts, bytes } = await writeSyntheticLog(file, sizeMb * 1024 * 1024);
    const throughput = await throughputFigures(stream, file, bytes, rounds);
    const planted = factCounts([throughput.feedback.summary].join("\n"), facts.slice(0, 1));
    throughput.firstPlantedFailureInSummary = planted.found / planted.total;
    throughput.pass = throughput.ratio >= TARGETS.throughputRatio;
    log(
      `b) throughput on a ${fmt(bytes / 1024 / 1024, 0)} MB synthetic log (median of ${rounds} interleaved rounds)`,
    );
    log(`   loopgate stream reduction + extraction  ${fmt(throughput.loopgateMBps, 1)} MB/s`);
    log(`   baseline read + decode + split lines     ${fmt(throughput.baselineMBps, 1)} MB/s`);
    log(
      `   ratio ${fmt(throughput.ratio, 2)}   target ≥ ${TARGETS.throughputRatio}   ${verdict(throughput.pass)}`,
    );
    log(
      `   kept ${throughput.reduction.keptLines.toLocaleString("en-US")} of ${throughput.reduction.lines.toLocaleString("en-US")} lines (${fmt(throughput.reduction.keptChars / 1024, 0)} KB); summary: ${throughput.feedback.summary}\n`,
    );

    const cli = await peakRss([process.execPath, "bin/loopgate.js", "feedback", file, "--json"]);
    const baseline = await peakRss([process.execPath, "bench/lib/split-lines.mjs", file]);
    const idle = await peakRss([process.execPath, "-e", "0"]);
    const printed = JSON.parse(cli.stdout).feedback;
    const found = factCounts([printed.summary, ...printed.actionable_items].join("\n"), facts);
    const rss = {
      method: cli.method,
      loopgateMb: cli.mb,
      splitLinesMb: baseline.mb,
      nodeIdleMb: idle.mb,
      target: TARGETS.peakRssMb,
      pass: cli.mb <= TARGETS.peakRssMb,
      plantedFactRecall: found.found / found.total,
    };
    log(`c) peak RSS on that log (${rss.method})`);
    log(
      `   node bin/loopgate.js feedback <log>  ${fmt(rss.loopgateMb, 1)} MB   target ≤ ${TARGETS.peakRssMb} MB   ${verdict(rss.pass)}`,
    );
    log(`   baseline: read + split lines         ${fmt(rss.splitLinesMb, 1)} MB`);
    log(`   node -e 0                            ${fmt(rss.nodeIdleMb, 1)} MB`);
    log(`   planted failures' facts in the CLI's feedback: ${fmt(rss.plantedFactRecall, 3)}\n`);

    const report = {
      environment: { node: process.version, date: new Date().toISOString() },
      recall,
      throughput,
      rss,
    };
    const outDir = join(root, "bench", "out");
    await mkdir(outDir, { recursive: true });
    await writeFile(join(outDir, "feedback.json"), `${JSON.stringify(report, null, 2)}\n`);
    log("written: bench/out/feedback.json");
    return report;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
