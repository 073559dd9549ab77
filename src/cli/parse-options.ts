import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./usage-error.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** What `parseOptions` returns: the typed flag values and the operands. */
export type ParsedOptions<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
>;

/** Parses a command's arguments strictly; unknown flags and extra operands are usage errors. */
export function parseOptions<const O extends Options>(
  command: string,
  args: readonly string[],
  options: O,
  maxOperands: number,
): ParsedOptions<O> {
  try {
    const parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    if (parsed.positionals.length > maxOperands) {
      throw new UsageError(
        `${command}: unexpected argument "${parsed.positionals[maxOperands]}" (see loopgate ${command} --help)`,
      );
    }
    return parsed;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `${command}: ${(error as Error).message} (see loopgate ${command} --help)`,
    );
  }
}
