import * as v from "valibot";
import { fromWire } from "./codec.js";
import { closestKey } from "./closest-key.js";
import { InputError } from "./input-error.js";

type PathItem = NonNullable<v.BaseIssue<unknown>["path"]>[number];

/**
 * `path` followed by `key`: `.key`, or `["key"]` for a key that is data (a task id, a variable
 * name) with characters that would blur the path, a line break or a dot.
 */
export function withKey(path: string, key: string): string {
  if (!/^[\w$-]+$/.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

/** Renders a field path the way users write it: `iteration_check.history[0].test_result`. */
function renderPath(path: readonly PathItem[]): string {
  let out = "";
  for (const item of path) {
    out = typeof item.key === "number" ? `${out}[${item.key}]` : withKey(out, String(item.key));
  }
  return out;
}

/** Shows the offending value briefly and with its type, so `"3"` is visibly not `3`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "number")
    return Number.isNaN(value) ? "NaN (a number)" : `${value} (a number)`;
  const shown = JSON.stringify(value);
  const brief = shown.length > 60 ? `${shown.slice(0, 57)}…"` : shown;
  return `${brief} (a ${typeof value})`;
}

/** Walks a schema down a path to the object schema that owns the last key, for suggestions. */
function objectKeysAt(schema: v.GenericSchema, keys: readonly (string | number)[]): string[] {
  let node: unknown = schema;
  const unwrap = (current: unknown): unknown => {
    let inner = current as {
      wrapped?: unknown;
      pipe?: unknown[];
      getter?: (input: unknown) => unknown;
    };
    for (;;) {
      if (inner.wrapped !== undefined) inner = inner.wrapped as typeof inner;
      // A lazy schema picks its form by the input; keys are only ever a mapping's.
      else if (inner.getter !== undefined) inner = inner.getter({}) as typeof inner;
      else if (Array.isArray(inner.pipe))
        // A mapping is a pipe whose object schema follows a guard; other pipes start with their schema.
        inner = (inner.pipe.find((item) => (item as { entries?: unknown }).entries !== undefined) ??
          inner.pipe[0]) as typeof inner;
      else return inner;
    }
  };
  for (const key of keys) {
    const current = unwrap(node) as {
      entries?: Record<string, unknown>;
      item?: unknown;
      value?: unknown;
    };
    // A record (`prices`, keyed by model) holds the same schema under every key.
    node = typeof key === "number" ? current.item : (current.entries?.[key] ?? current.value);
    if (node === undefined) return [];
  }
  const owner = unwrap(node) as { entries?: Record<string, unknown> };
  return owner.entries === undefined ? [] : Object.keys(owner.entries);
}

/** Turns valibot's first issue into one clear error naming the field and the bad value. */
function inputErrorOf(schema: v.GenericSchema, issue: v.BaseIssue<unknown>): InputError {
  const path = issue.path ?? [];
  const last = path.at(-1);
  if (last !== undefined && last.origin === "key") {
    const ownerPath = path.slice(0, -1);
    const known = objectKeysAt(
      schema,
      ownerPath.map((item) => item.key as string | number),
    );
    // A required key that is missing is reported after any unknown key of the same mapping:
    // `max_iteration` explains the missing `max_iterations` better than its absence does.
    const key =
      issue.expected === "never"
        ? String(last.key)
        : Object.keys(last.input as object).find((candidate) => !known.includes(candidate));
    if (key === undefined) return new InputError(renderPath(path), "is required but missing");
    const suggestion = closestKey(key, known);
    const hint = suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`;
    // Quoted as JSON so that a key with a line break or a control character stays on one line.
    return new InputError(
      renderPath(ownerPath) || "document",
      `unknown key ${JSON.stringify(key)}${hint}`,
    );
  }
  const where = renderPath(path) || "document";
  if (issue.input === undefined && path.length > 0) {
    return new InputError(where, "is required but missing");
  }
  return new InputError(where, `${issue.message}, got ${describeValue(issue.input)}`);
}

/** Validates a parsed document against its schema (strict, first problem wins) and decodes it to camelCase. */
export function decodeDocument(schema: v.GenericSchema, document: unknown): unknown {
  const result = v.safeParse(schema, document, { abortEarly: true });
  if (!result.success) {
    const [issue] = result.issues;
    throw inputErrorOf(schema, issue);
  }
  return fromWire(result.output);
}
