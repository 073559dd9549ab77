import type { ReviewStatus, TestStatus } from "../iteration-check.js";

/** The three steps of a loop pass, in the order they run. */
export type StepName = "generate" | "test" | "review";

/** What the driver measured about any step run; the core trusts these numbers and never measures. */
export interface StepMeasure {
  /** null when the process was killed by a signal. */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** Spend the step reported (sum of its report lines); 0 when it reported none. */
  readonly spend: number;
  readonly tokens: number;
  /** The attempt's diff, when the step reported one. */
  readonly diff?: string;
  /** Present when a built-in adapter ran the agent (a generate step's `agent:`). */
  readonly agent?: AgentRun;
}

/** What a coding agent said about its own run, as a built-in adapter read it from its output. */
export interface AgentRun {
  /** The adapter: `claude-code`, `codex` or `aider`. */
  readonly name: string;
  /** The session (Claude Code) or thread (Codex) a later attempt can resume. */
  readonly sessionId?: string;
  readonly turns?: number;
  /** How the agent says it ended: Claude Code's `subtype`, Codex's failed turn. */
  readonly stopReason?: string;
  /** The agent stopped on a limit of its own (turns, budget) or failed its turn. */
  readonly limited: boolean;
}

/** The attempt's commit in its task's git workspace, as the driver made it (docs/workspaces.md). */
export interface AttemptCommit {
  /** The branch the attempts are committed on; absent on a detached HEAD. */
  readonly branch?: string;
  /** The commit the task started from: `diff` is against it. */
  readonly base: string;
  /** The workspace's commit after the attempt: its own, or the previous one when it changed nothing. */
  readonly head: string;
  /** Whether the attempt made a commit; false when it changed nothing. */
  readonly committed: boolean;
  /** What the attempt changed since the previous attempt's commit (the base, for the first). */
  readonly diffFromPrevious: string;
}

/** The generate step's run: the agent wrote its attempt. */
export interface GenerateOutcome extends StepMeasure {
  readonly step: "generate";
  /** Captured output, bounded by the driver. */
  readonly output: string;
  /** The attempt's commit, when the task has a git workspace; `diff` is then the workspace's. */
  readonly commit?: AttemptCommit;
}

/** The test step's run, already read as pass or fail. */
export interface TestOutcome extends StepMeasure {
  readonly step: "test";
  readonly status: TestStatus;
  readonly output: string;
  /** The reports the step declared and wrote, read whole; absent when it declared none. */
  readonly reports?: readonly string[];
}

/** The review step's run, already read as approve, reject or pending. */
export interface ReviewOutcome extends StepMeasure {
  readonly step: "review";
  readonly status: ReviewStatus;
  readonly feedback: string;
  readonly score?: number | null;
}

/** Any step's outcome, tagged by step. */
export type StepOutcome = GenerateOutcome | TestOutcome | ReviewOutcome;
