/**
 * A comment that only praises: a short approving phrase and nothing else (`Great stuff!`,
 * `LGTM`, `Nice catch.`, `👍`). Anything more (`Great, but rename it`) may ask for a change.
 */
const PRAISE_ONLY =
  /^(?:lgtm|looks good(?: to me)?|ship it|:shipit:|:\+1:|👍|🎉|(?:great|nice|good|awesome|excellent|perfect|lovely|neat|well done|love (?:it|this)|thanks|thank you)(?:[ \t]+[\p{L}']+){0,2})[.!]*(?:[ \t]+(?:👍|🎉|:\+1:))?$/iu;

/** Whether a comment only praises, and so asks for nothing. */
export function isPraiseOnly(text: string): boolean {
  return PRAISE_ONLY.test(text.trim());
}
