/**
 * Words with which a reviewer asks for a change or names a defect. Intros, outros and the
 * observations of an assessment section ("Minimal impact: the template is lightweight") have
 * none of them; a request or a problem has at least one.
 */
const ASKS =
  /\b(?:please|consider|should(?:n't)?|must|need(?:s|ed)?|avoid|use|add|remove|drop|delete|replace|rename|move|fix|change|update|handle|guard|validate|check|ensure|make sure|missing|lacks?|incorrect|wrong|bug|broken|breaks?|fails?|error|crash(?:es)?|leaks?|race|typo|instead|could|would|why|don't|do not|never|unused|duplicate[ds]?|redundant|inconsistent|inconsistency|unclear|confusing|outdated|stale|vulnerab\w*|injection|unsafe|insecure|deprecated|todo)\b|\?/i;

/** "No critical issues found", "There are no PEP8 issues in …": a finding that nothing was found. */
const NOTHING_FOUND =
  /^(?:there (?:are|were|is) )?no\s(?:[^.:;]{0,60}?\s)?(?:issues?|concerns?|problems?|findings?|errors?|warnings?|bugs?|blockers?|required actions?|changes needed|comments?)\b/i;

/**
 * Counts and headers bots print above their findings (`Actionable comments posted: 10`,
 * Copilot's `Copilot reviewed 7 out of 7 changed files in this pull request and generated 3
 * comments.`), and their notice that they reviewed nothing (`… wasn't able to review any files
 * in this pull request.`): what the review holds is in its findings, not in these.
 */
const BOT_COUNT =
  /^(?:(?:actionable comments posted|comments posted|review details|reviewing files|files selected for processing|additional comments not posted)\b[^.]{0,40}|[\w-]{1,40} reviewed \d+ (?:out )?of \d+ (?:changed )?files\b[^.]{0,100}\.?|[\w-]{1,40} (?:wasn't|was not|isn't|is not|was unable|is unable|couldn't|could not)(?: able)?(?: to)? review (?:any|the|this)\b[^.]{0,100}\.?)$/i;

/**
 * A paragraph that tells what the change under review does (Gemini's and Copilot's opening
 * "This pull request introduces …", "This PR adds …"): a summary of the work, not a finding.
 */
const DESCRIBES_CHANGE =
  /^(?:this|the) (?:pull request|PR|merge request|MR|change(?:set)?|patch|commit|diff)(?: [\w-]+){0,4} (?:introduces|adds|implements|updates|refactors|removes|fixes|migrates|moves|strengthens|improves|enables|replaces|extends|integrates|converts|rewrites|reworks)\b/i;

/** Whether a paragraph describes the change under review rather than asking for anything. */
export function describesChange(text: string): boolean {
  return DESCRIBES_CHANGE.test(text);
}

/** Whether a point's words ask for a change or name a defect. */
export function asksForChange(text: string): boolean {
  return ASKS.test(text);
}

/** Whether a point only reports that nothing was found (`No security concerns: …`). */
export function reportsNothing(text: string): boolean {
  return NOTHING_FOUND.test(text);
}

/** Whether a line is a bot's count or header line rather than a finding. */
export function isBotCount(text: string): boolean {
  return BOT_COUNT.test(text);
}
