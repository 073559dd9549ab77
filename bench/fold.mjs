// Benchmarks the pure loop's fold after `npm run build` (run it as `node bench/fold.mjs`).
//
// A journal of N tasks, eight at a time, each task failing its test once and proceeding at its
// second attempt (14 events a task, as `run` journals them), is folded four ways:
//   - replay: the core's whole-run fold (the DBOS driver's);
//   - entries: the runner's fold of journal entries, numbered, with each event's state shown to
//     a visitor as `history` folds them (src/runner/fold-entries.ts; `status`, `resume` and the
//     reads of one task fold through it without the visitor);
//   - transition: event by event with the effects after each, as the runner applies them;
//   - scan (the baseline, timed once): the same per-task moves with every task found by scanning
//     the list and the effects chosen by filtering every task, as the loop did before its
//     schedule index.
// Prints the median ms of LOOPGATE_FOLD_ROUNDS rounds (default 5) at 1,000 and 5,000 tasks
// (LOOPGATE_FOLD_SIZES) and the ratio between the sizes: 5 is linear, 25 is O(events × tasks).
// Target: replay's ratio at most 6.5. Writes the figures to bench/out/fold.json.
import { mkdir, writeFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { median } from "./lib/stats.mjs";

const load = (path) => import(new URL(`../dist/core/loop/${path}`, import.meta.url).href);
const { startLoop } = await load("start-loop.js");
const { transition, taskAfter } = await load("transition.js");
const { replay } = await load("replay.js");
const { foldEntries } = await import(
  new URL("../dist/runner/fold-entries.js", import.meta.url).href
);
const { effectsOf, taskEffect, taskStateOf } = await load("effects-of.js");
const { DEFAULT_ANSWER_POLICY, DEFAULT_REVIEW_WAIT } = await load("loop-plan.js");
const { DEFAULT_ITERATION_CONTROL } = await import(
  new URL("../dist/core/iteration-check.js", import.meta.url).href
);

const SIZES = (process.env.LOOPGATE_FOLD_SIZES ?? "1000,5000").split(",").map(Number);
const ROUNDS = Number(process.env.LOOPGATE_FOLD_ROUNDS ?? 5);
const CONCURRENCY = 8;
const TARGET_RATIO = 6.5;

const measure = { exitCode: 0, timedOut: false, durationMs: 3, spend: 0, tokens: 0 };

/** A plan of `count` tasks with a test and a review step, run eight at a time. */
function planOf(count) {
  const tasks = Array.from({ length: count }, (_, index) => ({
    id: `t${index + 1}`,
    prompt: "nothing",
    iterationControl: DEFAULT_ITERATION_CONTROL,
    stopConditions: {},
    onAnswer: DEFAULT_ANSWER_POLICY,
    reviewWait: DEFAULT_REVIEW_WAIT,
    hasTest: true,
    hasReview: true,
  }));
  return { tasks, concurrency: CONCURRENCY };
}

/** The outcome of the step an effect asks for: the test fails at the first attempt only. */
function outcomeOf(effect) {
  if (effect.step === "generate") return { step: "generate", output: "", ...measure };
  if (effect.step === "test") {
    const pass = effect.iteration >= 2;
    return {
      step: "test",
      status: pass ? "pass" : "fail",
      output: pass ? "" : "FAIL x\n",
      ...measure,
    };
  }
  return { step: "review", status: "approve", feedback: "", ...measure };
}

/** The event that carries out an effect, as the runner journals it (a start before each step). */
function eventsFor(effect) {
  const base = { effectId: effect.id, taskId: effect.taskId, iteration: effect.iteration };
  if (effect.kind === "record-decision") {
    return [{ type: "decision-recorded", ...base, input: effect.input, decision: effect.decision }];
  }
  return [
    { type: "step-started", ...base, step: effect.step },
    { type: "step-finished", ...base, outcome: outcomeOf(effect) },
  ];
}

/** The journal of a whole run: the ready effects carried out round-robin, eight tasks at once. */
function journalOf(plan) {
  const events = [];
  let { state, effects } = startLoop(plan);
  // Every ready task's next effect carried out in turn: each task's own events stay in order.
  while (effects[0]?.kind !== "finish") {
    for (const effect of effects) {
      for (const event of eventsFor(effect)) {
        events.push(event);
        state = transition(state, event).state;
      }
    }
    effects = effectsOf(state);
  }
  return events;
}

/** The fold as it was before the schedule index: every lookup a scan, the effects a filter. */
function scanFold(plan, events) {
  let tasks = startLoop(plan).state.tasks;
  let effects = [];
  for (const event of events) {
    const task = tasks.find((candidate) => candidate.id === event.taskId);
    const taskPlan = plan.tasks.find((candidate) => candidate.id === event.taskId);
    const applied = taskAfter(taskPlan, task, event);
    tasks = tasks.map((each) => (each === task ? applied : each));
    let open = 0;
    const paused = (each) =>
      each.phase.name === "awaiting-answer" || each.phase.name === "step-error";
    effects = tasks
      .filter((each) => each.phase.name !== "done")
      .filter((each) => paused(each) || open++ < CONCURRENCY)
      .map((each) =>
        taskEffect(
          plan.tasks.find((candidate) => candidate.id === each.id),
          each,
        ),
      );
  }
  return { tasks, effects };
}

/** Event by event through `transition`, as the runner applies what it journals. */
function transitionFold(plan, events) {
  let state = startLoop(plan).state;
  for (const event of events) state = transition(state, event).state;
  return state;
}

/** The runner's fold of numbered entries, a visitor reading each event's task as `history` does. */
function entriesFold(plan, events) {
  let seen = 0;
  const entries = events.map((event, index) => ({ seq: index + 1, event }));
  foldEntries(plan, entries, (entry, state) => {
    if (taskStateOf(state, entry.event.taskId) !== undefined) seen += 1;
  });
  return seen;
}

const folds = {
  replay: (plan, events) => replay(plan, events),
  entries: entriesFold,
  transition: transitionFold,
  scan: scanFold,
};

/**
 * Median wall time of each fold over the rounds, the folds taking turns; the scan, which takes
 * minutes at 5,000 tasks, once.
 */
function timeFolds(plan, events) {
  const times = Object.fromEntries(Object.keys(folds).map((name) => [name, []]));
  for (let round = -1; round < ROUNDS; round += 1) {
    for (const [name, fold] of Object.entries(folds)) {
      if (name === "scan" && round !== 0) continue;
      const start = performance.now();
      fold(plan, events);
      const ms = performance.now() - start;
      if (round >= 0) times[name].push(ms);
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([name, samples]) => [name, median(samples)]),
  );
}

const figures = [];
for (const size of SIZES) {
  const plan = planOf(size);
  const events = journalOf(plan);
  const final = replay(plan, events);
  if (final.tasks.some((task) => task.phase.name !== "done")) throw new Error("run did not finish");
  figures.push({ tasks: size, events: events.length, ms: timeFolds(plan, events) });
}

const fmt = (ms) => ms.toFixed(1).padStart(9);
console.log(`fold of a run's journal (median of ${ROUNDS} rounds, ms)`);
console.log(
  `${"tasks".padStart(6)} ${"events".padStart(7)} ${Object.keys(folds)
    .map((n) => n.padStart(9))
    .join(" ")}`,
);
for (const { tasks, events, ms } of figures) {
  console.log(
    `${String(tasks).padStart(6)} ${String(events).padStart(7)} ${Object.values(ms).map(fmt).join(" ")}`,
  );
}
const ratios = [];
for (let index = 1; index < figures.length; index += 1) {
  const [small, large] = [figures[index - 1], figures[index]];
  const ratio = Object.fromEntries(
    Object.keys(folds).map((name) => [name, large.ms[name] / small.ms[name]]),
  );
  ratios.push({ from: small.tasks, to: large.tasks, ratio });
  console.log(
    `${small.tasks} → ${large.tasks} tasks (${(large.tasks / small.tasks).toFixed(0)}×): ` +
      Object.entries(ratio)
        .map(([name, value]) => `${name} ${value.toFixed(1)}×`)
        .join(", "),
  );
}
const worst = Math.max(...ratios.map((entry) => entry.ratio.replay));
const met = ratios.length === 0 || worst <= TARGET_RATIO;
console.log(`target: replay ratio ≤ ${TARGET_RATIO} at 5× the tasks — ${met ? "met" : "NOT met"}`);
await mkdir(new URL("out/", import.meta.url), { recursive: true });
await writeFile(
  new URL("out/fold.json", import.meta.url),
  `${JSON.stringify({ rounds: ROUNDS, figures, ratios, target: TARGET_RATIO, met }, null, 2)}\n`,
);
