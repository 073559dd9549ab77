import { codePointLength, ELLIPSIS } from "../clean/code-points.js";
import type { Failure } from "../feedback.js";
import { failureParts, type FailureParts } from "./feedback-items.js";
import type { FailureGroup } from "./failure-groups.js";
import { briefNameAfter } from "./name-stems.js";
import { cutWords } from "../clean/cut-words.js";
import { shortPathNames } from "./path-names.js";

/**
 * What a part of an item is worth to whoever fixes the failure: the facts it adds (a place is
 * a file and a line, values are two sides — and a little more: a place can be found again from a
 * name or a stack, the values only from running the test), or, for a fuller form of a part
 * already shown, the detail it adds. Fitting spends the cap where the worth per character is
 * highest.
 */
const WORTH = {
  place: 2,
  from: 1.5,
  firstName: 2,
  name: 1,
  laterName: 0.3,
  values: 2.5,
  side: 1,
  words: 1,
  fuller: 0.15,
  // A finding's column: its line already leads a reader there.
  column: 0.03,
} as const;
/** A test frame this many lines from its place in one file is on screen once the place is open. */
const NEAR_FRAME_LINES = 5;
/** A cause's other places are worth this share of a place: its item names its tests first. */
const MEMBER_PLACE_SHARE = 0.1;
/** A name several failures share (a test with several failed checks) is worth up to this many names. */
const MAX_NAME_SHARE = 3;
/** The first failure is where a fixer starts: its parts are worth this much more. */
const FIRST_ITEM_WEIGHT = 1.2;
/**
 * A name's worth by its rank in its cause: the first test a cause broke names the cause; the
 * next two show that it is shared; names after those add little.
 */
function nameWorth(rank: number): number {
  if (rank === 0) return WORTH.firstName;
  return rank <= 2 ? WORTH.name : WORTH.laterName;
}

/** How many failures share each name (or rule) across the items. */
function labelUses(states: readonly ItemState[]): Map<string, number> {
  const uses = new Map<string, number>();
  for (const member of states.flatMap((state) => state.members)) {
    const label = labelOf(member.failure);
    if (label !== null) uses.set(label, (uses.get(label) ?? 0) + 1);
  }
  return uses;
}

/** An error's name at the start of its words: `RuntimeError:`, `java.lang.NullPointerException:`. */
const LEADING_ERROR_NAME = /^[\w$.]*(?:Error|Exception)\b:?/;

/** Shortest cut of an error's words worth writing: below it, a cut names nothing. */
const MIN_CUT_WORDS = 16;
/** Failures of one cause that get a place of their own in its item; the rest are counted. */
const MAX_MEMBERS = 40;
/**
 * Causes that get their place before any item gets more: a fixer works through the first few
 * causes, so each of them is told well before the later ones are listed at all.
 */
const FIRST_CAUSES = 10;

/** One failure of a cause and which of its parts are shown. */
interface Member {
  readonly failure: Failure;
  place: boolean;
  /** The test's own frame beside a thrown error's place: `(from test/a.test.js:8)`. */
  from: boolean;
  /** A finding's column after its line: a detail once the line is there. */
  column: boolean;
  name: boolean;
}

/** One cause's item while it is being fitted: its failures, and how much of its words and values. */
interface ItemState {
  /** How many failures the cause has: its members are the first `MAX_MEMBERS` of them. */
  readonly size: number;
  readonly members: readonly Member[];
  readonly parts: FailureParts;
  /** Index of the values form shown, -1 for none. */
  values: number;
  /** Index of the words form shown, -1 for none. */
  words: number;
  /** The words cut to the room left once no whole form fits, null for none. */
  cut: string | null;
  /**
   * Whether the item repeats the place and the test of an item before (one test's checks of a
   * table at one line): only its values tell it apart, so it is opened by their worth, not first.
   */
  deferred: boolean;
}

/** A way to show more of item `item`, and what it is worth. */
interface Move {
  readonly item: number;
  readonly apply: () => void;
  readonly undo: () => void;
  readonly worth: number;
}

/** The items chosen for the failures, and how many failures they name. */
export interface FittedTestItems {
  readonly items: string[];
  /** Failures named by an item. */
  readonly shown: readonly Failure[];
  /** Failures of the causes an item shows, named or not; the rest are for the caller to count. */
  readonly covered: number;
}

/**
 * Items for failures grouped by cause, within `budget` code points: every item whole and
 * spelled out when they all fit. Else, first every failure gets its place, in order — the first
 * of an item `file:line` (`…:line` when the file is the one written just before), the others of
 * its cause beside it — as far as the budget goes, so whatever is left out is the tail; a
 * failure with no place is named instead, and the next row of a test at a place already written
 * waits for its values to be worth their room. Then the part worth most per character is added,
 * again and again, across the items shown: a thrown error's test frame beside its place (`(from
 * test/a.test.js:8)`), a test's name (`…SEP leaf` when it shares the stem of the name before
 * it), the values (`want X, got Y`, a long pair first shortened to what
 * differs), the error's words, fuller forms of either. Parts whose text `said` (the summary)
 * already holds (whole, or up to the `…` that cuts them) are worth nothing.
 */
export function fitTestItems(
  groups: readonly FailureGroup[],
  budget: number,
  said: string,
): FittedTestItems {
  const states: ItemState[] = groups.map((group) => ({
    size: group.length,
    members: group
      .slice(0, MAX_MEMBERS)
      .map((failure) => ({ failure, place: false, from: false, column: false, name: false })),
    parts: failureParts(group[0], said),
    values: -1,
    words: -1,
    cut: null,
    deferred: false,
  }));
  // When everything fits, every item is whole: nothing is left for a reader to piece together.
  states.forEach(showAll);
  const short = shortFileNames(states);
  const spelled = render(states, short, true);
  if (totalLength(spelled) <= budget) return { items: spelled, ...shownOf(states) };
  if (totalLength(render(states, short)) <= budget) return fitted(states, short);
  states.forEach(showNone);
  const layout = new Layout(states, short);
  placeEveryFailure(states, layout, budget, said);
  for (;;) {
    let best: { move: Move; ratio: number } | null = null;
    for (const move of upgrades(states, said)) {
      if (move.worth <= 0) continue;
      move.apply();
      const cost = layout.costOf(move.item);
      move.undo();
      if (cost > budget - layout.used) continue;
      const ratio = move.worth / Math.max(cost, 1);
      if (best === null || ratio > best.ratio) best = { move, ratio };
    }
    const move = best?.move ?? laterCause(states, layout, budget, said);
    if (move === null) break;
    move.apply();
    layout.commit(move.item);
  }
  fillWithCutWords(states, layout, budget, said);
  return fitted(states, short);
}

/**
 * The room no whole part fits in, spent on words cut to it (at a word's end): the error's own
 * words of items that show none. A cut shorter than
 * `MIN_CUT_WORDS` says nothing and is not written. Items without values come first, then the
 * causes that broke the most tests.
 */
function fillWithCutWords(
  states: readonly ItemState[],
  layout: Layout,
  budget: number,
  said: string,
): void {
  const wordless = [...states.keys()]
    .filter((index) => {
      const state = states[index];
      return (
        state !== undefined && isShown(state) && state.words < 0 && state.parts.cuttable !== ""
      );
    })
    .sort((a, b) => fillRank(states[a]) - fillRank(states[b]) || a - b);
  for (const index of wordless) {
    const state = states[index];
    if (state === undefined) continue;
    const { cuttable } = state.parts;
    // What the item's punctuation around its words costs, found by laying out one character.
    state.cut = "…";
    const length = budget - layout.used - (layout.costOf(index) - 1);
    state.cut = codePointLength(cuttable) <= length ? cuttable : cutWords(cuttable, length);
    // A cut that keeps only the error's name (`RuntimeError:…`) says nothing a place does not.
    const gist = state.cut.replace(LEADING_ERROR_NAME, "");
    const says = /[a-z]{2,}/i.test(gist) && !isSaid(said, state.cut);
    if (length < MIN_CUT_WORDS || !says || layout.costOf(index) > budget - layout.used) {
      state.cut = null;
      continue;
    }
    layout.commit(index);
  }
}

/**
 * Every cause's first place, then every other failure's own place, each in order, while the
 * budget lasts: an item opens with its first failure's place (or, without one, its name or
 * facts), so every cause is named before any gets a second place; a failure at a place already
 * written adds none (its name may come later). Each pass stops at the first that does not fit.
 * An item whose place and test an item before already wrote (a table test's next row) is
 * deferred: only its values tell it apart, so they compete by worth with every other part
 * instead of taking the room later causes' places and names need.
 */
function placeEveryFailure(
  states: readonly ItemState[],
  layout: Layout,
  budget: number,
  said: string,
): void {
  const tryMove = (move: Move | null): boolean => {
    if (move === null) return true;
    move.apply();
    if (layout.costOf(move.item) > budget - layout.used) {
      move.undo();
      return false;
    }
    layout.commit(move.item);
    return true;
  };
  for (const [item, state] of states.slice(0, FIRST_CAUSES).entries()) {
    const first = state.members[0]?.failure ?? null;
    const written = isPlaceWritten(states, first);
    if (written && first !== null && isLabelEarlier(states, item, first)) {
      state.deferred = true;
      continue;
    }
    if (!tryMove(openingMove(state, item, 1, said, written, layout))) break;
  }
}

/**
 * The opening of the first cause not yet listed, when it fits: a cause after the first
 * `FIRST_CAUSES` is listed only once nothing more of those fits.
 */
function laterCause(
  states: readonly ItemState[],
  layout: Layout,
  budget: number,
  said: string,
): Move | null {
  const index = states.findIndex((state) => !isShown(state) && !state.deferred);
  const state = states[index];
  if (state === undefined || index < FIRST_CAUSES) return null;
  const written = isPlaceWritten(states, state.members[0]?.failure ?? null);
  const move = openingMove(state, index, 1, said, written, layout);
  if (move === null) return null;
  move.apply();
  const cost = layout.costOf(index);
  move.undo();
  return cost > budget - layout.used ? null : move;
}

/**
 * Which wordless item a cut is spent on first: one that shows no values (its words are all it
 * can say of what went wrong), then the cause that broke the most tests.
 */
function fillRank(state: ItemState | undefined): number {
  if (state === undefined) return 0;
  return (state.values < 0 ? -MAX_MEMBERS : 0) - state.members.length;
}

/** The items as chosen, and the failures they name. */
function fitted(states: readonly ItemState[], short: ReadonlyMap<string, string>): FittedTestItems {
  return { items: render(states, short), ...shownOf(states) };
}

/** The failures an item names, and how many failures the causes shown have. */
function shownOf(states: readonly ItemState[]): { shown: Failure[]; covered: number } {
  return {
    shown: states.flatMap((state) =>
      state.members.filter((member) => member.place || member.name).map((member) => member.failure),
    ),
    covered: states.filter(isShown).reduce((sum, state) => sum + state.size, 0),
  };
}

/** Every part of an item at its fullest. */
function showAll(state: ItemState): void {
  for (const member of state.members) {
    member.place = true;
    member.from = member.failure.testLocation !== undefined;
    member.column = true;
    member.name = true;
  }
  state.values = state.parts.values.length - 1;
  state.words = state.parts.words.length - 1;
}

/** No part of an item. */
function showNone(state: ItemState): void {
  for (const member of state.members) {
    member.place = false;
    member.from = false;
    member.column = false;
    member.name = false;
  }
  state.values = -1;
  state.words = -1;
}

/** Every way to show more of an item shown: the next test frame or name, fuller values or words. */
function* upgrades(states: readonly ItemState[], said: string): Generator<Move> {
  const named = new Set(
    states.flatMap((state) =>
      state.members.filter((member) => member.name).map((member) => labelOf(member.failure)),
    ),
  );
  const uses = labelUses(states);
  const wordsSaid = withShownWords(states, said);
  for (const [index, state] of states.entries()) {
    const weight = index === 0 ? FIRST_ITEM_WEIGHT : 1;
    if (!isShown(state)) {
      if (state.deferred) yield* deferredOpenings(state, index, weight, said, wordsSaid);
      continue;
    }
    // Names within an item come in order: its first unnamed failure whose name no item says
    // yet (a test that failed several checks, as go reports them, is named once).
    const unnamed = state.members.find(
      (member) =>
        !member.name &&
        labelOf(member.failure) !== null &&
        !named.has(labelOf(member.failure) ?? ""),
    );
    if (unnamed !== undefined) {
      const rank = state.members.indexOf(unnamed);
      const share = Math.min(MAX_NAME_SHARE, uses.get(labelOf(unnamed.failure) ?? "") ?? 1);
      const name = nameMove(unnamed, index, weight * nameWorth(rank) * share, said);
      if (name !== null) yield name;
    }
    // Another place of a cause already placed tells where else it shows: worth little once its
    // tests are named.
    const unplaced = state.members.find(
      (member) =>
        !member.place &&
        member.failure.file !== null &&
        !state.members.some((other) => other.place && samePlace(other.failure, member.failure)),
    );
    if (unplaced !== undefined) {
      const place = placeMove(unplaced, index, weight * MEMBER_PLACE_SHARE);
      if (place !== null) yield place;
    }
    const unframed = state.members.find(
      (member) => member.place && !member.from && member.failure.testLocation !== undefined,
    );
    if (unframed !== undefined) yield fromMove(unframed, index, weight);
    const columnless = state.members.find(
      (member) => member.place && !member.column && member.failure.column !== undefined,
    );
    if (columnless !== undefined) {
      yield toggle(columnless, index, "column", WORTH.column * weight);
    }
    // A cause's values and words say what went wrong in every failure of it, named or counted.
    const cause = weight * state.members.length;
    const values = formMove(state, index, "values", cause, said);
    if (values !== null) yield values;
    const words = formMove(state, index, "words", cause, wordsSaid);
    if (words !== null) yield words;
  }
}

/**
 * The first part of an item not yet shown: its first failure's place, else its name, else its
 * facts. When an item before already wrote that place (parametrised cases, or a test's several
 * checks, failing at one line), the place alone would tell nothing apart: it comes with the
 * cheapest part that does (`cheapestTelling`), so the causes after it still get their place.
 */
function openingMove(
  state: ItemState,
  item: number,
  weight: number,
  said: string,
  placeWritten: boolean,
  layout: Layout,
): Move | null {
  const [first] = state.members;
  if (first === undefined) return null;
  const values = formMove(state, item, "values", weight, said);
  const words = formMove(state, item, "words", weight, withShownWords(layout.states, said));
  const name = nameMove(first, item, weight, said);
  const place = placeMove(first, item, weight);
  if (placeWritten && place !== null) {
    const own = isLabelEarlier(layout.states, item, first.failure) ? null : name;
    // Words an item before has too (a test's rows at one line fail alike) tell nothing apart.
    const brief = state.parts.words[0];
    const alike = layout.states.slice(0, item).some((other) => other.parts.words[0] === brief);
    const telling = cheapestTelling([values, alike ? null : words, own], layout, item);
    return both(place, telling ?? values ?? words);
  }
  return place ?? name ?? values ?? words;
}

/**
 * A deferred item's openings: its place (a line already written, so worth nothing of itself)
 * with its values or its words, worth what they say of each of its cause's failures.
 */
function* deferredOpenings(
  state: ItemState,
  item: number,
  weight: number,
  said: string,
  wordsSaid: string,
): Generator<Move> {
  const [first] = state.members;
  if (first === undefined) return;
  const cause = weight * state.members.length;
  for (const part of ["values", "words"] as const) {
    const facts = formMove(state, item, part, cause, part === "words" ? wordsSaid : said);
    if (facts !== null && facts.worth > 0) yield both(toggle(first, item, "place", 0), facts);
  }
}

/**
 * Of the values, the words and a name no item before has, the cheapest that says something the
 * summary does not; null when none does.
 */
function cheapestTelling(
  moves: readonly (Move | null)[],
  layout: Layout,
  item: number,
): Move | null {
  let best: { move: Move; cost: number } | null = null;
  for (const move of moves) {
    if (move === null || move.worth <= 0) continue;
    move.apply();
    const cost = layout.costOf(item);
    move.undo();
    if (best === null || cost < best.cost) best = { move, cost };
  }
  return best?.move ?? null;
}

/** Two moves as one: the second, when there is one, shown with the first. */
function both(first: Move, second: Move | null): Move {
  if (second === null) return first;
  return {
    item: first.item,
    apply: () => {
      first.apply();
      second.apply();
    },
    undo: () => {
      second.undo();
      first.undo();
    },
    worth: first.worth + second.worth,
  };
}

/**
 * Whether an item before `item` has a failure of `failure`'s test (or rule): the name is that
 * item's to say, and tells nothing apart here.
 */
function isLabelEarlier(states: readonly ItemState[], item: number, failure: Failure): boolean {
  const label = labelOf(failure);
  return (
    label !== null &&
    states
      .slice(0, item)
      .some((state) => state.members.some((member) => labelOf(member.failure) === label))
  );
}

/** Whether an item shown already writes `failure`'s place. */
function isPlaceWritten(states: readonly ItemState[], failure: Failure | null): boolean {
  return (
    failure !== null &&
    failure.line !== null &&
    states.some((state) =>
      state.members.some((member) => member.place && samePlace(member.failure, failure)),
    )
  );
}

/** Showing a failure's `file:line`, when it has one. */
function placeMove(member: Member, item: number, weight: number): Move | null {
  const { file, line } = member.failure;
  if (file === null) return null;
  const worth = (line === null ? WORTH.place / 2 : WORTH.place) * weight;
  return toggle(member, item, "place", worth);
}

/**
 * Showing the test's own frame beside a thrown error's place: a file and a line, or only a
 * line when the test is in the error's file — nothing when that line is a few lines from the
 * place, which a reader opening the place already sees.
 */
function fromMove(member: Member, item: number, weight: number): Move {
  const { testLocation, file, line } = member.failure;
  const sameFile = testLocation?.file === file;
  const near =
    sameFile && line !== null && Math.abs((testLocation?.line ?? 0) - line) <= NEAR_FRAME_LINES;
  return toggle(member, item, "from", near ? 0 : (sameFile ? WORTH.from / 2 : WORTH.from) * weight);
}

/** Showing a failure's test name (or a finding's rule), when it has one worth showing. */
function nameMove(member: Member, item: number, weight: number, said: string): Move | null {
  const name = labelOf(member.failure);
  if (name === null) return null;
  return toggle(member, item, "name", said.includes(name) ? 0 : WORTH.name * weight);
}

/** Showing the next, fuller form of an item's values or words. */
function formMove(
  state: ItemState,
  item: number,
  part: "values" | "words",
  weight: number,
  said: string,
): Move | null {
  const forms = state.parts[part];
  const current = state[part];
  const form = forms[current + 1];
  if (form === undefined) return null;
  const first =
    part === "values" ? (state.parts.sides === 2 ? WORTH.values : WORTH.side) : WORTH.words;
  const worth = isSaid(said, form) ? 0 : (current < 0 ? first : WORTH.fuller) * weight;
  return {
    item,
    apply: () => {
      state[part] = current + 1;
    },
    undo: () => {
      state[part] = current;
    },
    worth,
  };
}

/**
 * `said` and the error's words every item shows: words an item before already shows (`to
 * eq(expected)` of a test's other row at one line) tell nothing more, nor anything apart.
 */
function withShownWords(states: readonly ItemState[], said: string): string {
  const shown = states.flatMap((state) => {
    const words = state.parts.words[state.words];
    return words === undefined ? [] : [words];
  });
  return [said, ...shown].join("\n");
}

/** Whether `said` holds `form`, or all of it before the `…` that cuts it. */
function isSaid(said: string, form: string): boolean {
  const cut = form.endsWith(ELLIPSIS) ? form.slice(0, -ELLIPSIS.length) : form;
  return cut !== "" && said.includes(cut);
}

/** Turning one flag of a member on, undoably. */
function toggle(
  member: Member,
  item: number,
  flag: "place" | "from" | "column" | "name",
  worth: number,
): Move {
  return {
    item,
    apply: () => {
      member[flag] = true;
    },
    undo: () => {
      member[flag] = false;
    },
    worth,
  };
}

/** Whether two failures are at the same file and line. */
function samePlace(a: Failure, b: Failure): boolean {
  return a.file === b.file && a.line === b.line;
}

/** Whether any part of the item is shown. */
function isShown(state: ItemState): boolean {
  return state.values >= 0 || state.words >= 0 || state.members.some((m) => m.place || m.name);
}

/** What names a failure in its item: the test, else a finding's rule; a file's failure is named by its place. */
function labelOf(failure: Failure): string | null {
  const test = failure.test === failure.file ? null : failure.test;
  return test ?? failure.rule ?? null;
}

/** What the items before one have written last: a brief place or name refers back to it. */
interface Written {
  readonly file: string | null;
  /** Files written whole so far: a place coming back to one names it by its short name. */
  readonly files: readonly string[];
  /** Test names written so far, in order: a later name sharing any one's stem is brief. */
  readonly names: readonly string[];
  /**
   * The directory (with its `/`) of the path written last, when it was written with its
   * directories: a new file in it or below it is `…/rest`. Null after a short name.
   */
  readonly directory: string | null;
}

const NOTHING_WRITTEN: Written = { file: null, files: [], names: [], directory: null };

/** Shortest directory worth eliding as `…/`: below it, a reader would rather see it again. */
const MIN_SHARED_DIRECTORY = 16;

/** `path`'s directory with its closing `/`, "" for a bare file name. */
function directoryOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/") + 1);
}

/** `path` as `…/rest` when it lies in `directory` (written just before) and that saves room. */
function inDirectory(path: string, directory: string | null): string {
  return directory !== null &&
    directory.length >= MIN_SHARED_DIRECTORY &&
    path.startsWith(directory)
    ? `${ELLIPSIS}/${path.slice(directory.length)}`
    : path;
}

/** Whether two lists hold the same strings in the same order. */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/** Whether two layouts leave the same written, so the items after them lay out alike. */
function sameWritten(a: Written | undefined, b: Written): boolean {
  return (
    a?.file === b.file &&
    a.directory === b.directory &&
    sameList(a.files, b.files) &&
    sameList(a.names, b.names)
  );
}

/**
 * Each failure file's short name (see `shortPathNames`), for a place that comes back to a file
 * an earlier item named whole: its directories were written once already.
 */
function shortFileNames(states: readonly ItemState[]): ReadonlyMap<string, string> {
  return shortPathNames(
    states.flatMap((state) =>
      state.members.flatMap((member) =>
        member.failure.file === null ? [] : [member.failure.file],
      ),
    ),
  );
}

/**
 * The shown items' text and what each leaves written, kept up to date as parts are shown, so
 * the cost of a part is found by laying out its item again (and the next ones, while what is
 * written last differs) instead of every item.
 */
class Layout {
  private readonly texts: string[] = [];
  private readonly after: Written[] = [];
  /** Code points the shown items take. */
  used = 0;

  constructor(
    readonly states: readonly ItemState[],
    private readonly short: ReadonlyMap<string, string>,
  ) {}

  /** How many code points item `index`'s current parts add to the layout. */
  costOf(index: number): number {
    let delta = 0;
    let written = this.writtenBefore(index);
    for (let at = index; at < this.states.length; at += 1) {
      const state = this.states[at];
      if (state === undefined) break;
      if (!isShown(state)) continue;
      const laid = renderItem(state, written, this.short);
      delta += codePointLength(laid.text) - codePointLength(this.texts[at] ?? "");
      written = laid.written;
      const before = this.after[at];
      if (at > index && sameWritten(before, written)) break;
    }
    return delta;
  }

  /** What the shown items before item `index` leave written: items not yet shown write nothing. */
  private writtenBefore(index: number): Written {
    for (let at = index - 1; at >= 0; at -= 1) {
      const written = this.after[at];
      if (written !== undefined) return written;
    }
    return NOTHING_WRITTEN;
  }

  /** Lays item `index` and those after it out again once one of its parts is shown. */
  commit(index: number): void {
    let written = this.writtenBefore(index);
    for (let at = index; at < this.states.length; at += 1) {
      const state = this.states[at];
      if (state === undefined) break;
      if (!isShown(state)) continue;
      const laid = renderItem(state, written, this.short);
      this.used += codePointLength(laid.text) - codePointLength(this.texts[at] ?? "");
      this.texts[at] = laid.text;
      const before = this.after[at];
      this.after[at] = laid.written;
      written = laid.written;
      if (at > index && sameWritten(before, written)) break;
    }
  }
}

/**
 * The shown items as text, in order, naming each file once: a place whose file is the one
 * written last is `…:line` (only that one: a reader takes `…` as the file above, even where the
 * test's name spells out another), and a name sharing the stem of
 * the name written last is `…SEP leaf`, a file met again after others is its `short` name.
 * `spelled` writes every file and name out, for when there is room.
 */
function render(
  states: readonly ItemState[],
  short: ReadonlyMap<string, string>,
  spelled = false,
): string[] {
  const items: string[] = [];
  let written = NOTHING_WRITTEN;
  for (const state of states) {
    if (!isShown(state)) continue;
    const laid = renderItem(state, spelled ? NOTHING_WRITTEN : written, short);
    items.push(laid.text);
    written = laid.written;
  }
  return items;
}

/** One item's text after what `written` says was written last, and what it leaves written. */
function renderItem(
  state: ItemState,
  written: Written,
  short: ReadonlyMap<string, string>,
): { text: string; written: Written } {
  let lastFile = written.file;
  let { directory } = written;
  const files = [...written.files];
  const names = [...written.names];
  const members: string[] = [];
  // A place the item wrote already is not written again (the tests that called one helper
  // line), nor a name it wrote there (a test that failed one check several times).
  const places = new Set<string>();
  const named = new Set<string>();
  for (const member of state.members) {
    const { failure } = member;
    const placeKey = `${failure.file ?? ""}:${failure.line ?? ""}`;
    const placed = member.place && !places.has(placeKey);
    const own = member.name ? labelOf(failure) : null;
    const label = own !== null && named.has(own) ? null : own;
    if (!placed && label === null) continue;
    if (placed) places.add(placeKey);
    if (label !== null) named.add(label);
    const test = label !== null && label === failure.test ? label : null;
    let where = "";
    if (placed && failure.file !== null) {
      const implied = failure.file === lastFile;
      const again = files.includes(failure.file);
      const shown = again
        ? (short.get(failure.file) ?? failure.file)
        : inDirectory(failure.file, directory);
      where =
        placeText(failure, shown, implied, member.column) + (member.from ? fromText(failure) : "");
      // A file without a line, the one written last, and no name: the file again, never nothing.
      if (where === "" && label === null) where = shown;
      if (!implied) directory = again ? null : directoryOf(failure.file);
      const from = member.from ? failure.testLocation : undefined;
      if (from !== undefined && from.file !== failure.file) directory = directoryOf(from.file);
      if (!again) files.push(failure.file);
      lastFile = failure.file;
    }
    const name = test === null ? label : briefNameAfter(test, names);
    if (test !== null) names.push(test);
    members.push([where, name ?? ""].filter((text) => text !== "").join(" "));
  }
  const values = state.parts.values[state.values] ?? "";
  const words = state.cut ?? state.parts.words[state.words] ?? "";
  const facts = values === "" ? words : words === "" ? values : `${values} (${words})`;
  const who = members.join("; ");
  const text = who === "" ? facts : facts === "" ? who : `${who}: ${facts}`;
  return { text, written: { file: lastFile, files, names, directory } };
}

/**
 * `file:line` (the file `shown` as named), with `:col` when `withColumn`, `…:line` when the file
 * is `implied`, the file alone without a line.
 */
function placeText(
  { line, column }: Failure,
  shown: string,
  implied: boolean,
  withColumn: boolean,
): string {
  if (line === null && implied) return "";
  if (line === null) return shown;
  const at = withColumn && column !== undefined ? `:${column}` : "";
  return `${implied ? ELLIPSIS : shown}:${line}${at}`;
}

/** ` (from test/a.test.js:8)` after a thrown error's place, `(from …:8)` in the same file. */
function fromText({ file, testLocation }: Failure): string {
  if (testLocation === undefined) return "";
  const from = testLocation.file === file ? ELLIPSIS : testLocation.file;
  return ` (from ${from}:${testLocation.line})`;
}

/** Code points in all items together. */
function totalLength(items: readonly string[]): number {
  return items.reduce((sum, item) => sum + codePointLength(item), 0);
}
