// Bundles the CLI into one CommonJS file, dist/cli.cjs, and primes its V8 code cache.
//
// Start-up is most of the cost of a `loopgate decide` call, so the CLI loads one file, not a
// module graph; as CommonJS, which Node 20 loads faster than an ES module; and through a code
// cache (bin/loopgate.js), so that V8 does not parse and compile it again on every run.
// Measured with `npm run bench`. Commands still load lazily: esbuild turns each command's
// `import()` into a deferred initialiser, so a run only executes the command it uses.
import { spawnSync } from "node:child_process";
import { readFile, rm, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = fileURLToPath(new URL("../bin/loopgate.js", import.meta.url));
const outfile = "dist/cli.cjs";
const cacheFile = `${outfile}.v8-cache`; // bin/loopgate.js reads it

const { version, dependencies = {} } = JSON.parse(
  await readFile(new URL("../package.json", import.meta.url), "utf8"),
);

// Pure JavaScript dependencies checked to bundle cleanly; any other dependency (a native addon
// such as better-sqlite3) stays external and is required from node_modules at run time.
const BUNDLED = new Set(["yaml", "valibot"]);
const external = Object.keys(dependencies).filter((name) => !BUNDLED.has(name));

// Outputs of earlier builds: the ES module bundle and its chunks, a stale cache.
await Promise.all(
  ["dist/cli-chunks", cacheFile].map((path) =>
    rm(new URL(`../${path}`, import.meta.url), { recursive: true, force: true }),
  ),
);

await build({
  absWorkingDir: root,
  entryPoints: ["src/cli.ts"],
  outfile,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  // bin/loopgate.js runs the bundle as a vm.Script, which cannot serve import() on Node 20:
  // a dynamic import of an external package becomes a require().
  supported: { "dynamic-import": false },
  external,
  minify: true,
  sourcemap: true,
  legalComments: "none",
  define: { __LOOPGATE_VERSION__: JSON.stringify(version) },
  logLevel: "warning",
});

// Prime the code cache: bin/loopgate.js writes it when a command run finds none. The escalation
// example runs the most code (parsing, decoding, conditions, feedback, escalation, rendering).
// Without the examples (they are not published), the first command run writes it instead.
const exists = (path) =>
  stat(new URL(`../${path}`, import.meta.url)).then(
    (stats) => stats,
    () => undefined,
  );
const run = (...args) =>
  spawnSync(process.execPath, [bin, ...args], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
if (await exists("examples/seed/escalation.yaml")) {
  const primed = run("decide", "examples/seed/escalation.yaml");
  const written = await exists(cacheFile);
  // A run that finds the cache rejected writes a new one: the next run must leave it alone.
  const checked = run("verdict", "examples/seed/verdict.yaml");
  const after = await exists(cacheFile);
  if (primed.status !== 0 || checked.status !== 0) {
    console.warn(
      `bundle-cli: the bundled CLI failed on an example:\n${primed.stderr}${checked.stderr}`,
    );
  } else if (written === undefined || after?.mtimeMs !== written.mtimeMs) {
    console.warn("bundle-cli: the V8 code cache was not written or not accepted");
  }
}
