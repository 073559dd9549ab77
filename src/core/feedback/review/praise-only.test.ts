import { describe, expect, it } from "vitest";
import { isPraiseOnly } from "./praise-only.js";

describe("isPraiseOnly", () => {
  it.each([
    "Great stuff!",
    "LGTM",
    "LGTM 👍",
    "Nice catch.",
    "Looks good to me!",
    "Thanks!",
    " 👍 ",
  ])("drops %j", (text) => {
    expect(isPraiseOnly(text)).toBe(true);
  });

  it.each([
    "Good idea, but rename it",
    "Nice work, but this must not ship",
    "Great stuff! Please add a test.",
    "Good luck fixing this bug",
    "Looks good except a.ts:3",
  ])("keeps %j", (text) => {
    expect(isPraiseOnly(text)).toBe(false);
  });
});
