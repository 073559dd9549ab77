import { RegExpParser, visitRegExpAST, type AST } from "@eslint-community/regexpp";
import type { Shape } from "./shape.js";

/** Characters tried, in order, as the one a character class or set stands for in a sample. */
const CANDIDATES = [
  ..."aZ0 -_.:/=\"'()[]{}<>,;!?#@$%&*+|~^`\\\té中😀✕",
  ...Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index)),
  "\n",
  "\r",
  "\u001b",
  "\u00a0",
];

/**
 * A quantifier long enough to be a run an attacker can stretch, where it starts in a sample, and
 * what it repeats: its sample, and for a class other members of other kinds (a `-` as well as
 * an `a`: only a non-word character puts a `\b` between two runs).
 */
interface Run {
  readonly at: number;
  readonly units: readonly string[];
}

/** Members of different kinds a class may have, tried as a run's unit besides its sample. */
const KINDS = ["a", "0", "-", ".", " ", "/", "é"];

/** A string the pattern (nearly) matches, and the runs along it. */
interface Sample {
  readonly text: string;
  readonly runs: readonly Run[];
}

type Disjunction = AST.Pattern | AST.Group | AST.CapturingGroup;

/** A test of whether one string matches the node alone, or null when it cannot be built alone. */
function testerOf(node: AST.Node, flags: string): RegExp | null {
  try {
    return new RegExp(`^(?:${node.raw})$`, flags.replace(/[gy]/g, ""));
  } catch {
    return null;
  }
}

/** The character a class or set stands for: the first candidate it matches, else its first member. */
function representative(node: AST.Node, flags: string): string {
  const tester = testerOf(node, flags);
  if (tester === null) return "";
  const found = CANDIDATES.find((candidate) => tester.test(candidate));
  if (found !== undefined) return found;
  if (node.type === "CharacterClass" && !node.negate) {
    const first = node.elements[0];
    if (first?.type === "Character") return String.fromCodePoint(first.value);
    if (first?.type === "CharacterClassRange") return String.fromCodePoint(first.min.value);
  }
  return "";
}

/** Builds a sample of the pattern taking, at each disjunction, the alternative `choices` names. */
function sampleOf(
  pattern: AST.Pattern,
  flags: string,
  choices: ReadonlyMap<Disjunction, number>,
): Sample {
  const runs: Run[] = [];
  const groups = new Map<AST.CapturingGroup, string>();
  let text = "";
  const emit = (node: AST.Node): void => {
    switch (node.type) {
      case "Pattern":
      case "Group":
      case "CapturingGroup": {
        const start = text.length;
        const alternative = node.alternatives[choices.get(node) ?? 0];
        if (alternative !== undefined) emit(alternative);
        if (node.type === "CapturingGroup") groups.set(node, text.slice(start));
        return;
      }
      case "Alternative":
        for (const element of node.elements) emit(element);
        return;
      case "Character":
        text += String.fromCodePoint(node.value);
        return;
      case "CharacterClass":
      case "CharacterSet":
      case "ExpressionCharacterClass":
        text += representative(node, flags);
        return;
      case "Backreference": {
        const target = Array.isArray(node.resolved) ? node.resolved[0] : node.resolved;
        text += target === undefined ? "" : (groups.get(target) ?? "");
        return;
      }
      case "Quantifier": {
        const start = text.length;
        const times = Math.min(Math.max(node.min, 1), node.max, 1000);
        for (let index = 0; index < times; index += 1) emit(node.element);
        const once = text.slice(start, start + (text.length - start) / Math.max(times, 1));
        if (node.max >= 16 && once !== "") {
          const tester = testerOf(node.element, flags);
          const others = tester === null ? [] : KINDS.filter((kind) => tester.test(kind));
          runs.push({ at: start, units: [...new Set([once, ...others])] });
        }
        return;
      }
      default:
        // Assertions consume nothing; a sample may then miss the pattern, which is fine: the
        // shapes are strings near a match, where a backtracking engine does its worst.
        return;
    }
  };
  emit(pattern);
  return { text, runs };
}

/** Every disjunction of the pattern with more than one alternative, lookarounds left aside. */
function disjunctionsOf(pattern: AST.Pattern): Disjunction[] {
  const found: Disjunction[] = [];
  const keep = (node: Disjunction) => {
    if (node.alternatives.length > 1) found.push(node);
  };
  visitRegExpAST(pattern, {
    onPatternEnter: keep,
    onGroupEnter: keep,
    onCapturingGroupEnter: keep,
  });
  return found;
}

/** Samples of the pattern: one with every first alternative, then one per other alternative. */
function samplesOf(pattern: AST.Pattern, flags: string): Sample[] {
  const samples = [sampleOf(pattern, flags, new Map())];
  for (const disjunction of disjunctionsOf(pattern)) {
    for (let index = 1; index < disjunction.alternatives.length; index += 1) {
      samples.push(sampleOf(pattern, flags, new Map([[disjunction, index]])));
    }
  }
  return samples;
}

/** The shapes one sample suggests: its repetitions, its prefixes repeated, its runs stretched. */
function shapesOfSample(sample: Sample, label: string): Shape[] {
  const { text } = sample;
  const shapes: Shape[] = [];
  const add = (name: string, unit: string, head = "") => {
    if (unit !== "") shapes.push({ name: `${label} ${name}`, head, unit, tail: "" });
  };
  add("whole sample repeated", text);
  add("sample and a space repeated", `${text} `);
  add("sample and a line break repeated", `${text}\n`);
  const cuts = new Set([1, 2, 3, Math.floor(text.length / 2), text.length - 1]);
  for (const cut of cuts) {
    if (cut > 0 && cut < text.length) add(`prefix of ${cut} repeated`, text.slice(0, cut));
  }
  for (const run of sample.runs) {
    const before = text.slice(0, run.at);
    for (const unit of run.units) {
      const of = JSON.stringify(unit);
      add(`run of ${of} at ${run.at} stretched`, unit, before);
      add(`prefix to run at ${run.at} and ${of} repeated`, `${before}${unit}`);
      add(`prefix to run at ${run.at} and ${of} × 8 repeated`, `${before}${unit.repeat(8)}`);
    }
  }
  return shapes;
}

/**
 * Pathological shapes derived from a regular expression: strings made of repeated partial matches
 * (prefixes of a sample), long runs of each quantified element with no ending, and whole samples
 * repeated. A backtracking engine is slowest near a match, and these are what "near" means.
 */
export function shapesOfRegex(source: string, flags: string, limit: number): Shape[] {
  const literal = new RegExpParser().parseLiteral(`/${source}/${flags}`);
  const seen = new Set<string>();
  const shapes: Shape[] = [];
  const samples = samplesOf(literal.pattern, flags);
  for (const [index, sample] of samples.entries()) {
    const label = samples.length === 1 ? "" : `alternative ${index}:`;
    for (const shape of shapesOfSample(sample, label.trim())) {
      const key = `${shape.head}\u0000${shape.unit}`;
      if (seen.has(key)) continue;
      seen.add(key);
      shapes.push({ ...shape, name: shape.name.trim() });
    }
  }
  // Long alternations yield many samples: keep every sample's first shapes before later ones.
  return shapes.length <= limit ? shapes : spread(shapes, limit);
}

/** `limit` items taken evenly across the list, first and last included. */
function spread<T>(items: readonly T[], limit: number): T[] {
  const step = (items.length - 1) / (limit - 1);
  return Array.from({ length: limit }, (_, index) => items[Math.round(index * step)] as T);
}
