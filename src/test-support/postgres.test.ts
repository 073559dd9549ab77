import pg from "pg";
import { describe, expect, it } from "vitest";
import { freshDatabase, postgresAvailability } from "./postgres.js";

const availability = postgresAvailability();

describe.skipIf(availability.skip !== false)(
  `the run's throwaway PostgreSQL server${availability.skip === false ? "" : ` (skipped: ${availability.skip})`}`,
  () => {
    it("serves each caller its own empty database on one loopback server", async () => {
      const [first, second] = await Promise.all([freshDatabase(), freshDatabase()]);
      expect(new URL(first).host).toBe(new URL(second).host);
      expect(new URL(first).hostname).toBe("127.0.0.1");
      expect(first).not.toBe(second);
      const a = new pg.Client({ connectionString: first });
      const b = new pg.Client({ connectionString: second });
      await Promise.all([a.connect(), b.connect()]);
      try {
        await a.query("CREATE TABLE marker (id int)");
        const seen = await b.query("SELECT to_regclass('public.marker') AS found");
        expect(seen.rows[0]).toEqual({ found: null });
        const own = await a.query("SELECT to_regclass('public.marker')::text AS found");
        expect(own.rows[0]).toEqual({ found: "marker" });
      } finally {
        await Promise.all([a.end(), b.end()]);
      }
    });
  },
);

describe("postgresAvailability", () => {
  const missing = { found: false, reason: "no initdb" } as const;

  it("skips, saying why, when the binaries are missing outside CI", () => {
    expect(postgresAvailability(missing, {})).toEqual({ skip: "no initdb" });
    expect(postgresAvailability(missing, { CI: "false" })).toEqual({ skip: "no initdb" });
  });

  it("fails instead in CI, where .ci/run installs them", () => {
    expect(() => postgresAvailability(missing, { CI: "true" })).toThrow("CI=true: no initdb");
  });

  it("runs the tests when the binaries are there", () => {
    expect(postgresAvailability({ found: true, binDir: "/bin" }, { CI: "true" })).toEqual({
      skip: false,
    });
  });
});
