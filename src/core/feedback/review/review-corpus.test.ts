/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import type { Priority } from "../feedback.js";
import { reviewFeedback } from "../review-feedback.js";
import type { ReviewPoint } from "./review-point.js";
import { reviewPointsOf } from "./review-points-of.js";
import { reviewStatusOf } from "./review-status-of.js";

/** A point of a case's facts, written before loopgate read the review. */
interface FactPoint {
  readonly path: string | null;
  readonly line: number | null;
  readonly keyword: string;
  readonly priority: Priority;
}

interface Facts {
  readonly status: "approve" | "reject" | null;
  readonly priority: Priority;
  readonly points: readonly FactPoint[];
}

// Vite reads the corpus at build time, so the core stays free of I/O.
const reviews = import.meta.glob<string>(
  ["../../../../fixtures/reviews/real-world/*/*", "!**/*.facts.json", "!**/README.md"],
  { query: "?raw", import: "default", eager: true },
);
const factFiles = import.meta.glob<Facts>(
  "../../../../fixtures/reviews/real-world/*/*.facts.json",
  {
    import: "default",
    eager: true,
  },
);

/** Every `<format>/<case>.<ext>` with its facts. */
function corpus(): { name: string; text: string; facts: Facts }[] {
  return Object.entries(factFiles)
    .map(([factsPath, facts]) => {
      const stem = factsPath.slice(0, -".facts.json".length);
      const review = Object.keys(reviews).find((path) => path.startsWith(`${stem}.`));
      return {
        name: stem.split("/").slice(-2).join("/"),
        text: review === undefined ? "" : (reviews[review] ?? ""),
        facts,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

const plain = (text: string): string =>
  text.replace(/[`*]/g, "").replace(/\s+/g, " ").toLowerCase();

/** The point a fact describes: its keyword among the point's words, same file and line where the fact gives them. */
function pointOf(fact: FactPoint, points: readonly ReviewPoint[], used: Set<number>): number {
  return points.findIndex((point, index) => {
    const words = plain(`${point.label ?? ""} ${point.message}`);
    const path = point.path ?? "";
    return (
      !used.has(index) &&
      words.includes(plain(fact.keyword)) &&
      (fact.path === null ||
        (path !== "" && (path.endsWith(fact.path) || fact.path.endsWith(path))) ||
        words.includes(plain(fact.path))) &&
      (fact.line === null || point.line === fact.line)
    );
  });
}

describe("the real-world review corpus", () => {
  const cases = corpus();

  it("has at least 30 reviews", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)("$name: the verdict the review states", ({ text, facts }) => {
    expect(reviewStatusOf(text) ?? null).toBe(facts.status);
  });

  it.each(cases)("$name: every point, its priority and the review's", ({ text, facts }) => {
    const points = reviewPointsOf(text);
    const used = new Set<number>();
    for (const fact of facts.points) {
      const index = pointOf(fact, points, used);
      expect(index, `a point for "${fact.keyword}"`).toBeGreaterThanOrEqual(0);
      used.add(index);
      expect(points[index]?.priority, fact.keyword).toBe(fact.priority);
    }
    expect(reviewFeedback(text, { maxLength: 500 }).priority).toBe(facts.priority);
  });
});
