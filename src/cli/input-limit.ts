import { InputError } from "../wire/input-error.js";
import { UsageError } from "./usage-error.js";

/**
 * Largest YAML or JSON document read, in bytes (16 MiB): a decision's input holds bounded step
 * outputs, so real documents are far smaller, and a parser's memory grows with what it reads.
 */
export const DEFAULT_MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** The `--max-input-bytes N` flag of the commands that read documents. */
export const INPUT_LIMIT_OPTION = { "max-input-bytes": { type: "string" } } as const;

/** Help line for `--max-input-bytes`. */
export const INPUT_LIMIT_HELP = `  --max-input-bytes N
                  refuse a document (YAML or JSON) larger than N bytes before
                  reading it (default ${DEFAULT_MAX_INPUT_BYTES}, 16 MiB)`;

/** `--max-input-bytes N` as a number of bytes; a usage error unless it is a positive integer. */
export function maxInputBytesOf(command: string, value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_INPUT_BYTES;
  const bytes = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new UsageError(
      `${command}: --max-input-bytes expects a positive integer (bytes), got ${JSON.stringify(value)}`,
    );
  }
  return bytes;
}

/** The refusal of a document over the limit; `size` is its size, or null when not read to the end. */
export function tooLarge(source: string, size: number | null, limit: number): InputError {
  const known = size === null ? "" : `${size} bytes, `;
  return new InputError(
    source,
    `the document is ${known}over the limit of ${limit} bytes (--max-input-bytes)`,
  );
}
