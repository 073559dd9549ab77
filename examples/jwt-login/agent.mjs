// The demo's "agent": a scripted, deterministic generate step (no model, no network) that
// makes the seed's three mistakes in turn, then follows the human's answer.
//
// It works on a scratch copy of project/ in $LOOPGATE_TASK_DIR/workspace, never on the
// committed files, and uses the step protocol as a real agent wrapper would: it reads the
// prompt, the feedback and the answer from the files loopgate names, and appends its cost
// (and its diff) to the report file.
import { appendFileSync, cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const env = process.env;
const here = dirname(fileURLToPath(import.meta.url));
const workspace = join(env.LOOPGATE_TASK_DIR, "workspace");
if (!existsSync(workspace)) cpSync(join(here, "project"), workspace, { recursive: true });

const iteration = Number(env.LOOPGATE_ITERATION);
const read = (file) => (file === undefined ? undefined : readFileSync(file, "utf8"));
const prompt = read(env.LOOPGATE_PROMPT_FILE) ?? "";
const feedback = read(env.LOOPGATE_FEEDBACK_FILE?.replace(/\.json$/, ".txt"));
const answer = JSON.parse(read(env.LOOPGATE_ANSWER_FILE) ?? "null");

console.log(`agent: attempt ${iteration} — ${prompt.split("\n")[0]}`);
if (feedback !== undefined) console.log(`agent: read the feedback:\n${feedback.trim()}`);

/** What the human chose: a number or a string userId, from the option's label or the guidance. */
function chosenFormat() {
  if (answer === null) return undefined;
  const said = `${answer.label ?? ""} ${answer.answer.text ?? ""}`.toLowerCase();
  if (said.includes("number") || answer.answer.option === 2) return "number";
  if (said.includes("string") || answer.answer.option === 1) return "string";
  return undefined;
}

const CHECK = `  const user = findUser(username, password);
  if (user === undefined) throw new Error("invalid credentials");`;

// The seed's story: each attempt fixes the last failure and makes the next mistake.
const ATTEMPTS = {
  1: `  // Attempt 1: checks the credentials, forgets to issue the token.\n  return { ok: true };`,
  2: `  // Attempt 2: issues a token, but identifies the user by name only.\n  return { token: sign({ sub: user.username }, secret) };`,
  3: `  // Attempt 3: adds userId, as a string.\n  return { token: sign({ userId: String(user.id) }, secret) };`,
  number: `  return { token: sign({ userId: user.id }, secret) };`,
  string: `  return { token: sign({ userId: String(user.id) }, secret) };`,
};

const format = chosenFormat();
const body = ATTEMPTS[format ?? Math.min(iteration, 3)];
if (format !== undefined) console.log(`agent: the human chose a ${format} userId`);
if (format === "string") {
  // Option 1 says "update test": the agent changes the expectation, not the implementation.
  const testFile = join(workspace, "test", "login.test.js");
  writeFileSync(
    testFile,
    readFileSync(testFile, "utf8").replace(/userId, 123\)/, 'userId, "123")'),
  );
}

const file = join(workspace, "src", "login.js");
const before = readFileSync(file, "utf8");
const after = `import { sign } from "./jwt.js";
import { findUser } from "./users.js";

/** Logs a user in: returns { token }, an HS256 JWT carrying the user's id. */
export function login(username, password, secret) {
${CHECK}
${body}
}
`;
writeFileSync(file, after);

// A whole-file diff is enough for the escalation's diff stat; a real agent would run git diff.
const lines = (text, mark) =>
  text
    .trimEnd()
    .split("\n")
    .map((line) => `${mark}${line}`);
const diff = [
  "--- a/src/login.js",
  "+++ b/src/login.js",
  ...lines(before, "-"),
  ...lines(after, "+"),
];
appendFileSync(
  env.LOOPGATE_REPORT_FILE,
  `${JSON.stringify({ spend: 0.02, tokens: 900, diff: `${diff.join("\n")}\n` })}\n`,
);
console.log(`agent: wrote src/login.js`);
