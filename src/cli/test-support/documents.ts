import fc from "fast-check";

/*
 * An independent description of the wire documents of SPEC §2 and §3, written from the SPEC
 * rather than from the schemas under test: valid documents are generated from it, and each
 * corruption below is invalid by construction under it.
 */

/** The type of one field of a wire document. */
export type Field =
  | { readonly kind: "int"; readonly min: number }
  | { readonly kind: "num"; readonly min?: number }
  | { readonly kind: "bool" }
  | { readonly kind: "str"; readonly nonEmpty?: boolean }
  | { readonly kind: "status"; readonly options: readonly string[] }
  | { readonly kind: "map"; readonly fields: Readonly<Record<string, Entry>> }
  | { readonly kind: "list"; readonly item: Field }
  | { readonly kind: "nullable"; readonly inner: Field };

/** A key of a mapping: its type and whether it must be present. */
export interface Entry {
  readonly field: Field;
  readonly required: boolean;
}

const int = (min: number): Field => ({ kind: "int", min });
const num = (min?: number): Field => (min === undefined ? { kind: "num" } : { kind: "num", min });
const bool: Field = { kind: "bool" };
const str: Field = { kind: "str" };
const nullable = (inner: Field): Field => ({ kind: "nullable", inner });
const required = (field: Field): Entry => ({ field, required: true });
const optional = (field: Field): Entry => ({ field, required: false });
const map = (fields: Record<string, Entry>): Field => ({ kind: "map", fields });
const status = (...options: string[]): Field => ({ kind: "status", options });

const approval = nullable(
  map({
    decision: required(status("approve", "reject")),
    by: optional(str),
    note: optional(str),
  }),
);

const limits = {
  budget_cap: optional(nullable(num(0))),
  stop_score: optional(nullable(num())),
  no_progress: optional(nullable(map({ window: optional(int(2)), min_delta: optional(num(0)) }))),
  time_limit_ms: optional(nullable(num(0))),
};

const measured = {
  spend: optional(num(0)),
  score: optional(nullable(num())),
  approval: optional(approval),
  scores: optional({ kind: "list", item: num() }),
  signatures: optional({ kind: "list", item: str }),
  elapsed_ms: optional(num(0)),
};

const testResult = map({ status: required(status("pass", "fail")), output: optional(str) });
const reviewResult = map({
  status: required(status("approve", "reject", "pending")),
  feedback: optional(str),
});

const settings = {
  iteration_control: optional(
    map({
      max_iterations: optional(int(1)),
      auto_retry_on_test_fail: optional(bool),
      auto_retry_on_review_reject: optional(bool),
      escalation_includes_diff: optional(bool),
      feedback_max_length: optional(int(1)),
    }),
  ),
  stop_conditions: optional(map(limits)),
};

/** SPEC §3's `decide` input document. */
export const DECIDE_DOCUMENT: Field = map({
  ...settings,
  iteration_check: required(
    map({
      task_id: required({ kind: "str", nonEmpty: true }),
      current_iteration: required(int(1)),
      max_iterations: optional(int(1)),
      test_result: required(testResult),
      review_result: required(reviewResult),
      ...measured,
      diff: optional(str),
      history: optional({
        kind: "list",
        item: map({
          iteration: required(int(1)),
          test_result: required(testResult),
          review_result: required(reviewResult),
          diff: optional(str),
          score: optional(nullable(num())),
        }),
      }),
    }),
  ),
});

/** SPEC §3's `--config FILE` document. */
export const CONFIG_DOCUMENT: Field = map(settings);

/** SPEC §2's `verdict` input document. */
export const VERDICT_DOCUMENT: Field = map({
  counters: required(map({ iteration: required(int(0)), ...measured })),
  policy: required(map({ max_iterations: required(int(1)), ...limits })),
});

// ---------------------------------------------------------------------------------------------
// Valid documents

type Doc = Record<string, unknown>;

/** A status word in random letter case: statuses are case-insensitive. */
function anyCase(word: string): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) =>
      [...word].map((letter, index) => (upper[index] ? letter.toUpperCase() : letter)).join(""),
    );
}

const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
const atLeast = (min: number) =>
  fc.double({ noNaN: true, noDefaultInfinity: true, min, max: min + 1e6 });
const words = fc.string({ maxLength: 40 });
const output = fc.oneof(
  words,
  fc.constant(
    "FAIL src/auth/login.test.ts\nExpected: token to contain userId\nReceived: undefined\n",
  ),
);

/** Drops the keys whose value is undefined, so an arbitrary can leave optional keys out. */
function defined(record: Record<string, unknown>): Doc {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

function maybe<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.option(arbitrary, { nil: undefined });
}

const testResultArb = fc
  .record({
    status: fc.constantFrom("pass", "fail").chain(anyCase),
    output: maybe(output),
  })
  .map(defined);
const reviewResultArb = fc
  .record({
    status: fc.constantFrom("approve", "reject", "pending").chain(anyCase),
    feedback: maybe(words),
  })
  .map(defined);
const approvalArb = fc.option(
  fc
    .record({
      decision: fc.constantFrom("approve", "reject").chain(anyCase),
      by: maybe(words),
      note: maybe(words),
    })
    .map(defined),
  { nil: null },
);

const iterationControlArb = fc
  .record({
    max_iterations: maybe(fc.integer({ min: 1, max: 10 })),
    auto_retry_on_test_fail: maybe(fc.boolean()),
    auto_retry_on_review_reject: maybe(fc.boolean()),
    escalation_includes_diff: maybe(fc.boolean()),
    feedback_max_length: maybe(fc.integer({ min: 1, max: 2000 })),
  })
  .map(defined);

const limitsArb = fc
  .record({
    budget_cap: maybe(fc.option(atLeast(0), { nil: null })),
    stop_score: maybe(fc.option(finite, { nil: null })),
    no_progress: maybe(
      fc.option(
        fc
          .record({
            window: maybe(fc.integer({ min: 2, max: 6 })),
            min_delta: maybe(atLeast(0)),
          })
          .map(defined),
        { nil: null },
      ),
    ),
    time_limit_ms: maybe(fc.option(atLeast(0), { nil: null })),
  })
  .map(defined);

const measuredArb = {
  spend: maybe(atLeast(0)),
  score: maybe(fc.option(finite, { nil: null })),
  approval: maybe(approvalArb),
  scores: maybe(fc.array(finite, { maxLength: 6 })),
  signatures: maybe(fc.array(words, { maxLength: 6 })),
  elapsed_ms: maybe(atLeast(0)),
};

/** Valid `--config` documents. */
export const configDocument: fc.Arbitrary<Doc> = fc
  .record({ iteration_control: maybe(iterationControlArb), stop_conditions: maybe(limitsArb) })
  .map(defined);

/** Valid `decide` documents: every optional key sometimes present, history in order. */
export const decideDocument: fc.Arbitrary<Doc> = fc.integer({ min: 1, max: 6 }).chain((current) =>
  fc
    .record({
      settings: configDocument,
      check: fc.record({
        task_id: fc.string({ minLength: 1, maxLength: 20 }),
        max_iterations: maybe(fc.integer({ min: 1, max: 10 })),
        test_result: testResultArb,
        review_result: reviewResultArb,
        ...measuredArb,
        diff: maybe(words),
        history: maybe(
          fc
            .subarray(
              Array.from({ length: current - 1 }, (_, index) => index + 1),
              { minLength: 0 },
            )
            .chain((iterations) =>
              fc.tuple(
                ...iterations.map((iteration) =>
                  fc
                    .record({
                      test_result: testResultArb,
                      review_result: reviewResultArb,
                      diff: maybe(words),
                      score: maybe(fc.option(finite, { nil: null })),
                    })
                    .map((attempt) => defined({ iteration, ...attempt })),
                ),
              ),
            ),
        ),
      }),
    })
    .map(({ settings, check }) => ({
      ...settings,
      iteration_check: defined({ ...check, current_iteration: current }),
    })),
);

/** Valid `verdict` documents. */
export const verdictDocument: fc.Arbitrary<Doc> = fc.record({
  counters: fc.record({ iteration: fc.integer({ min: 0, max: 20 }), ...measuredArb }).map(defined),
  policy: fc
    .record({ max_iterations: fc.integer({ min: 1, max: 20 }) })
    .chain((policy) => limitsArb.map((limits) => ({ ...policy, ...limits }))),
});

// ---------------------------------------------------------------------------------------------
// Where a document can be corrupted

type PathKey = string | number;

/** One value present in a document, with its type. */
interface Location {
  readonly path: readonly PathKey[];
  readonly field: Field;
}

/** One mapping present in a document, with its type. */
interface MappingLocation {
  readonly path: readonly PathKey[];
  readonly fields: Readonly<Record<string, Entry>>;
}

/** Renders a path as the CLI does: `iteration_check.history[0].test_result`. */
export function renderPath(path: readonly PathKey[]): string {
  let out = "";
  for (const key of path)
    out += typeof key === "number" ? `[${key}]` : `${out === "" ? "" : "."}${key}`;
  return out;
}

function strip(field: Field): Field {
  return field.kind === "nullable" ? field.inner : field;
}

/** Every value and every mapping present in `value`, walked along its type. */
function locate(
  value: unknown,
  field: Field,
  path: PathKey[] = [],
): {
  values: Location[];
  mappings: MappingLocation[];
} {
  const values: Location[] = [];
  const mappings: MappingLocation[] = [];
  const visit = (inner: unknown, type: Field, at: PathKey[]): void => {
    if (at.length > 0) values.push({ path: at, field: type });
    const bare = strip(type);
    if (inner === null || inner === undefined) return;
    if (bare.kind === "map") {
      mappings.push({ path: at, fields: bare.fields });
      for (const [key, child] of Object.entries(inner as Doc)) {
        const entry = bare.fields[key];
        if (entry !== undefined) visit(child, entry.field, [...at, key]);
      }
    } else if (bare.kind === "list") {
      (inner as unknown[]).forEach((item, index) => visit(item, bare.item, [...at, index]));
    }
  };
  visit(value, field, path);
  return { values, mappings };
}

function getAt(document: unknown, path: readonly PathKey[]): unknown {
  let node = document;
  for (const key of path) {
    node =
      typeof node === "object" && node !== null
        ? (node as Record<PathKey, unknown>)[key]
        : undefined;
  }
  return node;
}

/** A deep copy with the value at `path` replaced (or removed, for `undefined`). */
function setAt(document: unknown, path: readonly PathKey[], value: unknown): unknown {
  const copy = structuredClone(document);
  const parent = getAt(copy, path.slice(0, -1)) as Record<PathKey, unknown>;
  const last = path.at(-1) as PathKey;
  if (value === undefined) Reflect.deleteProperty(parent, last);
  else parent[last] = value;
  return copy;
}

/** Replaces the key `from` by `to` in the mapping at `path`, keeping the value and key order. */
function renameAt(document: unknown, path: readonly PathKey[], from: string, to: string): unknown {
  const copy = structuredClone(document);
  const renamed = Object.fromEntries(
    Object.entries(getAt(copy, path) as Doc).map(([key, value]) => [
      key === from ? to : key,
      value,
    ]),
  );
  return path.length === 0 ? renamed : setAt(copy, path, renamed);
}

// ---------------------------------------------------------------------------------------------
// Corruptions

/** How a corrupted document is written out. */
export type Syntax = "yaml" | "json";

/** A corrupted document: its text, and what the error message must contain. */
export interface Corruption {
  readonly kind: string;
  /** The document, or undefined when `text` is given directly. */
  readonly document?: unknown;
  /** Raw text, for corruptions made on the text itself. */
  readonly text?: string;
  /** The path the error must name (rendered), or "SOURCE" for the input's own name. */
  readonly where: string;
  /** Further text the error must contain, e.g. the misspelt key. */
  readonly mentions?: string;
}

const HUGE = "x".repeat(20_000);

/** Values of the wrong type, or out of range, for a field. Never a valid value by construction. */
function badValues(field: Field): fc.Arbitrary<unknown> {
  const notNull = field.kind !== "nullable";
  const bare = strip(field);
  const common: unknown[] = notNull ? [null] : [];
  switch (bare.kind) {
    case "int": {
      const below = fc.integer({ min: -1_000_000, max: bare.min - 1 });
      return fc.oneof(
        fc.constantFrom(...common, "3", String(bare.min), true, [bare.min], { value: bare.min }),
        fc.constantFrom(NaN, Infinity, -Infinity, bare.min + 0.5, HUGE),
        below,
      );
    }
    case "num": {
      const options = [
        fc.constantFrom(...common, "3", "0.5", false, [1], { value: 1 }, HUGE),
        fc.constantFrom(NaN, Infinity, -Infinity),
      ];
      if (bare.min !== undefined) {
        options.push(
          fc
            .double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: bare.min })
            // -0 is not below 0.
            .filter((value) => value < (bare.min ?? 0)),
        );
      }
      return fc.oneof(...options);
    }
    case "bool":
      return fc.constantFrom(...common, "true", "false", "yes", 1, 0, [true], HUGE);
    case "str":
      return fc.constantFrom(
        ...common,
        3,
        true,
        ["text"],
        { text: "x" },
        ...(bare.nonEmpty === true ? [""] : []),
      );
    case "status":
      return fc.constantFrom(
        ...common,
        "maybe",
        ` ${bare.options[0] ?? ""}`,
        "",
        1,
        true,
        [bare.options[0]],
        HUGE,
      );
    case "map":
      return fc.constantFrom(...common, [], ["x"], "mapping", 3, true, HUGE);
    case "list":
      return fc.constantFrom(...common, {}, { item: 1 }, "list", 3, HUGE);
    case "nullable":
      return badValues(bare);
  }
}

/** A misspelling of `key` made of one edit, that is none of `known`. */
function typo(key: string, known: readonly string[]): fc.Arbitrary<string> {
  const letter = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz_".split(""));
  return fc
    .tuple(fc.integer({ min: 0, max: key.length }), letter, fc.integer({ min: 0, max: 3 }))
    .map(([index, char, edit]) => {
      const at = Math.min(index, key.length - 1);
      switch (edit) {
        case 0:
          return key.slice(0, index) + char + key.slice(index);
        case 1:
          return key.slice(0, at) + key.slice(at + 1);
        case 2:
          return key.slice(0, at) + char + key.slice(at + 1);
        default:
          return key.slice(0, at) + (key[at + 1] ?? "") + (key[at] ?? "") + key.slice(at + 2);
      }
    })
    .filter((candidate) => candidate !== "" && !known.includes(candidate));
}

/** A JSON writer that can also write a mapping with a duplicated key, and Infinity as 1e999. */
export class Duplicated {
  constructor(
    readonly mapping: Doc,
    readonly key: string,
  ) {}
}

export function toJson(value: unknown): string {
  if (value instanceof Duplicated) {
    const entries = Object.entries(value.mapping).map(
      ([key, inner]) => `${JSON.stringify(key)}:${toJson(inner)}`,
    );
    const again = `${JSON.stringify(value.key)}:${toJson(value.mapping[value.key])}`;
    return `{${[...entries, again].join(",")}}`;
  }
  if (typeof value === "number") {
    if (Number.isNaN(value)) throw new Error("NaN has no JSON spelling");
    if (value === Infinity) return "1e999";
    if (value === -Infinity) return "-1e999";
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).map(
      ([key, inner]) => `${JSON.stringify(key)}:${toJson(inner)}`,
    );
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

/** All corruptions of a valid document of type `type`; each is invalid by construction. */
export function corruptions(document: Doc, type: Field): fc.Arbitrary<Corruption> {
  const { values, mappings } = locate(document, type);
  const options: fc.Arbitrary<Corruption>[] = [];

  // Drop a required key.
  const requiredKeys = mappings.flatMap((mapping) =>
    Object.entries(mapping.fields)
      .filter(([, entry]) => entry.required)
      .map(([key]) => [...mapping.path, key]),
  );
  if (requiredKeys.length > 0) {
    options.push(
      fc.constantFrom(...requiredKeys).map((path) => ({
        kind: "drop a required key",
        document: setAt(document, path, undefined),
        where: renderPath(path),
        mentions: "required",
      })),
    );
  }

  // Rename a present key with a typo.
  const presentKeys = mappings.flatMap((mapping) =>
    Object.keys(getAt(document, mapping.path) as Doc).map((key) => ({ mapping, key })),
  );
  if (presentKeys.length > 0) {
    options.push(
      fc.constantFrom(...presentKeys).chain(({ mapping, key }) =>
        typo(key, Object.keys(mapping.fields)).map((misspelt) => ({
          kind: "misspell a key",
          document: renameAt(document, mapping.path, key, misspelt),
          where: renderPath(mapping.path) || "document",
          mentions: `unknown key "${misspelt}"`,
        })),
      ),
    );
  }

  // Insert an unknown key into a mapping.
  options.push(
    fc
      .constantFrom(...mappings)
      .chain((mapping) =>
        fc
          .stringMatching(/^[a-z][a-z_]{0,15}$/)
          .filter((key) => !Object.keys(mapping.fields).includes(key))
          .map((key) => ({ mapping, key })),
      )
      .chain(({ mapping, key }) =>
        fc.jsonValue().map((value) => ({
          kind: "insert an unknown key",
          document:
            mapping.path.length === 0
              ? { ...document, [key]: value }
              : setAt(document, mapping.path, {
                  ...(getAt(document, mapping.path) as Doc),
                  [key]: value,
                }),
          where: renderPath(mapping.path) || "document",
          mentions: `unknown key "${key}"`,
        })),
      ),
  );

  if (values.length > 0) {
    // Replace a value by a wrong-typed, negative, non-integer, non-finite or huge one.
    options.push(
      fc.constantFrom(...values).chain((location) =>
        badValues(location.field).map((bad) => ({
          kind: "replace a value",
          document: setAt(document, location.path, bad),
          where: renderPath(location.path),
        })),
      ),
    );
    // Wrap a value in a list.
    options.push(
      fc.constantFrom(...values).map((location) => ({
        kind: "wrap a value in a list",
        document: setAt(document, location.path, [getAt(document, location.path)]),
        // A list in a list is refused at its first item, which is the original list.
        where: renderPath(
          strip(location.field).kind === "list" ? [...location.path, 0] : location.path,
        ),
      })),
    );
  }

  // Wrap the whole document in a list, or replace it by a scalar.
  options.push(
    fc.constantFrom<unknown>([document], [], "iteration_check", 42, true, null).map((top) => ({
      kind: "replace the document",
      document: top,
      where: "document",
    })),
  );

  // Truncate the JSON text: a proper prefix of a JSON mapping never closes it.
  const json = toJson(document);
  options.push(
    fc.integer({ min: 1, max: json.length - 1 }).map((cut) => ({
      kind: "truncate the text",
      text: json.slice(0, cut),
      where: "SOURCE",
      mentions: "not valid YAML or JSON",
    })),
  );

  // Duplicate a key of a mapping.
  const nonEmpty = mappings.filter(
    (mapping) => Object.keys(getAt(document, mapping.path) as Doc).length > 0,
  );
  if (nonEmpty.length > 0)
    options.push(
      fc.constantFrom(...nonEmpty).chain((mapping) =>
        fc.constantFrom(...Object.keys(getAt(document, mapping.path) as Doc)).map((key) => {
          const duplicated = new Duplicated(getAt(document, mapping.path) as Doc, key);
          return {
            kind: "duplicate a key",
            text: toJson(
              mapping.path.length === 0 ? duplicated : setAt(document, mapping.path, duplicated),
            ),
            where: "SOURCE",
            mentions: `duplicate key ${JSON.stringify(key)}`,
          };
        }),
      ),
    );

  // Put a history entry out of order (decide only).
  const history = getAt(document, ["iteration_check", "history"]);
  if (Array.isArray(history) && history.length > 0) {
    const current = getAt(document, ["iteration_check", "current_iteration"]) as number;
    options.push(
      fc
        .tuple(fc.integer({ min: 0, max: history.length - 1 }), fc.integer({ min: 0, max: 3 }))
        .map(([index, beyond]) => ({
          kind: "history out of order",
          document: setAt(
            document,
            ["iteration_check", "history", index, "iteration"],
            current + beyond,
          ),
          where: renderPath(["iteration_check", "history", index, "iteration"]),
        })),
    );
  }

  return fc.oneof(...options);
}
