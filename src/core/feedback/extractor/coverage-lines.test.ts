import { describe, expect, it } from "vitest";
import { failureOf } from "../failure-of.js";
import { extractFailures } from "./general-extractor.js";

// The end of fastify-cookie's `npm test` (node:test under c8 --100), fixtures/real-world.
const c8 = `# fail 0
-----------|---------|----------|---------|---------|-------------------
File       | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s
-----------|---------|----------|---------|---------|-------------------
All files  |   99.69 |    98.78 |     100 |   99.69 |
 plugin.js |   99.53 |    98.07 |     100 |   99.53 | 26
 signer.js |     100 |      100 |     100 |     100 |
-----------|---------|----------|---------|---------|-------------------
ERROR: Coverage for lines (99.69%) does not meet global threshold (100%)
ERROR: Coverage for branches (98.78%) does not meet global threshold (100%)
ERROR: Coverage for statements (99.69%) does not meet global threshold (100%)
`;

describe("readCoverageThreshold", () => {
  it("reads missed coverage thresholds as one failure at the first uncovered line", () => {
    expect(extractFailures(c8)).toEqual([
      failureOf({
        file: "plugin.js",
        line: 26,
        message: "Coverage for lines (99.69%) does not meet global threshold (100%)",
      }),
    ]);
  });

  it("reads Jest's threshold line, and no unittest test in c8's ERROR lines", () => {
    const jest = 'Jest: "global" coverage threshold for lines (80%) not met: 79.5%\n';
    expect(extractFailures(jest)).toEqual([
      failureOf({ message: 'Jest: "global" coverage threshold for lines (80%) not met: 79.5%' }),
    ]);
    expect(extractFailures(c8).some((failure) => failure.test !== null)).toBe(false);
  });
});
