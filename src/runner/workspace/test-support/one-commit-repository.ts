import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitIn } from "./git-in.js";

/**
 * A new repository `repo` (branch main) inside a new temporary directory `dir`, with one
 * commit holding calc.py as `calc`; scripts that must not be committed go in `dir`.
 */
export function oneCommitRepository(prefix: string, calc: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const repo = join(dir, "repo");
  gitIn(dir, "init", "--quiet", "--initial-branch=main", repo);
  writeFileSync(join(repo, "calc.py"), calc);
  gitIn(repo, "add", "calc.py");
  gitIn(repo, "commit", "--quiet", "-m", "init");
  return { dir, repo };
}
