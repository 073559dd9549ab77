import { isInternalPath } from "../extractor/stack-frames.js";

/**
 * Whether a Ruby backtrace frame's file is outside the project: gems, Ruby's standard library,
 * the test framework's own binaries, `<internal:…>` frames — never where a fixer starts.
 */
export function isRubyInternal(file: string): boolean {
  return (
    isInternalPath(file) ||
    file.includes("/gems/") ||
    file.includes("/rubygems") ||
    /\/lib\/ruby\//.test(file) ||
    file.startsWith("/usr/bin/") ||
    file.startsWith("<")
  );
}
