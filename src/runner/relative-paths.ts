import { pathToFileURL } from "node:url";

/**
 * `text` with absolute paths under `dir` — plain or as `file://` URLs (ESLint's SARIF, stack
 * frames) — written relative to it. A step's directory is where the agent works, so the short
 * path is the one it can use, and a long prefix on every path would eat the feedback cap.
 * The filesystem root is left alone: stripping `/` would mangle every path.
 */
export function relativeTo(dir: string, text: string): string {
  let base = dir;
  while (base.endsWith("/")) base = base.slice(0, -1);
  if (!base.startsWith("/")) return text;
  return text
    .split(`${pathToFileURL(base).href}/`)
    .join("")
    .split(`${base}/`)
    .join("");
}
