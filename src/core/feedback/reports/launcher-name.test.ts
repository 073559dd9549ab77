import { describe, expect, it } from "vitest";
import { launcherName } from "./launcher-name.js";

const out = (id: string, display: string) => `\nunique-id: ${id}\ndisplay-name: ${display}\n`;

describe("launcherName", () => {
  it.each([
    [
      "[engine:junit-jupiter]/[class:shop.CartTest]/[method:hasItems()]",
      "has items after add",
      "JUnit Jupiter:CartTest:has items after add",
    ],
    [
      "[engine:junit-jupiter]/[class:shop.CartTest]/[nested-class:WhenEmpty]/[method:totalIsZero()]",
      "totalIsZero()",
      "JUnit Jupiter:CartTest:WhenEmpty:totalIsZero()",
    ],
    [
      "[engine:junit-jupiter]/[class:shop.CartTest]/[test-template:doublesTotals(int, int)]/[test-template-invocation:#1]",
      "[1] 1, 2",
      "JUnit Jupiter:CartTest:doublesTotals(int, int):[1] 1, 2",
    ],
  ])("%s → the launcher's name", (id, display, name) => {
    expect(launcherName("JUnit Jupiter", out(id, display))).toBe(name);
  });

  it("gives none for a test's own output (Surefire's <system-out>) or without a suite", () => {
    expect(launcherName("shop.CartTest", "display-name: x\nunique-id: nope")).toBeNull();
    expect(
      launcherName("", out("[engine:junit-jupiter]/[class:a.B]/[method:c()]", "c()")),
    ).toBeNull();
  });
});
