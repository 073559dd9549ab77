import { isInternalPath, type SourceLocation } from "../extractor/stack-frames.js";

/** A backtrace line: `/app/lib/cart.rb:243:in \`block in sub'` (Ruby 3.4: `'Cart#sub'`). */
const FRAME = /^\s*(\S+?):(\d+):in [`']([^']*)'$/;

/** A frame of a Ruby backtrace in the project, with the method it was in. */
export interface RubyFrame extends SourceLocation {
  readonly method: string;
}

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

/** Whether `line` is a backtrace line as minitest and test-unit print them. */
export function isRubyFrame(line: string): boolean {
  return FRAME.test(line);
}

/** The frames of `lines` in the project, innermost first, as minitest and test-unit print them. */
export function rubyProjectFrames(lines: readonly string[]): RubyFrame[] {
  return lines.flatMap((line) => {
    const frame = FRAME.exec(line);
    return frame?.[1] === undefined || isRubyInternal(frame[1])
      ? []
      : [{ file: frame[1], line: Number(frame[2]), method: frame[3] ?? "" }];
  });
}

/** The frame of the test method `test` names (`CartTest#test_sum`, `test_sum(CartTest)`). */
export function testMethodFrame(
  frames: readonly RubyFrame[],
  method: string,
): RubyFrame | undefined {
  return frames.find((frame) => frame.method.endsWith(method));
}
