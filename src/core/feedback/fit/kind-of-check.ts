import { ELLIPSIS } from "../clean/code-points.js";
import { elideValues } from "./elide-values.js";
import { withoutTrailing } from "../clean/without-trailing.js";

/**
 * The two sides printed after the words of a check and its colon (node:assert's `strictly
 * equal: '1' !== 1`): the same check prints them on lines of their own when they are long.
 */
const PRINTED_PAIR = /: … (?:!==|===|!=|==) …$/;

/** Words that only label the values beside them: a kind that ends in them says nothing more. */
const VALUE_LABEL = /^(?:expected|received|actual|got|but|was|want|should|[=>:,;.]+)$/i;

/**
 * An error's words as a kind of check: the values they quote elided (`elideValues`), and a
 * closing run of value labels around elided values dropped (`AssertionFailedError: expected: …
 * but was: …` is `AssertionFailedError`, `keeps quotes ==> expected: … but was: …` is `keeps
 * quotes`): an item beside it shows the values, and the labels only say which is which. Words
 * that are nothing but labels and values stay as they are.
 */
export function kindOfCheck(message: string, values: readonly string[]): string {
  const elided = withoutInnerPairs(
    elideValues(withoutMatcherHint(message), values).replace(PRINTED_PAIR, ":"),
  );
  const words = elided.split(" ");
  let end = words.length;
  let labelled = false;
  let elidedValue = false;
  while (end > 0) {
    const word = (words[end - 1] ?? "").replace(/[:,;]$/, "");
    if (word !== ELLIPSIS && word !== "" && !VALUE_LABEL.test(word)) break;
    if (/[a-z]/i.test(word)) labelled = true;
    if (word === ELLIPSIS) elidedValue = true;
    end -= 1;
  }
  // A closing label with no value beside it (`… within < 0.001 of expected`) is words of the check.
  const kind = withoutTrailing(words.slice(0, end).join(" "), " :,=>");
  // A colon that ends the words announced the values they no longer show (`Lists differ:`).
  return labelled && elidedValue && /[a-z]{2,}/i.test(kind) ? kind : withoutTrailing(elided, ":");
}

/** A side labelled with its colon between a check's words and the words that follow it. */
const INNER_PAIR = /(?<=: )(?:(?:actual|expected|received|left|right|got|want): …[,;:]? )+(?=\S)/gi;

/**
 * Words with the labelled sides inside them left out (`assertion failed: actual: …, expected:
 * …: actual not within < 0.001 of expected` is `assertion failed: actual not within < 0.001 of
 * expected`): the item shows the values, and the words after them say what the check was.
 * Words that are nothing else stay as they are.
 */
function withoutInnerPairs(elided: string): string {
  const without = elided.replace(INNER_PAIR, "");
  return /[a-z]{2,}/i.test(
    without.replace(/\b(?:actual|expected|received|left|right|got|want)\b/gi, ""),
  )
    ? without
    : elided;
}

/** Jest's and Playwright's matcher hint with placeholders for both sides, and its comment. */
const MATCHER_HINT =
  /^expect\((?:received|actual)\)\.((?:not\.|resolves\.|rejects\.)*\w+)\((?:expected)?\)(?: \/\/ .*)?$/;

/**
 * `expect(received).toBe(expected) // Object.is equality` as its matcher, `toBe`: the
 * placeholders show no code, and the comment explains the matcher a developer already knows.
 */
function withoutMatcherHint(message: string): string {
  const hint = message.replace(MATCHER_HINT, "$1");
  return hint === message ? matcherOf(message) : hint;
}

/**
 * An expectation's source line (RSpec's `expect(subject.ordinalize(n)).to eq(expected)`) as its
 * matcher, `to eq(expected)`: the subject is what the test and its place already show, the
 * matcher is the kind of check. Other words are returned as they are.
 */
function matcherOf(message: string): string {
  if (!message.startsWith("expect(")) return message;
  let depth = 0;
  for (let at = "expect".length; at < message.length; at += 1) {
    const char = message.charAt(at);
    if (char === "(") depth += 1;
    else if (char === ")") depth -= 1;
    if (depth > 0) continue;
    const rest = message.slice(at + 1);
    return /^\.(?:to|not_to|to_not|not\.)?\w*[ (]/.test(rest) ? rest.slice(1) : message;
  }
  return message;
}
