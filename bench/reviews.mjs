// The review bench (issue 8, items 5 and 7): run `npm run build`, then `node bench/reviews.mjs`.
// Recall and priorities over fixtures/reviews/real-world are printed per format and overall
// beside the first-500-characters baseline, the held-out corpus (fixtures/reviews/held-out) on
// a row of its own, the second and third held-out corpora (fixtures/reviews/held-out-2, -3) on rows
// of their own, and written to bench/out/reviews.json.
import { runReviewBench } from "./lib/review-bench.mjs";

await runReviewBench();
