#!/usr/bin/env node
// CommonJS (see bin/package.json): an ES module entry costs Node 20 ~20 ms of loader start-up,
// as much as everything else a `loopgate decide` run does.
//
// Runs dist/cli.cjs, the bundled CLI (scripts/bundle-cli.mjs), through a V8 code cache so that
// V8 skips parsing and compiling it. The cache lives next to the bundle, is never committed, and
// is written by the build (scripts/bundle-cli.mjs) or by the first command run that finds it
// missing, stale or rejected (another Node version or V8 flags). It only ever saves time:
// without it, or with a bad one, the CLI compiles from source as it would without a cache.
/* global require, __dirname */
"use strict";

/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file */
const fs = require("node:fs");
const { createRequire } = require("node:module");
const { join } = require("node:path");
const { Script } = require("node:vm");
/* eslint-enable @typescript-eslint/no-require-imports */

const file = join(__dirname, "..", "dist", "cli.cjs");
const cacheFile = `${file}.v8-cache`;

const fd = fs.openSync(file, "r");
const { size, mtimeMs } = fs.fstatSync(fd);
const source = fs.readFileSync(fd, "utf8");
fs.closeSync(fd);

// V8 checks the cache against its own version and flags and the source's length only, so the
// cache also records which build of the bundle it was made from.
const stamp = `${size}:${mtimeMs}\n`;
let cachedData;
try {
  const cache = fs.readFileSync(cacheFile);
  if (cache.toString("latin1", 0, stamp.length) === stamp)
    cachedData = cache.subarray(stamp.length);
} catch {
  // No cache yet: compile from source and write one on exit.
}

// The same wrapper as Node's CommonJS loader: the bundle runs as if required.
const script = new Script(
  `(function (exports, require, module, __filename, __dirname) { ${source}\n})`,
  { filename: file, cachedData },
);

// Written after a run of a command that succeeded, never after help or an error: V8 puts in
// the cache only the functions compiled so far, and an accepted cache is never replaced.
const [command, ...args] = process.argv.slice(2);
if (
  (cachedData === undefined || script.cachedDataRejected === true) &&
  command !== undefined &&
  !command.startsWith("-") &&
  !args.includes("--help") &&
  !args.includes("-h")
) {
  // `run` and `resume` change V8's flags as they start (src/runner/small-heap.ts): a cache made
  // after that carries the changed flags, and every process that starts without them rejects it.
  // Loaded only here: most commands find the cache and never write one.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file
  const { cachedDataVersionTag } = require("node:v8");
  const tag = cachedDataVersionTag();
  process.once("exit", (code) => {
    if (code !== 0 || cachedDataVersionTag() !== tag) return;
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    let out;
    try {
      out = fs.openSync(temporary, "wx");
    } catch {
      return; // A read-only installation: run without a cache.
    }
    try {
      fs.writeFileSync(out, stamp, "latin1");
      fs.writeFileSync(out, script.createCachedData());
      fs.closeSync(out);
      fs.renameSync(temporary, cacheFile);
    } catch {
      // A full disk, a race with another run: the next run compiles again.
      fs.rmSync(temporary, { force: true });
    }
  });
}

const bundle = { exports: {}, filename: file, id: file };
script
  .runInThisContext()
  .call(
    bundle.exports,
    bundle.exports,
    createRequire(file),
    bundle,
    file,
    join(__dirname, "..", "dist"),
  );
