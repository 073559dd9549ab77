// The real-world feedback bench (issue 8, item 7): run `npm run build`, then
// `node bench/real-world.mjs [--cases]`. Prints recall per tool and overall at 500 and 300
// characters beside head/tail baselines and writes bench/out/real-world.json; `--cases` also
// prints each case's recall and its feedback at 500.
import { mkdir, writeFile } from "node:fs/promises";
import { runRealWorldBench } from "./lib/real-world-bench.mjs";

const figures = await runRealWorldBench();
if (process.argv.includes("--cases")) {
  for (const row of figures.perCase) {
    const at500 = row.counts["loopgate@500"];
    console.log(`${row.case} (${row.runner}): ${at500.found}/${at500.total}`);
    console.log(`  ${row.text500.split("\n").join("\n  ")}\n`);
  }
}
await mkdir(new URL("./out/", import.meta.url), { recursive: true });
await writeFile(
  new URL("./out/real-world.json", import.meta.url),
  `${JSON.stringify(figures, null, 2)}\n`,
);
