// Synchronous: node:fs/promises loads a dozen more Node modules and waits on the thread pool
// four times per file, which is a large part of a CLI run that reads one small document.
import { readFileSync } from "node:fs";
import { InputError } from "../wire/input-error.js";
import { UsageError } from "./usage-error.js";

/** Where a command's input comes from and what to call it in messages. */
export interface Input {
  readonly text: string;
  readonly source: string;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads FILE, or standard input for `-` or no FILE; refuses to wait on an interactive terminal. */
export async function readInput(file: string | undefined): Promise<Input> {
  if (file === undefined || file === "-") {
    if (file === undefined && process.stdin.isTTY) {
      throw new UsageError("no input: give a FILE, or pipe a document on standard input");
    }
    return { text: await readStdin(), source: "stdin" };
  }
  try {
    return { text: readFileSync(file, "utf8"), source: file };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new InputError(file, `cannot read the file (${reason})`);
  }
}
