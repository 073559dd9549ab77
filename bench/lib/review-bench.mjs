// The review bench (issue 8, items 5 and 7), run after `npm run build`: over the real-world
// review corpus (fixtures/reviews/real-world/<format>/<case>.* with each case's facts.json), and
// apart from it over the held-out corpus (fixtures/reviews/held-out, real reviews no rule here
// was written against; it prints one row of its own) and the second held-out corpus
// (fixtures/reviews/held-out-2, kinds the others lack; a row of its own too) and the third
// (fixtures/reviews/held-out-3, bots and styles the others lack; its own row as well) and the
// fourth (fixtures/reviews/held-out-4, suggestion-only comments and review bodies; its own row) and
// the fifth (fixtures/reviews/held-out-5, Gemini and Codex badges and people's remarks; its own row), it
// measures the recall of the points' facts (path, line, keyword, rule) in the 500 characters of
// feedback against the first 500 characters of the review, whether each point gets the
// priority its facts give, the feedback's overall priority and the verdict the review states.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { factCounts } from "./fact-recall.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const dist = join(root, "dist");
const importDist = (path) => import(pathToFileURL(join(dist, path)).href);

export const REVIEW_TARGETS = { recall: 0.9, priority: 1 };
const MAX_LENGTH = 500;
const FACTS_SUFFIX = ".facts.json";
const CORPORA = join(root, "fixtures", "reviews");

/** Every `<format>/<case>.<ext>` of `base` that has a `<case>.facts.json` beside it. */
export function reviewCorpus(base = join(CORPORA, "real-world")) {
  const cases = [];
  if (!existsSync(base)) return cases;
  for (const format of readdirSync(base, { withFileTypes: true })) {
    if (!format.isDirectory()) continue;
    const dir = join(base, format.name);
    const files = readdirSync(dir).sort();
    for (const factsFile of files.filter((file) => file.endsWith(FACTS_SUFFIX))) {
      const name = factsFile.slice(0, -FACTS_SUFFIX.length);
      const review = files.find((file) => file !== factsFile && file.startsWith(`${name}.`));
      if (review === undefined) continue;
      cases.push({
        format: format.name,
        name: `${format.name}/${name}`,
        file: join(dir, review),
        facts: JSON.parse(readFileSync(join(dir, factsFile), "utf8")),
      });
    }
  }
  return cases.sort((a, b) => a.name.localeCompare(b.name));
}

/** A point's facts in the shape `factCounts` reads: the file is the point's path. */
function recallFacts(points) {
  return points.map((point) => ({
    file: point.path ?? null,
    line: point.line ?? null,
    keyword: point.keyword ?? null,
    rule: point.rule ?? null,
  }));
}

/** Lower case with markdown markup and runs of spaces collapsed, for matching a fact's words. */
const plain = (text) => text.replace(/[`*]/g, "").replace(/\s+/g, " ").toLowerCase();

/**
 * The loopgate point a fact describes: same path (either may be the longer, absolute one), same
 * line when the fact gives one, and the fact's keyword among the point's words. Each loopgate
 * point answers one fact at most.
 */
function matchPoint(fact, points, used) {
  const keyword = plain(fact.keyword ?? "");
  return points.findIndex((point, index) => {
    if (used.has(index)) return false;
    const words = plain(`${point.label ?? ""} ${point.message}`);
    if (keyword !== "" && !words.includes(keyword)) return false;
    if (fact.path !== null && fact.path !== undefined) {
      const path = point.path ?? "";
      if (!(path.endsWith(fact.path) || fact.path.endsWith(path)) || path === "") {
        if (!words.includes(plain(fact.path))) return false;
      }
    }
    return fact.line === null || fact.line === undefined || point.line === fact.line;
  });
}

/** How many fact points loopgate found as points and how many of those got the facts' priority. */
function priorityFigures(facts, points) {
  const used = new Set();
  let matched = 0;
  let right = 0;
  const wrong = [];
  for (const fact of facts.points) {
    const index = matchPoint(fact, points, used);
    if (index < 0) {
      wrong.push({ keyword: fact.keyword, expected: fact.priority, got: null });
      continue;
    }
    used.add(index);
    matched += 1;
    const got = points[index].priority;
    if (got === fact.priority) right += 1;
    else wrong.push({ keyword: fact.keyword, expected: fact.priority, got });
  }
  return { matched, right, total: facts.points.length, extra: points.length - used.size, wrong };
}

const ratio = (found, total) => (total === 0 ? null : found / total);
const codePoints = (text) => Array.from(text);

/** The figures of one case: recall in feedback and baseline, points, priorities, status. */
async function caseFigures(entry, core) {
  const { feedback } = await core.stream.logFeedback(core.stream.openLog(entry.file), {
    kind: "review",
    maxLength: MAX_LENGTH,
  });
  const text = [feedback.summary, ...feedback.actionableItems].join("\n");
  const review = readFileSync(entry.file, "utf8");
  const head = codePoints(core.stripAnsi(review)).slice(0, MAX_LENGTH).join("");
  const facts = recallFacts(entry.facts.points);
  const points = core.reviewPointsOf(review);
  const status = core.reviewStatusOf(review) ?? null;
  return {
    case: entry.name,
    format: entry.format,
    loopgate: factCounts(text, facts),
    first500: factCounts(head, facts),
    points: priorityFigures(entry.facts, points),
    priority: { expected: entry.facts.priority, got: feedback.priority },
    status: { expected: entry.facts.status, got: status },
    feedback: text,
  };
}

/** Sums of the case figures of one group (a format, or the whole corpus). */
function totals(rows) {
  const sum = (pick) => rows.reduce((total, row) => total + pick(row), 0);
  return {
    cases: rows.length,
    facts: sum((row) => row.loopgate.total),
    loopgate: ratio(
      sum((row) => row.loopgate.found),
      sum((row) => row.loopgate.total),
    ),
    first500: ratio(
      sum((row) => row.first500.found),
      sum((row) => row.first500.total),
    ),
    points: sum((row) => row.points.total),
    pointsFound: sum((row) => row.points.matched),
    pointPriorityRight: sum((row) => row.points.right),
    extraPoints: sum((row) => row.points.extra),
    overallPriorityRight: sum((row) => (row.priority.expected === row.priority.got ? 1 : 0)),
    statusRight: sum((row) => (row.status.expected === row.status.got ? 1 : 0)),
  };
}

const fmt = (value, digits = 3) =>
  value === null
    ? "  n/a"
    : value.toLocaleString("en-US", {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });

/** One table row: recall beside its baseline, then the counts. */
function line(label, figures) {
  return [
    label.padEnd(14),
    fmt(figures.loopgate).padStart(8),
    fmt(figures.first500).padStart(10),
    `${figures.pointPriorityRight}/${figures.points}`.padStart(10),
    `${figures.overallPriorityRight}/${figures.cases}`.padStart(9),
    `${figures.statusRight}/${figures.cases}`.padStart(8),
    `${figures.pointsFound}/${figures.points}`.padStart(9),
    String(figures.extraPoints).padStart(6),
  ].join(" ");
}

/** Whether a group meets the targets: recall, and every point's and every review's priority. */
const meetsTargets = (figures) =>
  figures.loopgate !== null &&
  figures.loopgate >= REVIEW_TARGETS.recall &&
  figures.pointPriorityRight === figures.points &&
  figures.overallPriorityRight === figures.cases;

/** One line per fact point not found or given another priority, and per wrong review figure. */
function missLines(rows) {
  return rows.flatMap((row) => [
    ...row.points.wrong.map(
      (wrong) =>
        `   ${row.case}: "${wrong.keyword}" ${wrong.got === null ? "not a point" : `${wrong.got}, facts ${wrong.expected}`}`,
    ),
    ...(row.priority.expected === row.priority.got
      ? []
      : [`   ${row.case}: overall ${row.priority.got}, facts ${row.priority.expected}`]),
    ...(row.status.expected === row.status.got
      ? []
      : [`   ${row.case}: status ${row.status.got}, facts ${row.status.expected}`]),
  ]);
}

/**
 * Runs the review measurements over the corpus, prints them per format and overall beside the
 * first-500 baseline, then the held-out corpus on a row of its own, and writes
 * bench/out/reviews.json.
 */
export async function runReviewBench({
  log = console.log,
  corpus = reviewCorpus(),
  heldOut = reviewCorpus(join(CORPORA, "held-out")),
  heldOut2 = reviewCorpus(join(CORPORA, "held-out-2")),
  heldOut3 = reviewCorpus(join(CORPORA, "held-out-3")),
  heldOut4 = reviewCorpus(join(CORPORA, "held-out-4")),
  heldOut5 = reviewCorpus(join(CORPORA, "held-out-5")),
} = {}) {
  const core = {
    stream: await importDist("feedback-stream/index.js"),
    stripAnsi: (await importDist("core/feedback/clean/ansi.js")).stripAnsi,
    reviewPointsOf: (await importDist("core/feedback/review/review-points-of.js")).reviewPointsOf,
    reviewStatusOf: (await importDist("core/feedback/review/review-status-of.js")).reviewStatusOf,
  };
  const rows = [];
  for (const entry of corpus) rows.push(await caseFigures(entry, core));
  const formats = [...new Set(rows.map((row) => row.format))].sort();
  const byFormat = Object.fromEntries(
    formats.map((format) => [format, totals(rows.filter((row) => row.format === format))]),
  );
  const overall = totals(rows);
  overall.pass = meetsTargets(overall);
  const heldOutSet = async (entries) => {
    const perCase = [];
    for (const entry of entries) perCase.push(await caseFigures(entry, core));
    const overall = totals(perCase);
    overall.pass = meetsTargets(overall);
    return { overall, perCase };
  };
  const first = await heldOutSet(heldOut);
  const second = await heldOutSet(heldOut2);
  const third = await heldOutSet(heldOut3);
  const fourth = await heldOutSet(heldOut4);
  const fifth = await heldOutSet(heldOut5);
  const heldOutRows = first.perCase;
  const heldOutTotals = first.overall;

  log(`review bench — ${overall.cases} reviews, ${overall.facts} facts, ${MAX_LENGTH} characters`);
  log(
    `${"format".padEnd(14)} ${"recall".padStart(8)} ${"first-500".padStart(10)} ${"point prio".padStart(10)} ${"overall".padStart(9)} ${"status".padStart(8)} ${"found".padStart(9)} ${"extra".padStart(6)}`,
  );
  for (const format of formats) log(line(format, byFormat[format]));
  log(line("all", overall));
  log(
    `targets: recall ≥ ${REVIEW_TARGETS.recall}, every point's and every review's priority right   ${overall.pass ? "PASS" : "MISS"}`,
  );
  const misses = missLines(rows);
  if (misses.length > 0) log(`misses:\n${misses.join("\n")}`);
  if (heldOutRows.length > 0) {
    log(
      `held-out — ${heldOutTotals.cases} real reviews no rule was written against, ${heldOutTotals.facts} facts`,
    );
    log(line("held-out", heldOutTotals));
    log(`held-out targets (the same)   ${heldOutTotals.pass ? "PASS" : "MISS"}`);
    const heldOutMisses = missLines(heldOutRows);
    if (heldOutMisses.length > 0) log(`held-out misses:\n${heldOutMisses.join("\n")}`);
  }
  const logSet = (name, set, kinds) => {
    if (set.perCase.length === 0) return;
    log(`${name} — ${set.overall.cases} real reviews of ${kinds}, ${set.overall.facts} facts`);
    log(line(name, set.overall));
    log(`${name} targets (the same)   ${set.overall.pass ? "PASS" : "MISS"}`);
    const setMisses = missLines(set.perCase);
    if (setMisses.length > 0) log(`${name} misses:\n${setMisses.join("\n")}`);
  };
  logSet("held-out-2", second, "kinds the corpora above lack");
  logSet("held-out-3", third, "bots and styles the corpora above lack");
  logSet(
    "held-out-4",
    fourth,
    "suggestion-only comments, review bodies and remarks the corpora above lack",
  );
  logSet("held-out-5", fifth, "Gemini and Codex badge comments and people's remarks");

  const report = {
    environment: { node: process.version, date: new Date().toISOString() },
    targets: REVIEW_TARGETS,
    overall,
    byFormat,
    perCase: rows,
    heldOut: first,
    heldOut2: second,
    heldOut3: third,
    heldOut4: fourth,
    heldOut5: fifth,
  };
  const outDir = join(root, "bench", "out");
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, "reviews.json"), `${JSON.stringify(report, null, 2)}\n`);
  log("written: bench/out/reviews.json");
  return report;
}
