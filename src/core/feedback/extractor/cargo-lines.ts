import type { LineReader } from "./extraction.js";
import { newDraft, setLocation, setMessage } from "./failure-draft.js";
import { nextNonBlank } from "./line-blocks.js";
import { parseLocation } from "./stack-frames.js";

/** cargo's `---- name stdout ----` capture header and its `test name ... FAILED` / `name --- FAILED` lines. */
export const readCargoHeader: LineReader = (extraction, { index, trimmed }) => {
  if (trimmed.startsWith("---- ") && trimmed.endsWith(" ----")) {
    const name = trimmed.slice(5, -5).replace(/ (?:stdout|stderr)$/, "");
    extraction.open(newDraft("test", name, null));
    return index + 1;
  }
  const failed = /^test (\S+) \.\.\. FAILED$/.exec(trimmed) ?? /^(\S+) --- FAILED$/.exec(trimmed);
  if (failed?.[1] === undefined) return null;
  return extraction.oneLine(newDraft("test", failed[1], null), index + 1);
};

/** cargo's `thread 'name' panicked at src/lib.rs:10:5:` with the message on the next line (or inline, before Rust 1.73). */
export const readPanic: LineReader = (extraction, { index, trimmed }) => {
  if (!trimmed.startsWith("thread '") || !trimmed.includes(" panicked at ")) return null;
  const nameEnd = trimmed.indexOf("'", "thread '".length);
  const thread = nameEnd < 0 ? "" : trimmed.slice("thread '".length, nameEnd);
  const rest = trimmed.slice(trimmed.indexOf(" panicked at ") + " panicked at ".length);
  const draft =
    extraction.current ??
    extraction.open(
      thread === "" || thread === "main"
        ? newDraft("orphan", null, null)
        : newDraft("test", thread, null),
    );
  if (rest.endsWith(":")) {
    const location = parseLocation(rest.slice(0, -1));
    if (location !== null) setLocation(draft, location);
    const cursor = nextNonBlank(extraction.lines, index + 1);
    setMessage(draft, (extraction.lines[cursor] ?? "").trim());
    return cursor + 1;
  }
  const quoteEnd = rest.lastIndexOf("', ");
  if (rest.startsWith("'") && quoteEnd > 0) {
    setMessage(draft, rest.slice(1, quoteEnd));
    const location = parseLocation(rest.slice(quoteEnd + 3));
    if (location !== null) setLocation(draft, location);
  } else if (rest.startsWith("'")) {
    // A multi-line message: its first line is here, the location comes with its last.
    setMessage(draft, rest.slice(1));
  }
  return index + 1;
};
