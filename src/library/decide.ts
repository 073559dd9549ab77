import { decide as coreDecide, type DecideOptions } from "../core/decide.js";
import type { DecideInput } from "../core/decide-input.js";
import type { Decision } from "../core/decision.js";
import { decodeDecideDocument } from "../wire/decide-document.js";
import { fromLibrary } from "./library-input.js";

/** Sections a library caller gives in full: their absence is a mistake, not "uncapped". */
const SECTIONS = ["iterationControl", "stopConditions", "iterationCheck"];

/**
 * SPEC §3: decides what the loop does after an attempt — proceed, retry with feedback,
 * escalate with a question, wait, or abort — and names the condition that decided. Pure; the
 * input is validated like the CLI's `decide` document (an `InputError` naming the field), its
 * three sections are required, and fields left out of `iterationControl` take the defaults.
 */
export function decide(input: DecideInput, options: DecideOptions = {}): Decision {
  return coreDecide(
    fromLibrary(input, (wire) => decodeDecideDocument(wire), SECTIONS),
    options,
  );
}
