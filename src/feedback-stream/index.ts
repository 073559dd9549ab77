// Reading logs of any size as streams (the shell side of SPEC §4): the pure feedback core reads
// the bounded reduction these modules keep.
export { LineSplitter, MAX_LINE_LENGTH } from "./line-splitter.js";
export type { LineSink } from "./line-splitter.js";
export { isPassingLine, reportsFailure } from "./failure-lines.js";
export { DEFAULT_LIMITS, LogReducer } from "./log-reducer.js";
export type { LogReduction, ReductionLimits } from "./log-reducer.js";
export { MAX_JSON_DOCUMENT_LENGTH, reduceLog } from "./reduce-log.js";
export type { ReduceLogOptions } from "./reduce-log.js";
export { MAX_REVIEW_LENGTH, logFeedback, openLog } from "./log-feedback.js";
export type { LogFeedback, LogFeedbackOptions, ReviewLogFeedback } from "./log-feedback.js";
export { forcedParser, runnerNames, runnerParsers } from "./runner-parsers.js";
