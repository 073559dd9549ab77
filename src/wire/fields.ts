import * as v from "valibot";

/** A finite number: YAML's `.inf` and `.nan` are numbers too, but never valid counters or caps. */
export const finiteNumber = v.pipe(
  v.number("expected a finite number"),
  v.finite("expected a finite number"),
);

/** A finite number >= `min`. */
export function numberAtLeast(min: number) {
  const expectation = `expected a finite number >= ${min}`;
  return v.pipe(v.number(expectation), v.finite(expectation), v.minValue(min, expectation));
}

/** An integer >= `min`; `"3"` is not `3`, and `1e300` is too large to count with. */
export function integerAtLeast(min: number) {
  const expectation = `expected an integer >= ${min}`;
  return v.pipe(
    v.number(expectation),
    v.integer(expectation),
    v.minValue(min, expectation),
    v.maxValue(Number.MAX_SAFE_INTEGER, `${expectation} and <= ${Number.MAX_SAFE_INTEGER}`),
  );
}

/** A boolean; `"true"` and `yes` are not. */
export const flag = v.boolean("expected true or false");

/** A string of any length, including empty. */
export const text = v.string("expected a string");

/** A non-empty string. */
export const name = v.pipe(
  v.string("expected a non-empty string"),
  v.nonEmpty("expected a non-empty string"),
);

/** One of a fixed set of words, matched case-insensitively (`PASS` = `pass`). */
export function status<const Options extends readonly [string, ...string[]]>(options: Options) {
  const expectation = `expected one of ${options.join(", ")}`;
  return v.pipe(v.string(expectation), v.toLowerCase(), v.picklist(options, expectation));
}

/**
 * A mapping with exactly these keys. valibot's objects accept arrays, so a list (even an empty
 * one, which has no unknown keys) is refused first.
 */
export function mapping<const Entries extends v.ObjectEntries>(entries: Entries, message: string) {
  return v.pipe(
    v.custom<Record<string, unknown>>(
      (input) => typeof input === "object" && input !== null && !Array.isArray(input),
      message,
    ),
    v.strictObject(entries, message),
  );
}

/** An optional field that may also be null; both mean "off". */
export function optionalNullable<T extends v.GenericSchema>(schema: T) {
  return v.optional(v.nullable(schema));
}

/** A list of items. */
export function list<T extends v.GenericSchema>(item: T) {
  return v.array(item, "expected a list");
}

/** Approval as SPEC §2 defines it: null, or a decision with who and why. */
export const approval = v.nullable(
  mapping(
    {
      decision: status(["approve", "reject"]),
      by: v.optional(text),
      note: v.optional(text),
    },
    "expected null or a mapping with decision (approve|reject), by, note",
  ),
);

/** NO_PROGRESS settings: window >= 2, min_delta >= 0. */
export const noProgress = mapping(
  {
    window: v.optional(integerAtLeast(2)),
    min_delta: v.optional(numberAtLeast(0)),
  },
  "expected a mapping with window and min_delta",
);

/** The limits shared by `verdict`'s policy and `decide`'s stop_conditions. */
export const limitEntries = {
  budget_cap: optionalNullable(numberAtLeast(0)),
  predict_budget: v.optional(
    v.pipe(
      flag,
      v.description("stop before an attempt the mean attempt cost says the budget cannot pay"),
    ),
  ),
  stop_score: optionalNullable(finiteNumber),
  no_progress: optionalNullable(noProgress),
  time_limit_ms: optionalNullable(numberAtLeast(0)),
};

/** Counters the caller measures, shared by `verdict`'s counters and `decide`'s iteration_check. */
export const measuredEntries = {
  spend: v.optional(numberAtLeast(0)),
  score: optionalNullable(finiteNumber),
  approval: v.optional(approval),
  scores: v.optional(list(finiteNumber)),
  signatures: v.optional(list(text)),
  elapsed_ms: v.optional(numberAtLeast(0)),
};
