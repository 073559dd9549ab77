import { beforeAll, describe, expect, it } from "vitest";
import { postgresAvailability } from "../../../test-support/postgres.js";
import { cli } from "../../test-support/built-cli.js";
import type { Fixture } from "../../test-support/fixture-project.js";
import { migratedUrl } from "../../dbos/test-support/migrated-store.js";

// DBOS polls its queues once a second, which is most of what a short task waits on PostgreSQL:
// every CLI process these suites start (they inherit this file's environment) polls every 50 ms.
process.env.LOOPGATE_QUEUE_POLL_MS ??= "50";

/** A store the behaviour suites run their stories on: its name and the flags that name it. */
export interface StoreCase {
  readonly name: "sqlite" | "postgres";
  readonly open: () => Promise<readonly string[]>;
}

/** The two stores: a SQLite journal at `journal` and a fresh PostgreSQL database `db migrate` made. */
function bothStores(journal: string): StoreCase[] {
  return [
    { name: "sqlite", open: () => Promise.resolve(["--db", journal]) },
    { name: "postgres", open: async () => ["--store", await migratedUrl()] },
  ];
}

/**
 * What differs between any two runs of a story: times (a JWT's issue time, `iat`, in the seed's
 * test output too), durations (node's test runner prints its own), the store's flags, and where
 * each store keeps its runs' step files (a step may print its `LOOPGATE_TASK_DIR`).
 */
export function masked(text: string, flags: readonly string[]): string {
  return text
    .replaceAll(flags.join(" "), "STORE")
    .replace(/\/loopgate-(pg-)?[\da-f]{16}\/runs\//g, "/RUN-FILES/runs/")
    .replace(/\\?"iat\\?":\d+/g, '"iat":TIME')
    .replace(/\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+Z)?/g, "TIME")
    .replace(/^ {2}\d\d:\d\d:\d\d /gm, "  TIME ")
    .replace(/\b\d+\.\ds\b/g, "D.Ds")
    .replace(/\b\d+\.\d s\b/g, "D.D s")
    .replace(/\belapsed \d+ ms\b/g, "elapsed N ms")
    .replace(/\bduration_ms:? [\d.]+/g, "duration_ms N");
}

/**
 * `export --jsonl` without what differs between two runs of a story (seq, at, pid, host,
 * durations). With `startsOnce`, a step started again after a crash counts its first start only:
 * the SQLite driver journals each start, PostgreSQL keeps the first (its events are keyed by place
 * in the task's story, docs/distributed.md).
 */
export function story(jsonl: string, startsOnce = false): unknown[] {
  const events = jsonl
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const started = new Set<string>();
  return events
    .filter((event) => {
      if (!startsOnce || event.type !== "step-started") return true;
      const again = started.has(String(event.effect_id));
      started.add(String(event.effect_id));
      return !again;
    })
    .map((line) => {
      const { meta, ...event } = line;
      // Who ran a step, which each driver notes its own way: pid and host, what tells that
      // process from a later one of the same pid (start time, boot id, token), and on
      // PostgreSQL the worker's executor id.
      const noted = ["pid", "host", "startTime", "bootId", "token", "executor"];
      const rest = Object.fromEntries(
        Object.entries((meta ?? {}) as Record<string, unknown>).filter(
          ([key]) => !noted.includes(key),
        ),
      );
      delete event.seq;
      delete event.at;
      // Durations are the only numbers that differ: every `…_ms` key.
      return JSON.parse(
        JSON.stringify({ ...event, meta: rest }, (key, value: unknown) =>
          key.endsWith("_ms") ? "N" : value,
        ),
      ) as unknown;
    });
}

/** What each store printed, by what printed it, for the comparison once both told their stories. */
export type Printed = Record<string, Partial<Record<StoreCase["name"], string>>>;

/** A store's way of telling stories through the built CLI, keeping what it printed in `printed`. */
export interface Teller {
  /** Runs the CLI in `fixture`'s directory on this store; keeps its stdout under `key`. */
  run(
    fixture: Fixture,
    key: string,
    args: readonly string[],
  ): ReturnType<typeof cli> & { readonly masked: string };
  /** Keeps `text` (stdout or stderr already read) under `key`, masked. */
  keep(key: string, text: string): void;
  /**
   * `status`, `history`, `explain TASK`, `logs TASK` and the exported story of a run (see `story`
   * for `startsOnce`), kept.
   */
  reading(fixture: Fixture, key: string, task: string, runId: number, startsOnce?: boolean): void;
}

/** The teller of the store `name` whose flags `flags()` gives once it is open. */
export function teller(
  name: StoreCase["name"],
  flags: () => readonly string[],
  printed: Printed,
): Teller {
  const keep = (key: string, text: string) => {
    (printed[key] ??= {})[name] = masked(text, flags());
  };
  const run = (fixture: Fixture, key: string, args: readonly string[]) => {
    const done = cli([...args, ...flags()], {}, fixture.dir);
    keep(key, done.stdout);
    return { ...done, masked: masked(done.stdout, flags()) };
  };
  return {
    run,
    keep,
    reading(fixture, key, task, runId, startsOnce = false) {
      for (const [what, args] of [
        ["status", ["status", "--run", String(runId)]],
        ["history", ["history", "--run", String(runId)]],
        ["explain", ["explain", task, "--run", String(runId)]],
        ["logs", ["logs", task, "--run", String(runId)]],
      ] as const) {
        const done = run(fixture, `${key} ${what}`, args);
        expect(done.status, `${what}: ${done.stderr}`).toBe(0);
      }
      const exported = cli(
        ["export", "--jsonl", "--run", String(runId), ...flags()],
        {},
        fixture.dir,
      );
      expect(exported.status, exported.stderr).toBe(0);
      keep(`${key} export`, JSON.stringify(story(exported.stdout, startsOnce)));
    },
  };
}

/** Every output both stores printed is the same, but for the line naming PostgreSQL's workers. */
function expectSame(printed: Printed, atLeast: number): void {
  const keys = Object.keys(printed);
  expect(keys.length).toBeGreaterThan(atLeast);
  for (const key of keys) {
    const { sqlite, postgres } = printed[key] ?? {};
    expect(sqlite, key).toBeDefined();
    const withoutWorkers = postgres?.replace(/\nrun \d+: held by workers: .*\n/g, "");
    expect(withoutWorkers, key).toBe(sqlite);
  }
}

/** A store's teller in a suite, with the store's name and flags. */
export interface StoreTeller extends Teller {
  readonly name: StoreCase["name"];
  /** The flags naming the store, once it is open. */
  readonly flags: () => readonly string[];
}

/**
 * A parameterised suite: `stories` told on a SQLite journal at `journal`, then on a fresh
 * PostgreSQL database, in the same order (so their runs have the same ids), then every output
 * of the one compared with the other's — more than `atLeast` of them. Skipped with the reason
 * where PostgreSQL is missing (failed with `CI=true`, see postgresAvailability).
 */
export function describeOnBothStores(
  title: string,
  journal: string,
  atLeast: number,
  stories: (store: StoreTeller) => void,
): void {
  const availability = postgresAvailability();
  const printed: Printed = {};
  const skipped = availability.skip === false ? "" : ` (postgres skipped: ${availability.skip})`;
  describe.skipIf(availability.skip !== false)(`${title}${skipped}`, () => {
    describe.each(bothStores(journal))("on $name", ({ name, open }) => {
      let flags: readonly string[] = [];
      beforeAll(async () => {
        flags = await open();
      });
      stories({ name, flags: () => flags, ...teller(name, () => flags, printed) });
    });

    it("prints the same on both stores, but for the worker PostgreSQL names", () => {
      expectSame(printed, atLeast);
    });
  });
}
