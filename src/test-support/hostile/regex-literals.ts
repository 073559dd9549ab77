import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** A regular expression literal as written in a source file. */
export interface RegexLiteral {
  /** `src/core/feedback/…/file.ts:12`, for messages. */
  readonly where: string;
  readonly source: string;
  readonly flags: string;
}

/** The product's source files under `folder`: tests and test support are not product code. */
export function productFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        entry.name.endsWith(".ts") &&
        !entry.name.endsWith(".test.ts") &&
        !entry.name.endsWith(".d.ts") &&
        !entry.parentPath.split(/[/\\]/).includes("test-support"),
    )
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Every regular expression literal in the files, found by the TypeScript parser rather than by a
 * pattern, so none is missed or invented. loopgate builds no regular expression at run time
 * (`new RegExp`), which the test using this checks too.
 */
export function regexLiterals(files: readonly string[], root: string): RegexLiteral[] {
  const found: RegexLiteral[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(tree);
        const end = literal.lastIndexOf("/");
        const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
        found.push({
          where: `${relative(root, file)}:${line}`,
          source: literal.slice(1, end),
          flags: literal.slice(end + 1),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  return found;
}
