// The floor Node itself sets for any runner: a bare script spawning commands the way loopgate's
// runner does (own process group, piped output), with no journal, no files and no decisions.

/**
 * The source of a script that runs `commands` (argv lists) once per iteration 1..`iterations`
 * (LOOPGATE_ITERATION set), for `process.argv[2]` tasks (default 1), `concurrency` at a time.
 */
export function nodeSpawnerSource(commands, { iterations, concurrency = 1 }) {
  return `import { spawn } from "node:child_process";
const run = (argv, iteration) => new Promise((resolve) => {
  const child = spawn(argv[0], argv.slice(1), {
    env: { ...process.env, LOOPGATE_ITERATION: String(iteration) },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.resume();
  child.stderr.resume();
  child.on("close", resolve);
});
const count = Number(process.argv[2] ?? 1);
let next = 0;
async function worker() {
  while (next < count) {
    next += 1;
    for (let i = 1; i <= ${iterations}; i++) {
      for (const argv of ${JSON.stringify(commands)}) await run(argv, i);
    }
  }
}
await Promise.all(Array.from({ length: ${concurrency} }, worker));
`;
}
