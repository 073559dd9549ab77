import type { LoopSchedule, TaskPhase, TaskState } from "./loop-state.js";

/** Where a task stands for scheduling: not started, holding a place, paused, or finished. */
export type Standing = "pending" | "working" | "paused" | "done";

/** The standing of a task in `phase`. */
export function standingOf(phase: TaskPhase): Standing {
  switch (phase.name) {
    case "pending":
    case "done":
      return phase.name;
    case "awaiting-answer":
    case "step-error":
      return "paused";
    case "running":
    case "deciding":
      return "working";
  }
}

/** The schedule of these tasks, worked out from the tasks alone (what the fold keeps up to date). */
export function scheduleOf(tasks: readonly TaskState[]): LoopSchedule {
  return scheduleOfStandings(tasks.map((task) => [task.id, standingOf(task.phase)]));
}

/** A schedule without its index of positions: all that says which tasks move next. */
export type ScheduleLists = Omit<LoopSchedule, "positions">;

/** The schedule of tasks, in order, each given by its id and where it stands. */
export function scheduleOfStandings(
  tasks: readonly (readonly [id: string, standing: Standing])[],
): LoopSchedule {
  return {
    // fromEntries defines each id as an own key, "__proto__" included.
    positions: Object.fromEntries(tasks.map(([id], position) => [id, position])),
    ...scheduleLists(tasks.map(([, standing]) => standing)),
  };
}

/** The working, paused and pending lists of tasks standing as `standings`, in order. */
export function scheduleLists(standings: readonly Standing[]): ScheduleLists {
  const working: number[] = [];
  const paused: number[] = [];
  const pending: number[] = [];
  for (const [position, standing] of standings.entries()) {
    if (standing === "working") working.push(position);
    else if (standing === "paused") paused.push(position);
    else if (standing === "pending") pending.push(position);
  }
  let pendingFrom = standings.length;
  while (pending.length > 0 && pending[pending.length - 1] === pendingFrom - 1) {
    pending.pop();
    pendingFrom -= 1;
  }
  return { working, paused, pendingFrom, pendingBefore: pending };
}

/** The position of task `id`, or undefined when the loop has no such task. */
export function positionOf(schedule: LoopSchedule, id: string): number | undefined {
  return Object.hasOwn(schedule.positions, id) ? schedule.positions[id] : undefined;
}

/** Where the first entry above `value` goes in ascending `list` (binary search). */
function insertionPoint(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] ?? Infinity) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function inserted(list: readonly number[], value: number): number[] {
  const at = insertionPoint(list, value);
  return [...list.slice(0, at), value, ...list.slice(at)];
}

function removed(list: readonly number[], value: number): number[] {
  const at = insertionPoint(list, value);
  return list[at] === value ? [...list.slice(0, at), ...list.slice(at + 1)] : [...list];
}

/** The working or the paused list, edited. */
function edited(
  schedule: LoopSchedule,
  list: "working" | "paused",
  edit: (list: readonly number[]) => number[],
): Partial<LoopSchedule> {
  return list === "working"
    ? { working: edit(schedule.working) }
    : { paused: edit(schedule.paused) };
}

/** The parts of `schedule` that change when the task at `position` leaves `standing`. */
function leaving(
  schedule: LoopSchedule,
  position: number,
  standing: Standing,
): Partial<LoopSchedule> {
  switch (standing) {
    case "working":
    case "paused":
      return edited(schedule, standing, (list) => removed(list, position));
    case "done":
      return {};
    case "pending": {
      if (position < schedule.pendingFrom) {
        return { pendingBefore: removed(schedule.pendingBefore, position) };
      }
      // A task started ahead of others (a journal written at a higher concurrency): the ones it
      // passed stay pending, before the new frontier.
      const passed = Array.from(
        { length: position - schedule.pendingFrom },
        (_, index) => schedule.pendingFrom + index,
      );
      return { pendingFrom: position + 1, pendingBefore: [...schedule.pendingBefore, ...passed] };
    }
  }
}

/**
 * The parts of `schedule` that change when the task at `position` comes to `standing`: no task
 * goes back to pending, and a done task is in no list.
 */
function entering(schedule: LoopSchedule, position: number, standing: Standing) {
  return standing === "working" || standing === "paused"
    ? edited(schedule, standing, (list) => inserted(list, position))
    : {};
}

/** The schedule once the task at `position` moved from standing `from` to `to`. */
export function rescheduled(
  schedule: LoopSchedule,
  position: number,
  from: Standing,
  to: Standing,
): LoopSchedule {
  if (from === to) return schedule;
  return {
    ...schedule,
    ...leaving(schedule, position, from),
    ...entering(schedule, position, to),
  };
}

/** Whether no task is left to start, work on or answer. */
export function allDone(schedule: ScheduleLists, count: number): boolean {
  return (
    schedule.working.length === 0 &&
    schedule.paused.length === 0 &&
    schedule.pendingBefore.length === 0 &&
    schedule.pendingFrom >= count
  );
}

/**
 * The first `places` positions, ascending, of the union of ascending, disjoint `lists` and of the
 * range from `from` up to `count`.
 */
function firstOf(
  places: number,
  lists: readonly (readonly number[])[],
  from: number,
  count: number,
): number[] {
  const cursors = lists.map(() => 0);
  const first: number[] = [];
  let next = from;
  while (first.length < places) {
    let best = next < count ? next : Infinity;
    let which = -1;
    for (const [index, list] of lists.entries()) {
      const head = list[cursors[index] ?? 0];
      if (head !== undefined && head < best) {
        best = head;
        which = index;
      }
    }
    if (best === Infinity) break;
    first.push(best);
    if (which === -1) next += 1;
    else cursors[which] = (cursors[which] ?? 0) + 1;
  }
  return first;
}

/** Two ascending, disjoint lists as one. */
function merged(left: readonly number[], right: readonly number[]): number[] {
  return firstOf(left.length + right.length, [left, right], 0, 0);
}

/**
 * The positions, ascending, of the tasks whose next effects are offered: the first `places` tasks
 * that are neither done nor paused, and every paused task, which holds no place — so a run goes
 * on while tasks wait for answers. At concurrency 1 tasks run one after another in file order (a
 * later task may build on an earlier one), so there the first task not done keeps the one place
 * even while it is paused.
 */
export function offered(schedule: ScheduleLists, places: number, count: number): number[] {
  if (places === 1) {
    return firstOf(
      1,
      [schedule.working, schedule.paused, schedule.pendingBefore],
      schedule.pendingFrom,
      count,
    );
  }
  const open = firstOf(
    places,
    [schedule.working, schedule.pendingBefore],
    schedule.pendingFrom,
    count,
  );
  return merged(open, schedule.paused);
}

/** The position of the first task in progress (working or paused), or undefined when none is. */
export function firstInProgress(schedule: ScheduleLists): number | undefined {
  return firstOf(1, [schedule.working, schedule.paused], 0, 0)[0];
}
