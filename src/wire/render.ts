import { stringify } from "yaml";

/** Output formats of the CLI: YAML by default, JSON with `--json`; the keys are the same. */
export type OutputFormat = "yaml" | "json";

/** Renders a wire document; multi-line strings become YAML block scalars so they read as written. */
export function render(document: unknown, format: OutputFormat): string {
  if (format === "json") return `${JSON.stringify(document, null, 2)}\n`;
  return stringify(document, { lineWidth: 0, blockQuote: "literal", aliasDuplicateObjects: false });
}
