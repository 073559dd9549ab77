// Which real-world facts the feedback misses, and why: run `npm run build`, then
// `node bench/lib/fact-misses.mjs [CAP] [FILTER]` (FILTER keeps the cases whose name contains
// it). Each fact part the feedback at CAP (500 by default) does not show is "absent" when even an
// uncapped feedback lacks it (the parser never found it) or "cut" when the cap left it out.
// Prints totals by part and reason, then each case's misses.
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { factCounts } from "./fact-recall.mjs";
import { realWorldCases } from "./real-world-bench.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const stream = await import(pathToFileURL(join(root, "dist", "feedback-stream/index.js")).href);
const cap = Number(process.argv[2] ?? 500);
const filter = process.argv[3] ?? "";
const PARTS = ["test", "file", "line", "expected", "received", "keyword", "rule"];
const textAt = async (entry, maxLength) => {
  const { feedback } = await stream.logFeedback(stream.openLog(entry.output), {
    kind: "test",
    maxLength,
    parsers: stream.runnerParsers,
    ...(entry.facts.root ? { root: entry.facts.root } : {}),
  });
  return [feedback.summary, ...feedback.actionableItems].join("\n");
};
const totals = {};
const lines = [];
for (const entry of realWorldCases()) {
  if (!entry.name.includes(filter)) continue;
  const capped = await textAt(entry, cap);
  const whole = await textAt(entry, 1_000_000);
  const misses = [];
  for (const fact of entry.facts.facts ?? []) {
    for (const part of PARTS) {
      if (fact[part] === null || fact[part] === undefined) continue;
      const single = [{ [part]: fact[part] }];
      const at = factCounts(capped, single, { elisions: true }).found === 1;
      if (at) continue;
      const reason = factCounts(whole, single, { elisions: true }).found === 1 ? "cut" : "absent";
      totals[`${reason} ${part}`] = (totals[`${reason} ${part}`] ?? 0) + 1;
      misses.push(`    ${reason.padEnd(6)} ${part.padEnd(8)} ${JSON.stringify(fact[part])}`);
    }
  }
  lines.push(`${entry.name}: ${misses.length} missed`, ...misses);
}
console.log(
  Object.entries(totals)
    .sort()
    .map(([key, n]) => `${key}: ${n}`)
    .join("\n"),
);
console.log(lines.join("\n"));
