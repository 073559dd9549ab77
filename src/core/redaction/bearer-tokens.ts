import { patternSpans, type Detector } from "./secret-span.js";

// `x{8}x*`, not `x{8,}`: V8 keeps a backtracking entry per character of a counted loop, and
// overflows its stack on a 10 MB run.
// eslint-disable-next-line regexp/optimal-quantifier-concatenation -- see above
const BEARER = /(?<![\w.])(?<![\w.]-)bearer[ \t]+([\w.~+/-]{8}[\w.~+/-]*=*)/dgi;

/**
 * A token after `Bearer`, wherever it appears (`curl -H "…Bearer x"`, a config value). Prose
 * ("bearer authentication") is not a token: one needs a digit or punctuation, or 20 characters.
 */
export const bearerTokens: Detector = (text) =>
  patternSpans(text, BEARER, "bearer_token", 1, (match) => {
    const token = match[1] ?? "";
    return token.length >= 20 || /[\d.~+/=_-]/.test(token);
  });
