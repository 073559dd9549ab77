import type { RunningStep } from "../step-processes.js";

/** A place to run one step, taken from a `StepGate`. */
export interface StepPlace {
  /** Remembers the step's processes, for `cutOff`. */
  readonly spawned: (processes: RunningStep) => void;
  /** Whether the gate cut this step off: its result must not be recorded. */
  readonly cut: () => boolean;
  readonly release: () => void;
}

/** Grace a step cut off at a stop gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;

/** What never settles: a workflow parked here is left to DBOS's shutdown and handed back. */
const NEVER = new Promise<never>(() => undefined);

/**
 * The steps of one worker process and their stop. `take` gives one of `size` places at once
 * (`worker --concurrency`). The gate also counts the task and work workflows busy in this process
 * — not parked, not waiting for an answer or for their work — so a stop can tell when nothing is
 * left in flight: once
 * `close`d, a workflow that reaches its next effect parks (`park`) instead of starting it, and a
 * step cut off by `cutOff` parks instead of returning. A parked workflow stays PENDING in DBOS;
 * the worker hands it back to the queue before it exits, and another worker replays it.
 */
export class StepGate {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  private readonly running = new Map<StepPlace, RunningStep | undefined>();
  private readonly cutPlaces = new Set<StepPlace>();
  private busy = 0;
  private closed = false;
  private quietWaiters: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  /** A task or work workflow starts, or goes on after waiting for an answer or its work. */
  enter(): void {
    this.busy += 1;
  }

  /** A task or work workflow ends, or waits for an answer or its work. */
  leave(): void {
    this.busy -= 1;
    if (this.busy === 0) for (const wake of this.quietWaiters.splice(0)) wake();
  }

  /** Whether the gate was closed: a workflow between effects parks then. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Parks the calling workflow for good (see the class comment). */
  park(): Promise<never> {
    this.leave();
    return NEVER;
  }

  /** Waits for a place; a closed gate parks the caller instead. */
  async take(): Promise<StepPlace> {
    if (this.closed) return this.park();
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.closed) {
      this.give();
      return this.park();
    }
    const place: StepPlace = {
      spawned: (processes) => {
        this.running.set(place, processes);
        // Spawned after the cut: it is not run now, but on another worker.
        if (this.cutPlaces.has(place)) processes.signal("SIGKILL");
      },
      cut: () => this.cutPlaces.has(place),
      release: () => {
        this.running.delete(place);
        this.give();
      },
    };
    this.running.set(place, undefined);
    return place;
  }

  private give(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.free += 1;
    else next();
  }

  /** Stops new steps: workflows park at their next effect, those waiting for a place at once. */
  close(): void {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** Resolves true once no workflow is busy here, false after `timeoutMs` if one still is. */
  quiet(timeoutMs: number): Promise<boolean> {
    if (this.busy === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.quietWaiters = this.quietWaiters.filter((wake) => wake !== done);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.quietWaiters.push(done);
    });
  }

  /**
   * Cuts off the steps still running: their processes get SIGTERM, then SIGKILL, and their
   * workflows park instead of recording a result a stop made up. They run again on another worker.
   */
  cutOff(): number {
    for (const [place, processes] of this.running) {
      this.cutPlaces.add(place);
      processes?.signal("SIGTERM");
      setTimeout(() => processes?.signal("SIGKILL"), KILL_GRACE_MS).unref();
    }
    return this.running.size;
  }
}
