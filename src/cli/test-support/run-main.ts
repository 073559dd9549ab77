import { main } from "../main.js";

/** What one in-process CLI run printed and returned. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process, capturing both streams. */
export async function runMain(argv: readonly string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** The one line an invalid run prints on stderr, or a description of why it is not one line. */
export function errorLine(run: Run): string {
  const lines = run.stderr.split("\n");
  if (lines.length !== 2 || lines[1] !== "") {
    return `<not exactly one line: ${JSON.stringify(run.stderr.slice(0, 300))}>`;
  }
  return lines[0] ?? "";
}
