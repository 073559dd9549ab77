/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { secretSpans } from "./redaction.js";

// Real runners' and reviewers' outputs hold test names, paths, `token` and `key` in every other
// line, and no secret but one planted on purpose: redaction must leave them as they are, or the
// feedback loses its facts. Vite reads the files at build time, so the core stays free of I/O.
const files = import.meta.glob<string>(
  "../../../fixtures/**/*.{txt,json,log,xml,md,yaml,jsonl,sarif}",
  {
    query: "?raw",
    import: "default",
    eager: true,
  },
);

/** The one secret the fixtures hold: AWS's documented example key, in a review comment. */
const PLANTED = "AKIAIOSFODNN7EXAMPLE";

describe("redaction on the fixtures' real outputs", () => {
  it("reads hundreds of them", () => {
    expect(Object.keys(files).length).toBeGreaterThan(200);
  });

  it("redacts nothing but the secret planted in one of them", () => {
    const redacted = Object.entries(files).flatMap(([path, text]) =>
      secretSpans(text).map((span) => `${path}: ${text.slice(span.start, span.end)}`),
    );
    expect(redacted).toEqual([
      expect.stringMatching(new RegExp(`review-changes-requested\\.json: ${PLANTED}$`)),
    ]);
  });
});
