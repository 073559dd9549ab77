// Benchmarks loopgate after `npm run build` (run it as `npm run bench`).
//
// Every figure is measured against a baseline taken in the same invocation, on the same
// machine, in the same conditions, so that the ratios mean something on a loaded or slow box:
//   a) in-process throughput of the pure core (`decide`, `verdict`) on the seed documents,
//      next to a JSON round trip of the same input;
//   b) wall time of one CLI run, next to `node -e 0` (the floor of any Node CLI), interleaved;
//      the same bundle run without its V8 code cache is shown for information.
// Prints a table and writes the figures to bench/out/latest.json. No dependencies.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { interleavedOpsPerSecond, interleavedWallTimes, median, quantile } from "./lib/stats.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const CLI_TARGET = 1.5;
const CLI_RUNS = Number(process.env.LOOPGATE_BENCH_RUNS ?? 30);

const { decodeDecideDocument, decide, decodeVerdictDocument, verdict, parseText } = await import(
  new URL("../dist/index.js", import.meta.url).href
);

async function seed(name) {
  const file = `examples/seed/${name}`;
  return parseText(await readFile(new URL(`../${file}`, import.meta.url), "utf8"), file);
}

/** A JSON round trip of the decoded input: the cost of touching the document once. */
const jsonRoundTrip = (input) => () => JSON.parse(JSON.stringify(input));

const iterationCheck = decodeDecideDocument(await seed("iteration-check.yaml"));
const escalation = decodeDecideDocument(await seed("escalation.yaml"));
const verdictInput = decodeVerdictDocument(await seed("verdict.yaml"));

const cases = [
  {
    name: "decide iteration-check.yaml",
    run: () => decide(iterationCheck),
    baseline: jsonRoundTrip(iterationCheck),
  },
  {
    name: "decide escalation.yaml",
    run: () => decide(escalation),
    baseline: jsonRoundTrip(escalation),
  },
  {
    name: "verdict verdict.yaml",
    run: () => verdict(verdictInput),
    baseline: jsonRoundTrip(verdictInput),
  },
];

// Touch each case once so that a thrown error shows up before any timing.
for (const { run } of cases) run();

const throughput = cases.map(({ name, run, baseline }) => {
  const { rounds, baselineRounds } = interleavedOpsPerSecond({
    rounds: run,
    baselineRounds: baseline,
  });
  const opsPerSec = median(rounds);
  const baselineOpsPerSec = median(baselineRounds);
  return {
    name,
    opsPerSec,
    minOpsPerSec: Math.min(...rounds),
    maxOpsPerSec: Math.max(...rounds),
    rounds: rounds.length,
    baselineOpsPerSec,
    // How many JSON round trips of the input one call costs: the median of the rounds' ratios,
    // each round's pair measured back to back.
    costInJsonRoundTrips: median(rounds.map((ops, i) => baselineRounds[i] / ops)),
  };
});

const decideArgs = ["decide", "examples/seed/iteration-check.yaml"];
const commands = {
  cli: [process.execPath, "bin/loopgate.js", ...decideArgs],
  baseline: [process.execPath, "-e", "0"],
  // For information: the same bundle without bin/loopgate.js's V8 code cache.
  noCodeCache: [process.execPath, "dist/cli.cjs", ...decideArgs],
};
const wall = interleavedWallTimes(commands, { runs: CLI_RUNS, cwd: root });
const summary = (samples) => ({
  medianMs: median(samples),
  p90Ms: quantile(samples, 0.9),
  minMs: Math.min(...samples),
});
const cli = {
  command: "node bin/loopgate.js decide examples/seed/iteration-check.yaml",
  baselineCommand: "node -e 0",
  runs: CLI_RUNS,
  cli: summary(wall.cli),
  baseline: summary(wall.baseline),
  ratioOfMedians: median(wall.cli) / median(wall.baseline),
  target: CLI_TARGET,
  noCodeCache: {
    command: "node dist/cli.cjs decide examples/seed/iteration-check.yaml",
    ...summary(wall.noCodeCache),
    ratioOfMedians: median(wall.noCodeCache) / median(wall.baseline),
  },
};
cli.pass = cli.ratioOfMedians <= CLI_TARGET;

const fmt = (value, digits = 1) =>
  value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(headers, rows) {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => row[i].length)),
  );
  const line = (cells) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join("  ");
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

const environment = {
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "unknown",
  loadAverage1m: loadavg()[0],
  date: new Date().toISOString(),
};

console.log(
  `loopgate bench — node ${environment.node}, ${environment.platform}, ${environment.cpus} CPUs, load ${fmt(environment.loadAverage1m, 2)}\n`,
);
console.log(
  "a) in-process throughput (median of rounds; baseline: JSON round trip of the input)\n",
);
console.log(
  table(
    ["case", "ops/s", "min ops/s", "max ops/s", "baseline ops/s", "cost ÷ baseline"],
    throughput.map((row) => [
      row.name,
      fmt(row.opsPerSec, 0),
      fmt(row.minOpsPerSec, 0),
      fmt(row.maxOpsPerSec, 0),
      fmt(row.baselineOpsPerSec, 0),
      `${fmt(row.costInJsonRoundTrips, 2)}×`,
    ]),
  ),
);
console.log(`\nb) CLI wall time, ${CLI_RUNS} interleaved runs each\n`);
console.log(
  table(
    ["command", "median ms", "p90 ms", "min ms", "÷ baseline"],
    [
      [cli.command, cli.cli],
      [cli.baselineCommand, cli.baseline],
      [`${cli.noCodeCache.command} (no code cache, info)`, cli.noCodeCache],
    ].map(([name, s]) => [
      name,
      fmt(s.medianMs),
      fmt(s.p90Ms),
      fmt(s.minMs),
      `${fmt(s.medianMs / cli.baseline.medianMs, 2)}×`,
    ]),
  ),
);
console.log(
  `\nratio of medians: ${fmt(cli.ratioOfMedians, 2)}× (target ≤ ${fmt(CLI_TARGET, 1)}×) ${cli.pass ? "PASS" : "MISS"}`,
);

const outDir = new URL("./out/", import.meta.url);
await mkdir(outDir, { recursive: true });
await writeFile(
  new URL("latest.json", outDir),
  `${JSON.stringify({ environment, throughput, cli }, null, 2)}\n`,
);
console.log("\nwritten: bench/out/latest.json");
