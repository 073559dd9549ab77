/** ANSI colours, or none: off when the stream is not a terminal or NO_COLOR is set (no-color.org). */
export interface Paint {
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly red: (text: string) => string;
  readonly magenta: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

const plain = (text: string) => text;
const sgr = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;

/** Colours for a stream that is (or is not) a terminal. */
export function paintFor(isTTY: boolean, env: NodeJS.ProcessEnv = process.env): Paint {
  const on = isTTY && (env.NO_COLOR ?? "") === "";
  return on
    ? {
        green: sgr(32, 39),
        yellow: sgr(33, 39),
        red: sgr(31, 39),
        magenta: sgr(35, 39),
        dim: sgr(2, 22),
        bold: sgr(1, 22),
      }
    : { green: plain, yellow: plain, red: plain, magenta: plain, dim: plain, bold: plain };
}

/** The colour of a decision's action or a task's outcome. */
export function tone(paint: Paint, word: string): (text: string) => string {
  if (word === "proceed" || word === "proceeded") return paint.green;
  if (word === "retry" || word === "wait" || word === "running") return paint.yellow;
  if (word === "abort" || word === "aborted") return paint.red;
  if (word === "escalate" || word === "awaiting-answer") return paint.magenta;
  return plain;
}
