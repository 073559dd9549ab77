/** What a test expected and what the code produced, each exactly as the runner printed it. */
export interface AssertedValues {
  readonly expected: string;
  readonly received: string;
}

/** Chai/Vitest verbs between the received and the expected value: `expected 1 to be 2`. */
const CHAI_VERBS: readonly string[] = [
  " to deeply equal ",
  " to strictly equal ",
  " to equal ",
  " to eql ",
  " to match object ",
  " to be an instance of ",
  " to be ",
];

/**
 * The values an assertion message states, or null: Chai/Vitest (`expected '1' to be 1`),
 * pytest (`assert '123' == 123`), and the Go idioms (`got 2, want 3`, `f() = 2; want 3`,
 * `expected 3, got 2`, `On 12, expected '12th', but got '12nd'`). Messages a runner cut short (`…`, `...`) state nothing reliable.
 */
export function valuesFromMessage(message: string): AssertedValues | null {
  const text = withoutErrorName(message.trim());
  // Vitest elides nested values too: `{ id: 1, …(1) }`.
  if (text.endsWith("...") || text.endsWith("…") || text.includes("…(")) return null;
  return (
    callCounts(text) ??
    chaiPropertyValues(text) ??
    chaiValues(text) ??
    pytestValues(text) ??
    goValues(text) ??
    shouldValues(text) ??
    labelledValues(text)
  );
}

/**
 * Chai's property check: `expected { Object (a, b) } to have nested property 'b.d.0' of 'o', but
 * got 'a'` — the property's wanted value after ` of `, what it held after `, but got `. Found by
 * position: the object and the values hold spaces.
 */
function chaiPropertyValues(text: string): AssertedValues | null {
  if (!text.startsWith("expected ")) return null;
  const property = /\bto have (?:(?:nested|own|deep) )*property /.exec(text);
  if (property === null) return null;
  const got = text.lastIndexOf(", but got ");
  const of = got < 0 ? -1 : text.lastIndexOf(" of ", got);
  if (of < property.index) return null;
  return nonEmpty(text.slice(of + " of ".length, got), text.slice(got + ", but got ".length));
}

/** A check's own words for its wanted side: `- should have 3 results, got 2` (doublestar). */
const SHOULD_GOT =
  /(?:^|[\s,;:-])should (?:have|be|contain|return|equal) (.+?),? (?:but )?got (.+)$/i;

/** `should have 3 results, got 2`: what the check wanted after `should …`, what it got after `got`. */
function shouldValues(text: string): AssertedValues | null {
  const match = SHOULD_GOT.exec(text);
  if (match?.[1] === undefined || match[2] === undefined) return null;
  return counted(match[1], trimSeparators(match[2]));
}

/** A count and the thing counted (`3 results`), then the count alone; or null. */
const COUNT_OF = /^(-?\d+) [a-z]+(?: [a-z]+)?$/i;

/**
 * A counted side read as its count when the other is a bare number (`3 results` against `2`):
 * the noun names what was counted, not a value; other sides stay whole.
 */
function counted(expected: string, received: string): AssertedValues | null {
  const count = COUNT_OF.exec(expected.trim())?.[1];
  return nonEmpty(
    count !== undefined && /^-?\d+$/.test(received.trim()) ? count : expected,
    received,
  );
}

/** Vitest's count of a mock's calls: `expected "spy" to be called 3 times, but got 2 times`. */
const CALL_COUNTS = /^expected .+ to be called (\d+) times, but got (\d+) times$/;

/** The calls a mock was expected to get and got, as numbers: the mock's name is no value. */
function callCounts(text: string): AssertedValues | null {
  const counts = CALL_COUNTS.exec(text);
  return counts?.[1] === undefined || counts[2] === undefined
    ? null
    : { expected: counts[1], received: counts[2] };
}

/**
 * The received side after `actual:` (or `act:`): quoted or backticked, a bracketed list as Go's
 * `%v` prints it (`[2 3]`, no brackets inside), else a token up to `,`/`;`.
 */
const LABELLED_ACTUAL =
  /(?:^|[\s,;])act(?:ual)?(?::| =>)\s+(`[^`]*`|'[^']*'|"[^"]*"|\[[^[\]]*\]|[^\s,;]+)/i;
/** The expected side after `expected:` (or `exp:`, `should =>`), read as the received side is. */
const LABELLED_EXPECTED =
  /(?:^|[\s,;])(?:exp(?:ected)?:|should =>)\s+(`[^`]*`|'[^']*'|"[^"]*"|\[[^[\]]*\]|[^\s,;]+)/i;

/**
 * A custom assertion's labelled sides, in either order: `actual: \`0.868\`, expected: \`0.8458\``
 * (strsim's `assert_delta!`), `expected: 5, actual: 6`, gobwas/glob's `exp: [1 2 3], act: [2 3]`,
 * xstrings' `should => "15"` / `actual => "10"`.
 */
function labelledValues(text: string): AssertedValues | null {
  const enclosed = enclosedLabels(text);
  if (enclosed !== null) return enclosed;
  const actual = LABELLED_ACTUAL.exec(text);
  const expected = LABELLED_EXPECTED.exec(text);
  if (actual?.[1] === undefined || expected?.[1] === undefined) return null;
  return nonEmpty(expected[1], actual[1]);
}

/** A side's label in parentheses, as a comparison's ends print it: `(expected)`, `(actual)`. */
const ENCLOSED_LABEL: ReadonlyMap<string, "expected" | "received"> = new Map([
  ["(expected)", "expected"],
  ["(want)", "expected"],
  ["(actual)", "received"],
  ["(got)", "received"],
]);

/**
 * `(expected) X != Y (actual)`, each side labelled at its own end (robfig/cron's `Fail
 * evaluating …: (expected) 2012-07-09 15:00:00 +0000 UTC != 0001-01-01 00:00:00 +0000 UTC
 * (actual)`), in either order. Found by position: the sides hold spaces.
 */
function enclosedLabels(text: string): AssertedValues | null {
  const close = text.lastIndexOf(" (");
  const last = ENCLOSED_LABEL.get(text.slice(close + 1));
  if (close < 0 || last === undefined) return null;
  for (const [label, side] of ENCLOSED_LABEL) {
    if (side === last) continue;
    const open = text.lastIndexOf(`${label} `, close);
    const at = open < 0 ? -1 : text.indexOf(" != ", open);
    if (at < 0 || at > close) continue;
    const first = text.slice(open + label.length + 1, at);
    const second = text.slice(at + " != ".length, close);
    return side === "expected" ? nonEmpty(first, second) : nonEmpty(second, first);
  }
  return null;
}

/** The message without a leading `AssertionError: ` (or any `SomeError: `). */
function withoutErrorName(text: string): string {
  const colon = text.indexOf(": ");
  if (colon < 0) return text;
  const head = text.slice(0, colon);
  return /^[\w$.]+$/.test(head) && /(?:Error|Exception)$/.test(head) ? text.slice(colon + 2) : text;
}

/** `expected <received> to be <expected>`, minus Vitest's `// Object.is equality` note. */
function chaiValues(text: string): AssertedValues | null {
  if (!text.startsWith("expected ")) return null;
  for (const verb of CHAI_VERBS) {
    const at = text.indexOf(verb);
    if (at < 0) continue;
    const note = text.lastIndexOf(" // ");
    const expected = text.slice(at + verb.length, note > at ? note : text.length);
    // `to be defined`, `to be truthy` name a matcher, not a value; an instance's class is one.
    if (verb === " to be " && !PRINTED_LITERAL.test(expected)) return null;
    return nonEmpty(expected, text.slice("expected ".length, at));
  }
  return null;
}

/** The start of a printed value: a quote, a number, a bracket, or a JavaScript constant. */
const PRINTED_LITERAL = /^(?:["'`[{(\d-]|(?:true|false|null|undefined|NaN|-?Infinity)\b)/;

/** pytest's `assert <received> == <expected>`: tests conventionally put the result on the left. */
function pytestValues(text: string): AssertedValues | null {
  if (!text.startsWith("assert ")) return null;
  const at = text.indexOf(" == ");
  return at < 0 ? null : nonEmpty(text.slice(at + 4), text.slice("assert ".length, at));
}

/** Go's `got X, want Y` (or `have X`), `f() = X; want Y` and the reverse `expected Y, got X` (or `expecting`). */
function goValues(text: string): AssertedValues | null {
  const want = text.search(/[\s,;]want:?\s/);
  if (want >= 0) {
    const expected = withoutNote(afterWord(text, want));
    // `Got true want false` as often as `got true, want false`; `have 1, want 2` too.
    const lower = text.toLowerCase();
    const said = ["got", "have"]
      .map((word) => ({ word, at: lower.lastIndexOf(word, want) }))
      .filter(({ at }) => at === 0 || (at > 0 && /\s/.test(text.charAt(at - 1))))
      .sort((a, b) => b.at - a.at)[0];
    if (said !== undefined) {
      return nonEmpty(expected, trimSeparators(text.slice(said.at + said.word.length, want)));
    }
    const assigned = text.lastIndexOf(" = ", want);
    return assigned < 0 ? null : nonEmpty(expected, trimSeparators(text.slice(assigned + 3, want)));
  }
  // `got "a" expected "b"`, as Go tests often word it.
  const expectedAfter = text.search(/[\s,;]expected:?\s/);
  const gotBefore = expectedAfter < 0 ? -1 : text.lastIndexOf("got", expectedAfter);
  if (gotBefore >= 0 && (gotBefore === 0 || /\s/.test(text.charAt(gotBefore - 1)))) {
    return nonEmpty(
      afterWord(text, expectedAfter),
      trimSeparators(text.slice(gotBefore + 3, expectedAfter)),
    );
  }
  // `expected 3, got 2` (or `obtained 2`), also after what was checked: `On bytes(9999),
  // expected '10 kB', but got '9.8 kB'`, `5-7/2 => expected 160, got 32`, `Increment version,
  // expecting "1.3.0", got "1.3.3"`.
  const expectedAt = /(?:^|[,;:]\s|=>\s)expect(?:ed|ing)\s/i.exec(text);
  if (expectedAt === null) return null;
  const valueAt = expectedAt.index + expectedAt[0].length;
  const got = text.slice(valueAt).search(/[\s,;](?:got|obtained):?\s/);
  if (got < 0) return null;
  const before = text.slice(valueAt, valueAt + got).trimEnd();
  const but = before.endsWith(" but") || before.endsWith(",but");
  const expected = trimSeparators(but ? before.slice(0, -"but".length) : before);
  return counted(expected, afterWord(text, valueAt + got));
}

/**
 * A printed value without the note a message adds after it: `2 (EastAsianWidth=true)` → `2`,
 * `12 (EA)` → `12` (go-runewidth's `t.Errorf("… = %d, want %d (EA)")`); a value that is not one
 * literal (`[]int{1, 2}`, `Version(1.2)`) stays whole.
 */
function withoutNote(value: string): string {
  return GO_LITERAL_NOTE.exec(value)?.[1] ?? value;
}

/** One literal as Go's `%d`, `%v` or `%q` print it, then a parenthesised note. */
const GO_LITERAL_NOTE =
  /^(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)+'|true|false|nil) \([^()]*\)$/;

/**
 * What follows the separator and keyword (`, want: `) that starts at `index`, to the end of the
 * text: a value a message ends with keeps its last characters, commas and semicolons too (a
 * query string's `*,;`), as nothing follows them that they could separate it from.
 */
function afterWord(text: string, index: number): string {
  const rest = text.slice(index + 1).trimStart();
  const space = rest.search(/\s/);
  return space < 0 ? "" : rest.slice(space).trim().replace(/^:\s*/, "");
}

/** `text` without the punctuation and blanks that glue values into prose. */
function trimSeparators(text: string): string {
  let end = text.length;
  while (end > 0 && /[\s,;]/.test(text.charAt(end - 1))) end -= 1;
  return text.slice(0, end).replace(/^[\s:]+/, "");
}

/** Both sides, or null when either is empty. */
function nonEmpty(expected: string, received: string): AssertedValues | null {
  const e = expected.trim();
  const r = received.trim();
  return e === "" || r === "" ? null : { expected: e, received: r };
}
