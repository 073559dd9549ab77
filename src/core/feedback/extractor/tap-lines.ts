import type { Extraction, LineReader } from "./extraction.js";
import { newDraft, setMessage, type FailureDraft } from "./failure-draft.js";
import { firstLineBelow, indentedBelow, skipBlock } from "./line-blocks.js";
import { frameLocation, parseLocation } from "./stack-frames.js";

/** TAP lines: `# Subtest:` nesting, `not ok` failures, the `---`/`...` diagnostic block. */
export const readTapLine: LineReader = (extraction, { index, trimmed, indent }) => {
  const next = index + 1;
  if (trimmed.startsWith("# Subtest: ")) {
    extraction.close();
    extraction.pushSuite(indent, trimmed.slice("# Subtest: ".length).trim());
    return next;
  }
  if (/^not ok\b/.test(trimmed)) {
    extraction.close();
    extraction.popSuites(indent);
    const numbered = trimmed.slice("not ok".length).replace(/^ \d+/, "");
    const rest = numbered.startsWith(" - ") ? numbered.slice(3) : numbered;
    const [title = "", directive = ""] = rest.split(" # ");
    // `# TODO` failures are expected to fail; `# SKIP` did not run.
    if (/^(?:todo|skip)\b/i.test(directive.trim())) {
      extraction.ignore();
      return next;
    }
    const name = title.trim();
    extraction.open(
      newDraft(
        name === "" ? "orphan" : "test",
        name === "" ? null : extraction.suitePath(name),
        null,
      ),
    );
    return next;
  }
  if (trimmed === "---" && extraction.current !== null) {
    extraction.inYaml = true;
    return next;
  }
  if (trimmed === "..." && extraction.inYaml) {
    extraction.inYaml = false;
    return next;
  }
  return null;
};

/** TAP YAML keys that carry the error (`error:`, `name:`) or the test's place (`location:`, `at:`). */
export const readYamlKey: LineReader = (extraction, { index, trimmed, indent }) => {
  if (!extraction.inYaml) return null;
  const key =
    /^(error|message|name|location|at|stack|source|duration_ms|failureType|code|operator|type):(?:\s(.*))?$/.exec(
      trimmed,
    );
  if (key?.[1] === undefined) return null;
  const draft = extraction.draft();
  const value = (key[2] ?? "").trim();
  const next = index + 1;
  switch (key[1]) {
    case "error":
    case "message":
      setMessage(
        draft,
        isBlockIndicator(value) ? blockMessage(extraction.lines, index, indent) : unquote(value),
      );
      return next;
    case "name":
      if (/^['"]?[\w$.]+['"]?$/.test(value)) draft.errorName ??= unquote(value);
      return next;
    case "location":
      draft.declared ??= parseLocation(unquote(value));
      return next;
    case "at":
      return readYamlAt(extraction, index, indent, value, draft);
    case "source":
      return skipBlock(extraction.lines, index, indent);
    case "operator":
      if (/^\w+$/.test(value)) draft.operator ??= value;
      return next;
    default:
      // `stack:` lines are frames and read as such; the rest is bookkeeping.
      return next;
  }
};

/**
 * Where a TAP producer says the assertion is: inline (`at: test/x.js:12:3`) or node-tap's
 * mapping on the lines below (`file:`/`line:`, or `fileName:`/`lineNumber:` since tap 16).
 */
function readYamlAt(
  extraction: Extraction,
  index: number,
  indent: number,
  value: string,
  draft: FailureDraft,
): number {
  if (value !== "") {
    // tape writes a frame (`Test.<anonymous> (file:///a.js:5:5)`), others a bare location.
    draft.declared ??= parseLocation(unquote(value)) ?? frameLocation(unquote(value));
    return index + 1;
  }
  const below = indentedBelow(extraction.lines, index, indent);
  const field = (...names: string[]): string | undefined => {
    const line = below.lines.find((candidate) =>
      names.some((name) => candidate.startsWith(`${name}: `)),
    );
    return line?.slice(line.indexOf(": ") + 2).trim();
  };
  const file = field("file", "fileName");
  const line = Number(field("line", "lineNumber"));
  if (file !== undefined && Number.isSafeInteger(line)) {
    draft.declared ??= { file: unquote(file), line };
  }
  return below.next;
}

/**
 * A YAML block's message: its first line, and — when that ends with node:assert's colon — the
 * block's next line of words (`'123' !== 123`, not a diff header).
 */
function blockMessage(lines: readonly string[], index: number, indent: number): string {
  const first = firstLineBelow(lines, index, indent);
  if (!first.endsWith(":")) return first;
  const words = indentedBlock(lines, index, indent)[1] ?? "";
  return words === "" || /^[+-]{1,3} /.test(words) ? first : `${first} ${words}`;
}

/** The first two non-blank lines of the block below `index`, deeper than `indent`. */
function indentedBlock(lines: readonly string[], index: number, indent: number): string[] {
  const found: string[] = [];
  for (let cursor = index + 1; cursor < lines.length && found.length < 2; cursor += 1) {
    const raw = lines[cursor] ?? "";
    if (raw.trim() === "") continue;
    if (raw.length - raw.trimStart().length <= indent) break;
    found.push(raw.trim());
  }
  return found;
}

/** YAML block scalar indicators (`|`, `|-`, `>`, `>-`, `|+`). */
export function isBlockIndicator(value: string): boolean {
  return /^[>|][+-]?$/.test(value);
}

/** A YAML scalar without its quotes. */
function unquote(value: string): string {
  const quote = value.charAt(0);
  if ((quote === "'" || quote === '"') && value.length >= 2 && value.endsWith(quote)) {
    const inner = value.slice(1, -1);
    return quote === "'" ? inner.replaceAll("''", "'") : inner;
  }
  return value;
}
