// Times one regular expression scanning a text, in a worker thread so that the test can end a
// scan that would take hours (terminate() stops a regex mid-match; nothing else can).
import { performance } from "node:perf_hooks";
import { parentPort } from "node:worker_threads";

parentPort.on("message", ({ id, source, flags, text, repeats }) => {
  try {
    // Every match, as a global search finds them: the most work any use of the regex can ask
    // for. Sticky patterns are tried at every position by the scanners that use them: search.
    // `test` finds them without making an array per match (`exec`, `matchAll`) or a new string
    // (`replace`), whose garbage would be timed too.
    const pattern = new RegExp(source, `${flags.replace(/[gy]/g, "")}g`);
    const scan = (subject) => {
      let matches = 0;
      pattern.lastIndex = 0;
      for (let from = 0; pattern.test(subject); from = pattern.lastIndex) {
        matches += 1;
        // An empty match leaves lastIndex where it was: step over one character.
        if (pattern.lastIndex === from) pattern.lastIndex += 1;
      }
      return matches;
    };
    // V8 interprets a new regex's first runs and compiles it to machine code once it is used
    // again: warm it up on a little of the text, so that every size times the compiled code.
    for (let round = 0; round < 3; round += 1) scan(text.slice(0, 1000));
    let best = Infinity;
    let matches = 0;
    for (let round = 0; round < repeats; round += 1) {
      const start = performance.now();
      matches = scan(text);
      best = Math.min(best, performance.now() - start);
    }
    parentPort.postMessage({ id, ms: best, matches });
  } catch (error) {
    parentPort.postMessage({ id, error: `${error.name}: ${error.message}` });
  }
});
