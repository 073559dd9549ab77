import { realpathSync } from "node:fs";
import { relativeTo } from "../core/feedback/clean/project-root.js";

/**
 * `text` naming files relative to `dir`, whether a tool printed that directory as given or
 * resolved (`/tmp` may be a symlink): the short path is the one a reader of feedback can use.
 */
export function localPaths(dir: string, text: string): string {
  // Most steps of a run print nothing: no path to shorten, and no lookups of the directory.
  if (text === "") return text;
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    // The directory is gone or never was: only the path as given can appear.
  }
  return relativeTo(dir, real === dir ? text : relativeTo(real, text));
}
