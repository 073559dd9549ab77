import type * as v from "valibot";

/** A JSON Schema (draft 2020-12) node. */
export type JsonSchema = { [key: string]: unknown };

/** The parts of a valibot node this conversion reads. */
interface Node {
  readonly type: string;
  readonly kind?: string;
  readonly pipe?: readonly Node[];
  readonly wrapped?: Node;
  readonly entries?: Readonly<Record<string, Node>>;
  readonly item?: Node;
  readonly options?: readonly (Node | string)[];
  readonly key?: Node;
  readonly value?: Node;
  readonly literal?: unknown;
  readonly requirement?: unknown;
  readonly description?: string;
  /** A lazy schema's forms, when it picks one by the input's shape (task-file.ts's `byShape`). */
  readonly forms?: readonly Node[];
}

/** What a pipe's validation and metadata actions add to the schema of its base. */
function actionKeywords(action: Node, base: JsonSchema): JsonSchema {
  const requirement = action.requirement;
  switch (action.type) {
    case "integer":
      return { type: "integer" };
    case "min_value":
      return { minimum: requirement };
    case "max_value":
      return { maximum: requirement };
    case "min_length":
      return base.type === "array" ? { minItems: requirement } : { minLength: requirement };
    case "max_length":
      return base.type === "array" ? { maxItems: requirement } : { maxLength: requirement };
    case "non_empty":
      return { minLength: 1 };
    case "regex":
      return { pattern: (requirement as RegExp).source };
    case "description":
      return { description: action.description };
    default:
      // `finite` is implied by JSON; `check` and transforms have no JSON Schema keyword.
      return {};
  }
}

function convert(node: Node): JsonSchema {
  if (node.pipe !== undefined) {
    // A strict mapping is a guard followed by its object schema; other pipes start with theirs.
    const base = node.pipe.find((item) => item.entries !== undefined) ?? node.pipe[0];
    let schema = base === undefined ? {} : convert(base);
    for (const action of node.pipe.slice(1)) {
      if (action.kind !== "schema") schema = { ...schema, ...actionKeywords(action, schema) };
    }
    return schema;
  }
  switch (node.type) {
    case "strict_object": {
      const entries = Object.entries(node.entries ?? {});
      const required = entries.filter(([, entry]) => entry.type !== "optional");
      return {
        type: "object",
        properties: Object.fromEntries(entries.map(([key, entry]) => [key, convert(entry)])),
        ...(required.length === 0 ? {} : { required: required.map(([key]) => key) }),
        additionalProperties: false,
      };
    }
    case "optional":
      return node.wrapped === undefined ? {} : convert(node.wrapped);
    case "nullable":
      return { anyOf: [node.wrapped === undefined ? {} : convert(node.wrapped), { type: "null" }] };
    case "array":
      return { type: "array", items: node.item === undefined ? {} : convert(node.item) };
    case "union":
      return { anyOf: (node.options ?? []).map((option) => convert(option as Node)) };
    case "record":
      return {
        type: "object",
        ...(node.key === undefined ? {} : { propertyNames: convert(node.key) }),
        additionalProperties: node.value === undefined ? {} : convert(node.value),
      };
    case "lazy":
      return { anyOf: (node.forms ?? []).map(convert) };
    case "picklist":
      return { enum: node.options };
    case "literal":
      return { const: node.literal };
    case "string":
    case "number":
    case "boolean":
      return { type: node.type };
    default:
      return {};
  }
}

/** Converts the subset of valibot the wire schemas use into a JSON Schema, for editor completion. */
export function jsonSchemaOf(schema: v.GenericSchema, title: string): JsonSchema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title,
    ...convert(schema as unknown as Node),
  };
}
