import type { LineReader } from "./extraction.js";
import { newDraft, setMessage, type FailureDraft } from "./failure-draft.js";
import { isClosingLine } from "./log-noise.js";

/**
 * pytest's section headers (`___ test_x ___`, `___ ERROR collecting tests/x.py ___`) and its
 * short summary lines (`FAILED tests/a.py::test_x - message`).
 */
export const readPytestHeader: LineReader = (extraction, { index, trimmed }) => {
  const next = index + 1;
  if (trimmed.startsWith("___") && trimmed.endsWith("___")) {
    const title = trimChars(trimmed, "_").trim();
    if (title !== "") {
      const collecting = /^ERROR collecting (\S+)$/.exec(title);
      if (collecting?.[1] !== undefined) {
        extraction.open(newDraft("file", null, collecting[1]));
        return next;
      }
      const phase = /^ERROR at (?:setup|teardown) of (\S+)$/.exec(title);
      extraction.open(newDraft("test", pytestName(phase?.[1] ?? title), null));
      return next;
    }
  }
  const summary = /^(?:FAILED|ERROR) (\S+)(?: - (.*))?$/.exec(trimmed);
  if (summary?.[1] === undefined || isClosingLine(trimmed)) return null;
  return extraction.oneLine(nodeDraft(summary[1], summary[2] ?? ""), next);
};

/** pytest's `E   ` lines: the assertion's or error's words, the first one kept. */
export const readPytestErrorLine: LineReader = (extraction, { index, raw }) => {
  if (!/^E\s/.test(raw)) return null;
  setMessage(extraction.draft(), raw.slice(1).trim());
  return index + 1;
};

/** A pytest section title as a node id tail: `TestX.test_y[1.5]` → `TestX::test_y[1.5]`. */
function pytestName(title: string): string {
  const bracket = title.indexOf("[");
  const head = bracket < 0 ? title : title.slice(0, bracket);
  return head.replaceAll(".", "::") + (bracket < 0 ? "" : title.slice(bracket));
}

/** pytest's `FAILED tests/a.py::Class::test - message` as a draft. */
function nodeDraft(nodeId: string, message: string): FailureDraft {
  const separator = nodeId.indexOf("::");
  const draft =
    separator < 0
      ? newDraft("file", null, nodeId)
      : newDraft("test", nodeId.slice(separator + 2), nodeId.slice(0, separator));
  setMessage(draft, message.trim());
  return draft;
}

/** `text` without leading and trailing runs of `char`. */
function trimChars(text: string, char: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charAt(start) === char) start += 1;
  while (end > start && text.charAt(end - 1) === char) end -= 1;
  return text.slice(start, end);
}
