// A scripted, deterministic "agent" for the demo: attempt 1 fixes add(), attempt 2 breaks it
// again while trying mul(), and any later attempt fixes mul() in the code it finds.
import { readFileSync, writeFileSync } from "node:fs";

const attempt = Number(process.env.LOOPGATE_ITERATION);
const code = readFileSync("calc.mjs", "utf8");
const edits = {
  1: ["add = (a, b) => a - b", "add = (a, b) => a + b"],
  2: ["add = (a, b) => a + b", "add = (a, b) => a * b"],
};
const [from, to] = edits[attempt] ?? ["mul = (a, b) => a + b", "mul = (a, b) => a * b"];
writeFileSync("calc.mjs", code.replace(from, to));
