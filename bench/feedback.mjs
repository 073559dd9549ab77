// The feedback bench (issue 3, item 8): run `npm run build`, then `node bench/feedback.mjs`.
// Figures and baselines are printed side by side and written to bench/out/feedback.json;
// LOOPGATE_BENCH_LOG_MB sets the synthetic log's size (200 by default).
import { runFeedbackBench } from "./lib/feedback-bench.mjs";

await runFeedbackBench();
