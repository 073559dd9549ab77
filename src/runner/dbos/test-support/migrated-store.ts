import pg from "pg";
import { expect } from "vitest";
import { freshDatabase } from "../../../test-support/postgres.js";
import { cli } from "../../test-support/built-cli.js";

/** A fresh database of the test server that the built CLI's `db migrate` prepared: its URL. */
export async function migratedUrl(): Promise<string> {
  const url = await freshDatabase();
  const migrated = cli(["db", "migrate", "--store", url]);
  expect(migrated.status, migrated.stderr).toBe(0);
  return url;
}

/** `migratedUrl`, and a client connected to it for the test to look at the tables. */
export async function migratedStore(): Promise<{ readonly url: string; readonly db: pg.Client }> {
  const url = await migratedUrl();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  return { url, db };
}
