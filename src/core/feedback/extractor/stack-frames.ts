/** A place in a source file, as a stack frame or a runner's location line prints it. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
}

/**
 * Path fragments of code the user did not write: Node internals, installed packages, the Rust
 * and Go standard libraries, Python's site-packages. Frames there say nothing about the fix.
 */
const INTERNAL_PATH_MARKERS: readonly string[] = [
  "node_modules",
  "node:",
  "<anonymous>",
  "/rustc/",
  "/.cargo/registry/",
  "/.rustup/",
  "/site-packages/",
  "/dist-packages/",
  "/lib/python",
  "/usr/local/go/",
  "/go/src/runtime/",
  "/go/src/testing/",
];

/** Whether a frame's path is runner or runtime code rather than the user's. */
export function isInternalPath(path: string): boolean {
  if (path.startsWith("internal/") || path === "native") return true;
  return INTERNAL_PATH_MARKERS.some((marker) => path.includes(marker));
}

/** Whether two spellings of a path (absolute and relative to the project) name one file. */
export function isSameFile(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

/**
 * Whether a path is a test's file by the conventions runners find tests by: under a `test`,
 * `tests`, `spec`, `specs`, `__tests__` or `e2e` directory, or named `*.test.*`, `*.spec.*`,
 * `*_test.*`, `test_*.*`. A stack's outermost user frame is the test's own only when it is in
 * one: a stack cut at ten frames ends anywhere.
 */
export function isTestPath(path: string): boolean {
  const segments = path.split("/");
  const name = segments.at(-1) ?? "";
  return (
    segments.slice(0, -1).some((segment) => TEST_DIRECTORIES.has(segment)) ||
    /[._-](?:test|spec)\.\w+$/.test(name) ||
    name.startsWith("test_") ||
    name.startsWith("test.")
  );
}

/** Directories runners find tests in. */
const TEST_DIRECTORIES: ReadonlySet<string> = new Set([
  "test",
  "tests",
  "spec",
  "specs",
  "__tests__",
  "e2e",
]);

/**
 * `path:line` or `path:line:column` as printed in frames and location lines, with `file://`
 * and a leading `./` removed so the same file reads the same whichever runner printed it.
 */
export function parseLocation(text: string): SourceLocation | null {
  const trimmed = text.trim();
  const parts = trimmed.split(":");
  // Read from the right: Windows drive letters and URLs put colons in the path itself.
  let numbers = 0;
  while (numbers < 2 && parts.length - numbers > 1 && /^\d+$/.test(parts.at(-1 - numbers) ?? "")) {
    numbers += 1;
  }
  if (numbers === 0) return null;
  const line = Number(parts.at(numbers === 2 ? -2 : -1));
  const file = cleanPath(parts.slice(0, parts.length - numbers).join(":"));
  if (file === "" || /\s/.test(file) || !Number.isSafeInteger(line)) return null;
  return { file, line };
}

/** The path without the URL scheme or the `./` prefix runners add to relative paths. */
function cleanPath(path: string): string {
  const withoutScheme = path.startsWith("file://") ? path.slice("file://".length) : path;
  return withoutScheme.startsWith("./") ? withoutScheme.slice(2) : withoutScheme;
}

/**
 * The location a stack-frame line points at, or null when the line is not a frame. Reads
 * V8 (`at fn (path:1:2)`, `at path:1:2`), Vitest (`❯ fn path:1:2`), node:test TAP stacks
 * (`fn (path:1:2)`), Python (`File "path", line 1`), Rust backtraces (`at ./src/lib.rs:1:2`)
 * and Go traces (`/path/x_test.go:12 +0x1d`).
 */
export function frameLocation(trimmed: string): SourceLocation | null {
  if (trimmed.startsWith("at ")) return parseLocation(parenthesized(trimmed) ?? lastToken(trimmed));
  if (trimmed.startsWith("❯ ")) return parseLocation(lastToken(trimmed));
  if (trimmed.startsWith('File "')) return pythonFrame(trimmed);
  if (trimmed.endsWith(")")) {
    const inside = parenthesized(trimmed);
    return inside !== null && /:\d+:\d+$/.test(inside) ? parseLocation(inside) : null;
  }
  const goTrace = /^(\S+\.go:\d+)(?: \+0x[\da-f]+)?$/.exec(trimmed);
  return goTrace?.[1] === undefined ? null : parseLocation(goTrace[1]);
}

/** The text inside the last parentheses of a line ending with `)`. */
function parenthesized(trimmed: string): string | null {
  if (!trimmed.endsWith(")")) return null;
  const open = trimmed.lastIndexOf("(");
  return open < 0 ? null : trimmed.slice(open + 1, -1);
}

/** The last whitespace-separated token of a line. */
function lastToken(trimmed: string): string {
  return trimmed.slice(Math.max(trimmed.lastIndexOf(" "), trimmed.lastIndexOf("\t")) + 1);
}

/** Python's `File "path", line 12, in name`. */
function pythonFrame(trimmed: string): SourceLocation | null {
  const match = /^File "([^"]+)", line (\d+)/.exec(trimmed);
  if (match?.[1] === undefined || match[2] === undefined) return null;
  return { file: cleanPath(match[1]), line: Number(match[2]) };
}
