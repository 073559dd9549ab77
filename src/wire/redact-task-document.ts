import { isRecord } from "../core/json-record.js";
import { redactNamedValue } from "../core/redaction/redact-strings.js";
import { redact } from "../core/redaction/redaction.js";

/**
 * A task file's document as the journal keeps it: every string redacted (prompts, commands),
 * each `env` value as it reads after its variable's name (`API_TOKEN` loses its value,
 * `NODE_ENV` keeps it). Keys, task ids and the shape are kept, so the document still decodes.
 */
export function redactTaskDocument(document: unknown, key = ""): unknown {
  if (typeof document === "string") return redact(document);
  if (Array.isArray(document)) return document.map((item) => redactTaskDocument(item));
  if (!isRecord(document)) return document;
  return Object.fromEntries(
    Object.entries(document).map(([name, value]) => [
      name,
      typeof value !== "string"
        ? redactTaskDocument(value, name)
        : key === "env"
          ? redactNamedValue(name, value)
          : name === "id"
            ? value
            : redact(value),
    ]),
  );
}
