// The project's tests, printed as TAP so loopgate counts the failing ones.
import { add, mul } from "./calc.mjs";

const cases = [
  ["add(2, 3) is 5", () => add(2, 3) === 5],
  ["add(-1, 1) is 0", () => add(-1, 1) === 0],
  ["mul(2, 3) is 6", () => mul(2, 3) === 6],
  ["mul(4, 0) is 0", () => mul(4, 0) === 0],
];
console.log("TAP version 13");
let failed = 0;
cases.forEach(([name, check], index) => {
  const ok = check();
  if (!ok) failed += 1;
  console.log(`${ok ? "ok" : "not ok"} ${index + 1} - ${name}`);
});
console.log(`1..${cases.length}`);
process.exitCode = failed === 0 ? 0 : 1;
