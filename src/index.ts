export { defineCondition, fired, held } from "./core/conditions/condition.js";
export type { Condition, ConditionCheck, VerdictInput } from "./core/conditions/condition.js";
export { Precedence } from "./core/conditions/precedence.js";
export type { BuiltinConditionCode } from "./core/conditions/precedence.js";
export { builtinConditions } from "./core/conditions/builtin-conditions.js";
export { approvalGate } from "./core/conditions/approval-gate.js";
export { stopScoreReached } from "./core/conditions/stop-score-reached.js";
export { budgetExhausted } from "./core/conditions/budget-exhausted.js";
export { maxIterations } from "./core/conditions/max-iterations.js";
export { timeLimit } from "./core/conditions/time-limit.js";
export { noProgress } from "./core/conditions/no-progress.js";
export { verdictOf, byPrecedence } from "./core/verdict.js";
export { verdict, evaluate, headroom } from "./library/verdict.js";
export type { Verdict, StopVerdict, ContinueVerdict, Evaluation } from "./core/verdict.js";
export type { Headroom } from "./core/headroom.js";
export type { Counters, Approval } from "./core/counters.js";
export type { Policy, NoProgressPolicy } from "./core/policy.js";
export { VALIDATION_PASSED_MESSAGE } from "./core/decide.js";
export { decide } from "./library/decide.js";
export type { DecideOptions } from "./core/decide.js";
export type { DecideInput, StopConditions } from "./core/decide-input.js";
export { verdictInputOf } from "./core/verdict-input-of.js";
export { attemptsOf } from "./core/attempts-of.js";
export type * from "./core/decision.js";
export { DEFAULT_ITERATION_CONTROL } from "./core/iteration-check.js";
export type * from "./core/iteration-check.js";
export type * from "./core/feedback/feedback.js";
export { failureOf } from "./core/feedback/failure-of.js";
export type * from "./core/escalation/escalation.js";
export {
  applySummarizer,
  DEFAULT_SUMMARIZER_TIMEOUT_MS,
} from "./escalation-summarizer/apply-summarizer.js";
export type { SummarizerOutcome } from "./escalation-summarizer/apply-summarizer.js";
export { commandSummarizer } from "./escalation-summarizer/command-summarizer.js";
export type * from "./escalation-summarizer/summarizer.js";
export { redact, secretSpans, redactionMarker } from "./core/redaction/redaction.js";
export { redactStrings } from "./core/redaction/redact-strings.js";
export type { SecretSpan } from "./core/redaction/secret-span.js";
export { LoopgateError } from "./core/errors.js";
export { InputError } from "./wire/input-error.js";
export { parseText } from "./wire/parse-text.js";
export { render } from "./wire/render.js";
export type { OutputFormat } from "./wire/render.js";
export {
  decodeVerdictDocument,
  encodeVerdict,
  verdictDocumentSchema,
} from "./wire/verdict-document.js";
export {
  decodeDecideDocument,
  decodeConfigDocument,
  encodeDecision,
  decideDocumentSchema,
  configDocumentSchema,
} from "./wire/decide-document.js";
export type { DecideSettings } from "./wire/decide-document.js";
export { fromWire, toWire } from "./wire/codec.js";
export { startLoop } from "./core/loop/start-loop.js";
export { transition } from "./core/loop/transition.js";
export { effectsOf, activeTask, nextEffect, awaitedAnswers } from "./core/loop/effects-of.js";
export type { ActiveTask, TaskEffect } from "./core/loop/effects-of.js";
export { replay } from "./core/loop/replay.js";
export { scheduleOf } from "./core/loop/schedule.js";
export { runSummary } from "./core/loop/run-summary.js";
export type { TaskSummary, TaskOutcome } from "./core/loop/run-summary.js";
export { answerOptions, questionOptions } from "./core/loop/question-options.js";
export { DEFAULT_ANSWER_POLICY, DEFAULT_REVIEW_WAIT } from "./core/loop/loop-plan.js";
export type * from "./core/loop/loop-plan.js";
export { LOOP_STATE_VERSION } from "./core/loop/loop-state.js";
export type * from "./core/loop/loop-state.js";
export type * from "./core/loop/loop-event.js";
export type * from "./core/loop/loop-effect.js";
export type * from "./core/loop/answer.js";
export type * from "./core/loop/step-outcome.js";
export { STEP_ERROR } from "./core/loop/step-error.js";
export type * from "./core/loop/step-error.js";
export { stepErrors } from "./core/loop/effects-of.js";
export { decodeTaskFile, planOf, stepsOf, taskFileSchema } from "./wire/task-file.js";
export type { TaskFile, TaskEntry, StepSpec, StepSpecs } from "./wire/task-file.js";
export { decodeAnswersFile, answersFileSchema } from "./wire/answers-file.js";
export type { AnswersByTask } from "./wire/answers-file.js";
export { testFeedback } from "./core/feedback/test-feedback.js";
export type { TestFeedbackOptions } from "./core/feedback/test-feedback.js";
export { reviewFeedback } from "./core/feedback/review-feedback.js";
export { builtinParsers } from "./core/feedback/parsers/builtin-parsers.js";
export { logFeedback, openLog } from "./feedback-stream/log-feedback.js";
export type { LogFeedback, LogFeedbackOptions } from "./feedback-stream/log-feedback.js";
export { run } from "./library/run.js";
export type { RunOptions, RunResult, RunProgressEvent } from "./library/run.js";
