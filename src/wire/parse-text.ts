import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
} from "yaml";
import { InputError } from "./input-error.js";
import { duplicateJsonKey, type DuplicateKey } from "./json-duplicate-key.js";

/**
 * Most tokens (keys, values, punctuation) a YAML document may hold, about 250,000 values. The
 * yaml library's tree costs about 200 bytes a token, so this bounds a document's memory near
 * 200 MB whatever its shape; JSON documents are read by `JSON.parse` and have no such limit.
 */
export const MAX_YAML_TOKENS = 1_000_000;

/** Where `offset` is, as YAML error messages say it: 1-based line and column. */
function positionAt(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  for (let index = text.indexOf("\n"); index !== -1 && index < offset;) {
    line += 1;
    index = text.indexOf("\n", index + 1);
  }
  return { line, col: offset - (text.lastIndexOf("\n", offset - 1) + 1) + 1 };
}

/** A key quoted for a message: briefly, and on one line whatever it holds. */
function quotedKey(key: string): string {
  return JSON.stringify(key.length > 60 ? `${key.slice(0, 57)}…` : key);
}

function duplicateError(text: string, source: string, duplicate: DuplicateKey): InputError {
  const { line, col } = positionAt(text, duplicate.offset);
  return new InputError(
    source,
    `not valid YAML or JSON at line ${line}, column ${col}: duplicate key ${quotedKey(duplicate.key)}`,
  );
}

/**
 * The first key that a mapping of the document holds twice, or null. yaml's own `uniqueKeys`
 * check compares each key with every earlier one (80,000 keys took 31 s); this keeps a set per
 * mapping, and walks the tree with a stack of its own, as deep as the parser let it be.
 */
function duplicateYamlKey(document: Document): DuplicateKey | null {
  const pending: unknown[] = [document.contents];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isMap(node)) {
      const keys = new Set<string>();
      for (const pair of node.items) {
        // The key as the plain object will hold it: `1` and `"1"` are one key there.
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const at = (pair.key as Node | null)?.range?.[0] ?? node.range?.[0] ?? 0;
        if (keys.has(key)) return { key, offset: at };
        keys.add(key);
        pending.push(pair.key, pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) pending.push(isPair(item) ? item.value : item);
    }
  }
  return null;
}

/** The document as JSON, when it is JSON: one `JSON.parse`, far lighter than a YAML tree. */
function parseJson(content: string, source: string): { value: unknown } | null {
  if (!/^\s*[[{]/.test(content)) return null;
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    // Flow-style YAML (`{a: 1}`) starts like JSON too; the YAML parser reads it, or says why not.
    return null;
  }
  const duplicate = duplicateJsonKey(content);
  if (duplicate !== null) throw duplicateError(content, source, duplicate);
  return { value };
}

/** Refuses a YAML document with more tokens than `MAX_YAML_TOKENS`, before building its tree. */
function checkTokenCount(content: string, source: string): void {
  // The lexer hands tokens over one by one and keeps none: counting costs no memory.
  const tokens = new Lexer().lex(content);
  for (let count = 0; !tokens.next().done; count += 1) {
    if (count >= MAX_YAML_TOKENS) {
      throw new InputError(
        source,
        `too many values for a YAML document (over ${MAX_YAML_TOKENS.toLocaleString("en")} tokens); give it as JSON`,
      );
    }
  }
}

/**
 * Parses an input document, YAML or JSON (JSON is YAML too, so both read alike: duplicate keys
 * are errors in either). `source` names the input in messages.
 */
export function parseText(content: string, source: string): unknown {
  if (content.trim() === "") throw new InputError(source, "the document is empty");
  const json = parseJson(content, source);
  if (json !== null) return json.value;
  checkTokenCount(content, source);
  const lineCounter = new LineCounter();
  const document = parseDocument(content, {
    uniqueKeys: false,
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
        : problem.message.startsWith("Maximum call stack size exceeded")
          ? "nested too deeply"
          : (problem.message.split("\n")[0] ?? problem.message);
    throw new InputError(source, `not valid YAML or JSON${where}: ${firstLine}`);
  }
  const duplicate = duplicateYamlKey(document);
  if (duplicate !== null) throw duplicateError(content, source, duplicate);
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // yaml refuses to expand an alias bomb; that is bad input, not an internal error.
    throw new InputError(source, `not valid input: ${(error as Error).message}`);
  }
}
