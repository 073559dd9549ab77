import { Document, visit } from "yaml";
import { hasUnprintable, printable } from "../core/printable.js";

/** Output formats of the CLI: YAML by default, JSON with `--json`; the keys are the same. */
export type OutputFormat = "yaml" | "json";

/**
 * Renders a wire document; multi-line strings become YAML block scalars so they read as written.
 * What loopgate prints comes from untrusted text (test output, reviews, answers): controls and
 * escape sequences leave as visible `\uXXXX` escapes (see `printable`), which JSON and YAML's
 * double-quoted strings read back as the same characters, so the document keeps its value.
 */
export function render(document: unknown, format: OutputFormat): string {
  if (format === "json") return printable(`${JSON.stringify(document, null, 2)}\n`);
  const yaml = new Document(document, { aliasDuplicateObjects: false });
  visit(yaml, {
    Scalar(_key, node) {
      // Plain and block scalars have no escapes: such a string goes in double quotes.
      if (typeof node.value === "string" && hasUnprintable(node.value)) node.type = "QUOTE_DOUBLE";
    },
  });
  return printable(yaml.toString({ lineWidth: 0, blockQuote: "literal" }));
}
