import type { Answer, ExtraRoom, QuestionOption } from "./answer.js";
import type { AnswerPolicy, LoopTask } from "./loop-plan.js";
import type { Grant, TaskState } from "./loop-state.js";

/** What a continue answer's grant is worked out from: the task as it paused. */
export interface GrantBasis {
  readonly policy: AnswerPolicy;
  /** The task's budget cap as the task file sets it; null or absent when uncapped. */
  readonly budgetCap: number | null | undefined;
  readonly spend: number;
  /** Attempts made so far. */
  readonly attempts: number;
  /** The paused decision's reason. */
  readonly reason: string;
}

/**
 * The budget a continue answer adds by default: `on_answer.extra_budget` when the task file sets
 * one; else, when the task paused because its budget ran out, what the attempts granted are
 * expected to cost — the task's mean attempt cost so far times `attempts`, rounded up to a cent —
 * so that continuing buys attempts that can run; else nothing.
 */
export function defaultBudgetGrant(basis: GrantBasis, attempts: number): number {
  if (basis.policy.extraBudget > 0) return basis.policy.extraBudget;
  if (basis.reason !== "BUDGET_EXHAUSTED" || basis.budgetCap === null) return 0;
  if (basis.budgetCap === undefined || basis.attempts === 0) return 0;
  return Math.ceil((basis.spend / basis.attempts) * attempts * 100 - 1e-9) / 100;
}

/**
 * The room a continue answer grants: the answer's own `extraIterations` / `extraBudget` when it
 * gives them, else the task's `on_answer` policy, with the default budget of `defaultBudgetGrant`.
 */
export function answerGrant(basis: GrantBasis, answer: Answer): Grant {
  const own: ExtraRoom = answer.kind === "option" || answer.kind === "text" ? answer : {};
  const iterations = own.extraIterations ?? basis.policy.extraIterations;
  return {
    iterations,
    budget: own.extraBudget ?? defaultBudgetGrant(basis, iterations),
    timeMs: basis.policy.extraTimeMs,
  };
}

/**
 * The options with the budget continuing adds shown in each continue option's label, whenever
 * continuing adds budget.
 */
export function withBudgetGrant(
  options: readonly QuestionOption[],
  basis: GrantBasis,
): QuestionOption[] {
  const budget =
    basis.policy.extraBudget > 0 ? 0 : defaultBudgetGrant(basis, basis.policy.extraIterations);
  if (budget === 0) return [...options];
  const more = `${basis.policy.extraIterations} more attempt${basis.policy.extraIterations === 1 ? "" : "s"}`;
  return options.map((option) =>
    option.effect === "continue"
      ? { ...option, label: `${option.label} [adds ${budget} to the budget for ${more}]` }
      : option,
  );
}

/** The grant basis of a task paused on `reason`, from its plan and state. */
export function grantBasis(plan: LoopTask, task: TaskState, reason: string): GrantBasis {
  return {
    policy: plan.onAnswer,
    budgetCap: plan.stopConditions.budgetCap,
    spend: task.spend,
    attempts: task.iteration,
    reason,
  };
}

/** Two grants added up. */
export function addGrant(total: Grant, more: Grant): Grant {
  return {
    iterations: total.iterations + more.iterations,
    budget: total.budget + more.budget,
    timeMs: total.timeMs + more.timeMs,
  };
}
