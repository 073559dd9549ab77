// Key-fact recall (issue 3, bench a): the fraction of a failure's facts — test name, file, line,
// expected, received, error keyword — that a feedback text shows. Used when the build has no
// `factRecall` of its own (see feedback-bench.mjs); a fact that is null or absent is not counted.

/** The facts of one expected failure, as strings to look for. */
export function factsOf(failure) {
  const facts = [];
  const add = (kind, value) => {
    if (value !== null && value !== undefined) {
      facts.push({ kind, value: String(value) });
    }
  };
  add("test", failure.test);
  add("file", failure.file);
  add("line", failure.line);
  add("expected", failure.expected);
  add("received", failure.received);
  add("keyword", failure.keyword);
  return facts;
}

const squash = (text) => text.replace(/\s+/g, " ").trim();

/** Whether `text` shows one fact. A line shows as `:LINE`; a test as its full name or its last part. */
export function showsFact(text, fact) {
  const haystack = squash(text);
  const value = squash(fact.value);
  if (fact.kind === "line") return new RegExp(`:${value}(?!\\d)`).test(haystack);
  if (haystack.includes(value)) return true;
  if (fact.kind === "test") {
    const leaf =
      value
        .split(/ › | > |::| \/ /)
        .pop()
        ?.trim() ?? "";
    return leaf.length >= 4 && haystack.includes(leaf);
  }
  if (fact.kind === "file") {
    const base = value.split("/").pop() ?? value;
    return base.length >= 4 && haystack.includes(base);
  }
  return false;
}

/** `{ found, total }` for the facts of `failures` in `text`. */
export function factRecall(text, failures) {
  let found = 0;
  let total = 0;
  for (const failure of failures) {
    for (const fact of factsOf(failure)) {
      total += 1;
      if (showsFact(text, fact)) found += 1;
    }
  }
  return { found, total };
}
