/**
 * Lines a pull-request page copied from a browser shows around each comment: the author's
 * role, `@login`, `login bot` (or both on one line), `16 minutes ago`, and lines of bare punctuation (a code
 * excerpt's closing `)`).
 */
const CHROME =
  /^(?:contributor|member|owner|collaborator|author|@[\w.[\]-]+(?: [\w.[\]-]+ bot)?|[\w.[\]-]+ bot|(?:\d+|an?) (?:second|minute|hour|day|week|month|year)s? ago|[^\p{L}\p{N}]+)$/iu;

/** Whether a point's words are only a page's chrome (see `CHROME`). */
export function isPageChrome(text: string): boolean {
  return CHROME.test(text.trim());
}
