// The demo's review step: a scripted reviewer that reads the agent's work in the scratch copy
// and answers with the review protocol's JSON verdict on stdout.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const workspace = join(process.env.LOOPGATE_TASK_DIR, "workspace");
const source = readFileSync(join(workspace, "src", "login.js"), "utf8");
const testFile = "test/login.test.js";
const testsChanged =
  readFileSync(join(workspace, testFile), "utf8") !==
  readFileSync(join(here, "project", testFile), "utf8");

const points = [];
if (!source.includes("sign("))
  points.push("login() must sign the token with sign() from src/jwt.js");
if (source.includes("console.log")) points.push("do not log credentials or tokens");
if (testsChanged) points.push(`the tests were changed (${testFile}); say so in the pull request`);

const verdict =
  points.length === 0
    ? {
        status: "approve",
        feedback: "Looks good: the token is signed with the shared helper.",
        score: 0.9,
      }
    : { status: "reject", feedback: points.map((point) => `- ${point}`).join("\n"), score: 0.4 };
console.log(JSON.stringify(verdict));
