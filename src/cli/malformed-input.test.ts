import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeConfigDocument, decodeDecideDocument } from "../wire/decide-document.js";
import { parseText } from "../wire/parse-text.js";
import { decodeVerdictDocument } from "../wire/verdict-document.js";
import {
  CONFIG_DOCUMENT,
  DECIDE_DOCUMENT,
  VERDICT_DOCUMENT,
  configDocument,
  corruptions,
  decideDocument,
  toJson,
  verdictDocument,
  type Corruption,
  type Syntax,
} from "./test-support/documents.js";
import { errorLine, runMain } from "./test-support/run-main.js";

let folder = "";
let cases = 0;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "loopgate-malformed-"));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Writes a document (YAML or JSON; JSON cannot spell NaN, so that stays YAML) to a new file. */
async function writeCase(corruption: Corruption, syntax: Syntax): Promise<string> {
  let text = corruption.text;
  if (text === undefined) {
    let asJson: string | undefined;
    try {
      asJson = syntax === "json" ? toJson(corruption.document) : undefined;
    } catch {
      asJson = undefined;
    }
    text = asJson ?? stringify(corruption.document, { version: "1.2" });
  }
  const file = join(folder, `case-${++cases}.${syntax}`);
  await writeFile(file, text, "utf8");
  return file;
}

/** The one promise every invalid input keeps: exit 2, nothing on stdout, one named error line. */
async function expectRejected(argv: string[], corruption: Corruption, source: string) {
  const run = await runMain(argv);
  const line = errorLine(run);
  const where = corruption.where === "SOURCE" ? source : corruption.where;
  expect({ code: run.code, stdout: run.stdout }, corruption.kind).toEqual({ code: 2, stdout: "" });
  expect(line, corruption.kind).not.toMatch(/[\r\u2028\u2029]/);
  expect(line.startsWith(`error: ${where}: `), `${corruption.kind}: ${line.slice(0, 300)}`).toBe(
    true,
  );
  if (corruption.mentions !== undefined) expect(line).toContain(corruption.mentions);
}

const syntax = fc.constantFrom<Syntax>("yaml", "json");
const RUNS = 1000;

describe("valid documents (the base of every corruption below)", () => {
  it("decode without error", () => {
    fc.assert(
      fc.property(decideDocument, verdictDocument, configDocument, (decide, verdict, config) => {
        const settings = decodeConfigDocument(parseText(stringify(config), "config.yaml"));
        decodeDecideDocument(parseText(stringify(decide), "decide.yaml"), settings);
        decodeDecideDocument(parseText(toJson(decide), "decide.json"));
        decodeVerdictDocument(parseText(stringify(verdict), "verdict.yaml"));
      }),
      { numRuns: 300 },
    );
  });

  it("print a verdict: exit 0, nothing on stderr", async () => {
    await fc.assert(
      fc.asyncProperty(verdictDocument, async (document) => {
        const file = await writeCase({ kind: "valid", document, where: "" }, "yaml");
        const run = await runMain(["verdict", file]);
        expect(run).toMatchObject({ code: 0, stderr: "" });
        expect(run.stdout).toMatch(/^verdict:\n/);
      }),
      { numRuns: 200 },
    );
  });

  it("print a decision: exit 0, nothing on stderr", async () => {
    await fc.assert(
      fc.asyncProperty(decideDocument, configDocument, async (document, config) => {
        const file = await writeCase({ kind: "valid", document, where: "" }, "yaml");
        const configFile = await writeCase({ kind: "valid", document: config, where: "" }, "yaml");
        const run = await runMain(["decide", file, "--config", configFile]);
        expect(run).toMatchObject({ code: 0, stderr: "" });
        expect(run.stdout).toMatch(/^decision:\n/);
      }),
      { numRuns: 200 },
    );
  });
});

describe("malformed documents: exit 2, stdout empty, one `error:` line naming the field", () => {
  it("verdict", async () => {
    await fc.assert(
      fc.asyncProperty(
        verdictDocument.chain((document) => corruptions(document, VERDICT_DOCUMENT)),
        syntax,
        async (corruption, format) => {
          const file = await writeCase(corruption, format);
          await expectRejected(["verdict", file], corruption, file);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("decide", async () => {
    await fc.assert(
      fc.asyncProperty(
        decideDocument.chain((document) => corruptions(document, DECIDE_DOCUMENT)),
        syntax,
        fc.boolean(),
        async (corruption, format, json) => {
          const file = await writeCase(corruption, format);
          const flags = json ? ["--json"] : [];
          await expectRejected(["decide", file, ...flags], corruption, file);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("decide --config with a malformed config file and a valid input", async () => {
    await fc.assert(
      fc.asyncProperty(
        configDocument.chain((document) => corruptions(document, CONFIG_DOCUMENT)),
        decideDocument,
        syntax,
        async (corruption, input, format) => {
          const configFile = await writeCase(corruption, format);
          const file = await writeCase({ kind: "valid", document: input, where: "" }, "yaml");
          await expectRejected(["decide", file, "--config", configFile], corruption, configFile);
        },
      ),
      { numRuns: RUNS / 2 },
    );
  });
});
