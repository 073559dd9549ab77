import { LineCounter, parseDocument } from "yaml";
import { InputError } from "./input-error.js";

/**
 * Parses an input document, YAML or JSON (JSON is YAML too, so one parser serves both and
 * duplicate keys are errors in either). `source` names the input in messages.
 */
export function parseText(content: string, source: string): unknown {
  if (content.trim() === "") throw new InputError(source, "the document is empty");
  const lineCounter = new LineCounter();
  const document = parseDocument(content, {
    uniqueKeys: true,
    prettyErrors: false,
    version: "1.2",
    lineCounter,
    // Warnings (a list used as a key, …) would reach stderr through process.emitWarning.
    logLevel: "error",
  });
  const [problem] = document.errors;
  if (problem !== undefined) {
    const position = lineCounter.linePos(problem.pos[0]);
    const where = position === undefined ? "" : ` at line ${position.line}, column ${position.col}`;
    const firstLine =
      problem.code === "MULTIPLE_DOCS"
        ? "the input holds several YAML documents (---); give one"
        : (problem.message.split("\n")[0] ?? problem.message);
    throw new InputError(source, `not valid YAML or JSON${where}: ${firstLine}`);
  }
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // yaml refuses to expand an alias bomb; that is bad input, not an internal error.
    throw new InputError(source, `not valid input: ${(error as Error).message}`);
  }
}
