/**
 * Directory names a project keeps its code and tests in, right under its root: the first one in
 * a path below a possible root (so `/usr/src/app/src` is cut at its second `src`) marks it.
 */
const TOP_DIRECTORIES: ReadonlySet<string> = new Set([
  "src",
  "lib",
  "test",
  "tests",
  "spec",
  "specs",
  "__tests__",
  "packages",
  "pkg",
  "cmd",
  "internal",
  "source",
  "e2e",
]);

/** Segments of a dependency's, a toolchain's or the system's path: never the project's own. */
const FOREIGN_SEGMENTS: ReadonlySet<string> = new Set([
  "node_modules",
  "site-packages",
  "dist-packages",
  ".cargo",
  ".rustup",
  "rustc",
  ".pyenv",
  ".nvm",
  "hostedtoolcache",
  "vendor",
]);

/**
 * An absolute path in a log: `/` at a word's start, at least two segments. The class has no `/`,
 * so each segment is matched one way and the scan stays linear.
 */
const ABSOLUTE_PATH = /(?:(?<=file:\/\/)|(?<![\w.~/:-]))\/(?:[\w.@+-]+\/)+[\w.@+-]+/g;

/** Lines in which a runner states the project's directory itself. */
const STATED_ROOTS: readonly RegExp[] = [
  // pytest's header.
  /^rootdir: (\/\S+)/m,
  // Vitest's first line: ` RUN  v3.2.4 /home/ana/shop`.
  /^ ?RUN {1,2}v\d\S* (\/\S+)$/m,
  // cargo's `Compiling shop v0.1.0 (/home/ana/shop)`.
  /^ {0,12}Compiling \S+ v\S+ \((\/[^)\s]+)\)$/m,
];

/**
 * Top-level directories that hold many projects: a root must go at least one level below them
 * (never `/`, `/tmp` or `/home`, whose cut would mangle every path); `/app` or `/workspace`, a
 * container's working directory, may be a root by itself.
 */
const SHARED_TOP_LEVELS: ReadonlySet<string> = new Set([
  "home",
  "Users",
  "tmp",
  "usr",
  "var",
  "opt",
  "root",
  "mnt",
  "srv",
  "private",
  "builds",
]);

/**
 * The project directory the log's own paths are under, when it can be told: the one a runner
 * states (pytest's `rootdir:`, Vitest's `RUN` line, cargo's `Compiling`), else the directory
 * most project paths sit under — the part before its first source or test directory (`src`,
 * `test`, `packages`, …), or the directory all of them share when they span two or more, or the
 * one whose `node_modules` the dependencies' paths are in, when project paths sit there. Paths
 * of dependencies and toolchains (`node_modules`, `site-packages`, `.cargo`, …) are not counted.
 * Null when nothing says where the project is.
 */
export function projectRoot(text: string): string | null {
  for (const stated of STATED_ROOTS) {
    const root = stated.exec(text)?.[1];
    if (root !== undefined && isDeepEnough(segmentsOf(root))) return trimSlash(root);
  }
  const directories = new Set<string>();
  const installRoots = new Set<string>();
  for (const [path] of text.matchAll(ABSOLUTE_PATH)) {
    const segments = segmentsOf(path).slice(0, -1);
    const installed = segments.indexOf("node_modules");
    if (installed > 0) installRoots.add(`/${segments.slice(0, installed).join("/")}`);
    if (!isSystemPath(path) && !segments.some((segment) => FOREIGN_SEGMENTS.has(segment))) {
      directories.add(`/${segments.join("/")}`);
    }
  }
  return (
    markedRoot(directories) ?? sharedRoot(directories) ?? installRoot(directories, installRoots)
  );
}

/**
 * The directory whose `node_modules` the run's dependencies came from, when the project's own
 * paths sit there too: a package whose files lie at its top (`index.js`, `test.js`, beside
 * `node_modules/ava/…` in an ESM stack's `file://` frames) has no `src` or `test` to mark it.
 */
function installRoot(
  directories: ReadonlySet<string>,
  installRoots: ReadonlySet<string>,
): string | null {
  for (const root of installRoots) {
    const holds = [...directories].some(
      (directory) => directory === root || directory.startsWith(`${root}/`),
    );
    if (holds && isDeepEnough(segmentsOf(root))) return root;
  }
  return null;
}

/**
 * `text` with paths under the project's root written relative to it (see `projectRoot`): the
 * short path is the one a reader of the feedback can use, and a long prefix on every frame and
 * item would eat the few hundred characters feedback has.
 */
export function withoutProjectRoot(text: string): string {
  const root = projectRoot(text);
  return root === null ? text : relativeTo(root, text);
}

/**
 * `text` with absolute paths under `dir` — plain or as `file://` URLs (ESLint's SARIF, stack
 * frames) — written relative to it. The filesystem root is left alone: stripping `/` would
 * mangle every path.
 */
export function relativeTo(dir: string, text: string): string {
  const base = trimSlash(dir);
  if (!base.startsWith("/")) return text;
  return text
    .split(`${fileUrlOf(base)}/`)
    .join("")
    .split(`${base}/`)
    .join("");
}

/** The root most directories have before their first top-level source or test directory. */
function markedRoot(directories: ReadonlySet<string>): string | null {
  const votes = new Map<string, number>();
  for (const directory of directories) {
    const segments = directory.split("/").slice(1);
    const at = segments.findIndex(
      (segment, index) => TOP_DIRECTORIES.has(segment) && isDeepEnough(segments.slice(0, index)),
    );
    if (at < 0) continue;
    const root = `/${segments.slice(0, at).join("/")}`;
    votes.set(root, (votes.get(root) ?? 0) + 1);
  }
  let best: string | null = null;
  let bestVotes = 0;
  for (const [root, count] of votes) {
    if (count > bestVotes) [best, bestVotes] = [root, count];
  }
  return best;
}

/** The directory two or more directories all sit in, when it is deep enough to be a project. */
function sharedRoot(directories: ReadonlySet<string>): string | null {
  if (directories.size < 2) return null;
  let shared: string[] | null = null;
  for (const directory of directories) {
    const segments = directory.split("/");
    if (shared === null) {
      shared = segments;
      continue;
    }
    let length = 0;
    while (length < shared.length && shared[length] === segments[length]) length += 1;
    shared = shared.slice(0, length);
  }
  const root = (shared ?? []).join("/");
  return isDeepEnough(segmentsOf(root)) ? root : null;
}

/** Whether a directory of these segments can be one project's root (see `SHARED_TOP_LEVELS`). */
function isDeepEnough(segments: readonly string[]): boolean {
  const [top] = segments;
  if (top === undefined) return false;
  return segments.length >= (SHARED_TOP_LEVELS.has(top) ? 2 : 1);
}

/**
 * Where toolchains and packages install: Go's, Python's and Node's standard libraries
 * (`/usr/lib/go-1.19/src/testing/testing.go`) are never a project's own files.
 */
const SYSTEM_PREFIXES: readonly string[] = [
  "/usr/lib/",
  "/usr/local/lib/",
  "/usr/local/go/",
  "/usr/share/",
  "/usr/include/",
  "/opt/homebrew/",
  "/Library/",
  "/System/",
];

/** Whether `path` is under a system or toolchain directory. */
function isSystemPath(path: string): boolean {
  return SYSTEM_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** The non-empty segments of a path. */
function segmentsOf(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

/** `path` without trailing slashes. */
function trimSlash(path: string): string {
  let end = path.length;
  while (end > 0 && path.charAt(end - 1) === "/") end -= 1;
  return path.slice(0, end);
}

/** The `file://` URL Node writes for an absolute path (`pathToFileURL`), for the cases logs show. */
function fileUrlOf(path: string): string {
  return `file://${encodeURI(path).replaceAll("#", "%23").replaceAll("?", "%3F")}`;
}
