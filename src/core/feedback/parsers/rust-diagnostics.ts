import { parseLocation, type SourceLocation } from "../extractor/stack-frames.js";

/** One rustc or clippy diagnostic as cargo prints it. */
export interface RustDiagnostic {
  readonly severity: "error" | "warning";
  /** The header's own words: `mismatched types`, `unneeded \`return\` statement`. */
  readonly text: string;
  /** The header as printed: `error[E0308]: mismatched types`. */
  readonly header: string;
  /** The ` --> src/lib.rs:10:5` place, and its column. */
  readonly location: SourceLocation | null;
  readonly column: number | null;
  /** The error code (`E0308`) or the lint (`clippy::needless_return`, `unused_variables`). */
  readonly rule: string | null;
  /** A type error's label `expected \`u32\`, found \`usize\``: each type in its backticks, as printed. */
  readonly expected: string | null;
  readonly found: string | null;
  /**
   * A compiler error's (one with a code: lints label their `help:` suggestions) first label
   * when it names code the header does not: `argument #3 of type \`u64\`
   * is missing` under `this function takes 3 arguments but 2 arguments were supplied`.
   */
  readonly label: string | null;
  /** The index of the diagnostic's last line. */
  readonly end: number;
}

/** A diagnostic's first line: `error[E0308]: mismatched types`, `warning: unused variable: \`x\``. */
const HEADER = /^(error|warning)(?:\[(E\d{4})\])?: (\S.*)$/;

/** A type error's label: `expected \`u32\`, found \`usize\``, `expected type \`u64\``. */
const TYPES = /expected (?:type )?`([^`]+)`, found (?:type )?`([^`]+)`/;

/**
 * The words of a label under the code (`^^^^^ argument #3 of type \`u64\` is missing`, after
 * the gutter's `|`) when they quote code; a type error's label is its values instead. Null for
 * other lines and for labels in words alone (`unknown field`), which the header already says.
 */
function labelOf(trimmed: string): string | null {
  const label = /^\|[\s|-]*\^[\^-]*\s+([^\s^|-].*)$/.exec(trimmed)?.[1];
  if (label === undefined || !label.includes("`") || TYPES.test(label)) return null;
  return label;
}

/** Where a lint comes from: `#[warn(clippy::needless_return)]`, `#[allow(unused_variables)]`. */
const LINT_ATTRIBUTE = /#\[(?:warn|deny|forbid|allow)\(([\w:]+)\)\]/;
/** A lint made an error on the command line: `` `-D clippy::new-without-default` implied by … ``. */
const DENIED = /`-D ([\w:-]+)` implied by/;
/**
 * The lint clippy's lint list names: `…/rust-clippy/rust-1.95.0/index.html#needless_return`.
 * Found by position: a pattern with a run before `#` costs quadratic time.
 */
function clippyLintOfUrl(line: string): string | undefined {
  const hash = line.lastIndexOf("#");
  const lint = line.slice(hash + 1);
  const start = line.lastIndexOf("rust-clippy/", hash);
  if (hash < 0 || start < 0 || !/^[a-z_]+$/.test(lint)) return undefined;
  return /\s/.test(line.slice(start, hash)) ? undefined : lint;
}

/**
 * The diagnostic starting at `lines[index]`, or null when the line opens none or the block names
 * no source place (cargo's own `error: could not compile …`, `warning: … generated 3 warnings`).
 * The block runs to the first blank line (rustc separates diagnostics with one).
 */
export function readRustDiagnostic(lines: readonly string[], index: number): RustDiagnostic | null {
  const header = (lines[index] ?? "").trim();
  const opened = HEADER.exec(header);
  if (opened === null) return null;
  let location: SourceLocation | null = null;
  let column: number | null = null;
  let lint: string | null = null;
  let expected: string | null = null;
  let found: string | null = null;
  let label: string | null = null;
  let cursor = index + 1;
  for (; cursor < lines.length; cursor += 1) {
    const trimmed = (lines[cursor] ?? "").trim();
    if (trimmed === "" || HEADER.test(trimmed)) break;
    const arrow = /^--> (\S+)$/.exec(trimmed);
    if (arrow?.[1] !== undefined && location === null) {
      location = parseLocation(arrow[1]);
      const parts = arrow[1].split(":");
      column = parts.length >= 3 ? Number(parts.at(-1)) : null;
    }
    lint ??= lintOf(trimmed);
    const types = TYPES.exec(trimmed);
    if (types?.[1] !== undefined && types[2] !== undefined && expected === null) {
      expected = `\`${types[1]}\``;
      found = `\`${types[2]}\``;
    }
    label ??= labelOf(trimmed);
  }
  if (location === null) return null;
  return {
    severity: opened[1] === "error" ? "error" : "warning",
    text: opened[3] ?? "",
    header,
    location,
    column: Number.isSafeInteger(column) ? column : null,
    rule: opened[2] ?? lint,
    expected,
    found,
    label: opened[2] !== undefined && label !== null && !header.includes(label) ? label : null,
    end: cursor - 1,
  };
}

/** The lint a note or help line names, spelled as in `#[allow(…)]`. */
function lintOf(trimmed: string): string | null {
  const attribute = LINT_ATTRIBUTE.exec(trimmed)?.[1];
  if (attribute !== undefined) return attribute;
  const denied = DENIED.exec(trimmed)?.[1];
  if (denied !== undefined && denied !== "warnings") return denied.replaceAll("-", "_");
  const clippy = clippyLintOfUrl(trimmed);
  return clippy === undefined ? null : `clippy::${clippy}`;
}

/**
 * How many errors and warnings cargo says it emitted: `` could not compile `shop` (lib) due to 3
 * previous errors; 1 warning emitted `` or `` `shop` (lib) generated 2 warnings ``, summed over
 * crates. A crate's targets (`lib`, `lib test`) share their diagnostics, which cargo prints once,
 * so a crate counts as its largest target. Null when cargo says neither.
 */
export function reportedDiagnostics(
  lines: readonly string[],
): { errors: number; warnings: number } | null {
  const byCrate = new Map<string, { errors: number; warnings: number }>();
  for (const line of lines) {
    const trimmed = line.trim();
    const errors =
      /^error: could not compile `([^`]+)`.* due to (\d+) previous errors?(?:; (\d+) warnings? emitted)?/.exec(
        trimmed,
      );
    const warnings = /^warning: `([^`]+)`.* generated (\d+) warnings?\b/.exec(trimmed);
    const crate = errors?.[1] ?? warnings?.[1];
    if (crate === undefined) continue;
    const known = byCrate.get(crate) ?? { errors: 0, warnings: 0 };
    byCrate.set(crate, {
      errors: Math.max(known.errors, Number(errors?.[2] ?? 0)),
      warnings: Math.max(known.warnings, Number(errors?.[3] ?? warnings?.[2] ?? 0)),
    });
  }
  if (byCrate.size === 0) return null;
  const counts = [...byCrate.values()];
  const sum = (pick: (count: { errors: number; warnings: number }) => number): number =>
    counts.reduce((total, count) => total + pick(count), 0);
  return { errors: sum((count) => count.errors), warnings: sum((count) => count.warnings) };
}
