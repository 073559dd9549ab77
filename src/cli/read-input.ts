// Synchronous: node:fs/promises loads a dozen more Node modules and waits on the thread pool
// four times per file, which is a large part of a CLI run that reads one small document.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { InputError } from "../wire/input-error.js";
import { DEFAULT_MAX_INPUT_BYTES, tooLarge } from "./input-limit.js";
import { UsageError } from "./usage-error.js";

/** Where a command's input comes from and what to call it in messages. */
export interface Input {
  readonly text: string;
  readonly source: string;
}

/** Standard input up to `limit` bytes; reading stops, and the input is refused, past it. */
async function readStdin(limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge("stdin", null, limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * FILE's bytes up to `limit`: a regular file larger than that is refused from its size alone,
 * before a byte is read; a pipe or device is read until it passes the limit.
 */
function readFileBounded(file: string, limit: number): string {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw cannotRead(file, error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() && stat.size > limit) throw tooLarge(file, stat.size, limit);
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(limit + 1 - size, 1 << 20));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      size += read;
      if (size > limit) throw tooLarge(file, null, limit);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks).toString("utf8");
  } catch (error) {
    throw InputError.isInputError(error) ? error : cannotRead(file, error);
  } finally {
    closeSync(fd);
  }
}

function cannotRead(file: string, error: unknown): InputError {
  const reason = (error as NodeJS.ErrnoException).code ?? "unreadable";
  return new InputError(file, `cannot read the file (${reason})`);
}

/**
 * Reads FILE, or standard input for `-` or no FILE; refuses to wait on an interactive terminal,
 * and refuses a document over `limit` bytes before parsing it.
 */
export async function readInput(
  file: string | undefined,
  limit = DEFAULT_MAX_INPUT_BYTES,
): Promise<Input> {
  if (file === undefined || file === "-") {
    if (file === undefined && process.stdin.isTTY) {
      throw new UsageError("no input: give a FILE, or pipe a document on standard input");
    }
    return { text: await readStdin(limit), source: "stdin" };
  }
  return { text: readFileBounded(file, limit), source: file };
}
