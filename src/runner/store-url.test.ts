import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseStore, printableStoreUrl, refuseUnreadStore, storeOf } from "./store-url.js";

describe("parseStore", () => {
  it.each([
    ["journal.db", { kind: "sqlite", path: "journal.db" }],
    ["./a:b.db", { kind: "sqlite", path: "./a:b.db" }],
    ["/abs/.loopgate/journal.db", { kind: "sqlite", path: "/abs/.loopgate/journal.db" }],
    ["sqlite:rel/j.db", { kind: "sqlite", path: "rel/j.db" }],
    ["sqlite:///abs/j.db", { kind: "sqlite", path: "/abs/j.db" }],
    ["SQLite:j.db", { kind: "sqlite", path: "j.db" }],
    ["postgres://u@h:5432/db", { kind: "postgres", url: "postgres://u@h:5432/db" }],
    ["postgresql://u:pw@h/db", { kind: "postgres", url: "postgresql://u:pw@h/db" }],
  ])("reads %s", (value, store) => {
    expect(parseStore("--store", value)).toEqual(store);
  });

  it.each([
    ["", "is empty"],
    ["  ", "is empty"],
    ["sqlite:", "names no file"],
    ["mysql://h/db", 'unknown store scheme "mysql:"'],
    ["http://h/db", 'unknown store scheme "http:"'],
    ["postgres://h", "names no database"],
    ["postgres://h/", "names no database"],
    ["postgres://h/a/b", "names no database"],
    ["postgres:///db", "names no host"],
    ["postgres://[::1/db", "not a valid URL"],
  ])("refuses %j: %s", (value, why) => {
    expect(() => parseStore("LOOPGATE_STORE", value)).toThrow(why);
    expect(() => parseStore("LOOPGATE_STORE", value)).toThrow(/^LOOPGATE_STORE "/);
  });

  it("never says a URL's password in its refusal", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("postgres", "mysql", "redis"),
        fc.stringMatching(/^[a-z\d]{6,20}$/),
        fc.constantFrom("", "/", "/a/b", "/db"),
        (scheme, password, path) => {
          const value = `${scheme}://user:${password}@host${path}`;
          let message = "";
          try {
            parseStore("--store", value);
          } catch (error) {
            message = (error as Error).message;
          }
          expect(message).not.toContain(password);
        },
      ),
    );
  });
});

describe("storeOf", () => {
  it("takes --store, then --db, then LOOPGATE_STORE, then the journal found as always", () => {
    const env = { LOOPGATE_STORE: "postgres://h/db" };
    expect(storeOf("run", "a.db", undefined, env)).toEqual({ kind: "sqlite", path: "a.db" });
    expect(storeOf("run", undefined, "b.db", env)).toEqual({ kind: "sqlite", path: "b.db" });
    expect(storeOf("run", undefined, undefined, env)).toEqual({
      kind: "postgres",
      url: "postgres://h/db",
    });
    expect(storeOf("run", undefined, undefined, { LOOPGATE_STORE: "" })).toEqual({
      kind: "sqlite",
    });
  });

  it("refuses --store and --db together", () => {
    expect(() => storeOf("run", "a.db", "b.db", {})).toThrow("run: give --store or --db, not both");
  });
});

describe("printableStoreUrl", () => {
  it("masks a password and leaves the rest", () => {
    expect(printableStoreUrl("postgres://u:secret@h:1/db")).toBe("postgres://u:***@h:1/db");
    expect(printableStoreUrl("postgres://u@h/db")).toBe("postgres://u@h/db");
    expect(printableStoreUrl("nota url:secret@h")).toBe("nota url:***@h");
  });
});

describe("refuseUnreadStore", () => {
  it("refuses LOOPGATE_STORE for a command that does not read it, and lets the others be", () => {
    expect(() => refuseUnreadStore("hook", { LOOPGATE_STORE: "j.db" })).toThrow(
      "hook does not read LOOPGATE_STORE yet",
    );
    for (const command of [
      "db",
      "status",
      "history",
      "explain",
      "export",
      "answer",
      "cancel",
      "logs",
      "diff",
      "doctor",
      "restore",
    ]) {
      expect(() => refuseUnreadStore(command, { LOOPGATE_STORE: "postgres://h/db" })).not.toThrow();
    }
    expect(() => refuseUnreadStore("hook", { LOOPGATE_STORE: "" })).not.toThrow();
    expect(() => refuseUnreadStore("doctor", {})).not.toThrow();
  });
});
