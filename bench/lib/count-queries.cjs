// Preloaded into a loopgate worker by bench/distributed.mjs (NODE_OPTIONS=--require): counts
// every query the process sends to PostgreSQL (DBOS's and loopgate's alike go through pg's
// Client#query) and writes the count to $LOOPGATE_BENCH_QUERIES every 50 ms and at exit.
/* global require, __dirname, process, setInterval */
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload */
const { renameSync, writeFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { join } = require("node:path");
/* eslint-enable @typescript-eslint/no-require-imports */

const pg = createRequire(join(__dirname, "..", "..", "package.json"))("pg");
const file = process.env.LOOPGATE_BENCH_QUERIES;
let queries = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(...args) {
  queries += 1;
  return query.apply(this, args);
};
// Written aside and renamed over the count, so the bench never reads a file cut off mid-write
// (an empty read counted as 0 queries made the idle worker's rate come out negative).
const write = () => {
  writeFileSync(`${file}.${process.pid}`, String(queries));
  renameSync(`${file}.${process.pid}`, file);
};
setInterval(write, 50).unref();
process.on("exit", write);
