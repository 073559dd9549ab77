import type { RunStep } from "../core/loop/loop-effect.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import type { LoopState } from "../core/loop/loop-state.js";

/** What a run tells whoever watches it; every method is optional to implement meaningfully. */
export interface Progress {
  /** A step is about to run. */
  readonly stepStarting: (effect: RunStep, state: LoopState) => void;
  /** An event was journaled and applied. */
  readonly recorded: (event: LoopEvent, state: LoopState) => void;
  /** The runner waits on something outside the loop (a lease). */
  readonly notice: (message: string) => void;
  /**
   * A human may be asked a question: other tasks' progress must not write over it, so what they
   * report meanwhile waits until the question is answered.
   */
  readonly asking: <T>(question: () => Promise<T>) => Promise<T>;
}

/** Progress that prints nothing (`--quiet`). */
export const silentProgress: Progress = {
  stepStarting: () => undefined,
  recorded: () => undefined,
  notice: () => undefined,
  asking: (question) => question(),
};
