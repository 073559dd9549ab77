import { Worker } from "node:worker_threads";
import { textOf, type Shape } from "./shape.js";

/** How fast a scan may grow: `large` is ten times `small`, so linear work grows about tenfold. */
export interface GrowthLimits {
  /** The smaller input, in UTF-16 code units; the larger is ten times it. */
  readonly small: number;
  /** t(large) / t(small) above this is super-linear (linear is about 10). */
  readonly maxRatio: number;
  /**
   * Time allowed on top of the ratio, as noise: `floorMs`, plus `nsPerUnit` for each code unit
   * and `nsPerMatch` for each match. A regex's speed per character changes with the size of its
   * input (a 100 KB text stays in the CPU's caches, a 1 MB one does not) and with the machine's
   * load, and each match costs a call: measured, a regex matching at every character took up to
   * 80× longer on ten times the text. A quadratic scan of a 1 MB text takes minutes, and the
   * shapes that make a regex backtrack hold few matches: both far above the allowance.
   */
  readonly floorMs: number;
  readonly nsPerUnit: number;
  readonly nsPerMatch: number;
  /** How many shapes derived from each regex are timed (the hand shapes come on top). */
  readonly derivedShapes: number;
  /**
   * One hand shape in this many is timed against each regex, a different one for each regex:
   * the hand shapes are the same generic hostile texts for every regex, so the default suite
   * spreads them over the regexes, and `npm run fuzz` times every one against every regex.
   */
  readonly handShapeShare: number;
}

/** The sizes the default suite uses; `npm run fuzz` raises them to 1 MB against 10 MB. */
export function growthLimits(env: NodeJS.ProcessEnv = process.env): GrowthLimits {
  const small = Number(env.LOOPGATE_GROWTH_SMALL ?? "");
  const long = Number.isSafeInteger(small) && small > 0;
  return {
    small: long ? small : 20_000,
    // The default suite's slice: 16 derived shapes a regex; npm run fuzz times 96 at ten times
    // the size.
    derivedShapes: long ? 96 : 16,
    // 38 hand shapes against each of 744 regexes were three quarters of the measurements (211 s
    // of a loaded run); a quarter of them each keeps every hand shape timed on 186 regexes.
    handShapeShare: long ? 1 : 4,
    maxRatio: 20,
    floorMs: 40,
    nsPerUnit: 200,
    nsPerMatch: 2_000,
  };
}

/** One shape's measurement: both times, or why there are none. */
export interface Growth {
  readonly shape: string;
  readonly smallMs: number;
  readonly largeMs: number;
  /** Null when the scans grew as linear work does; else what went wrong, in words. */
  readonly problem: string | null;
}

type Reply = { ms: number; matches: number } | { error: string } | { timedOut: true };

/**
 * One worker thread that times regular expressions; a scan past its deadline is ended by
 * terminating the worker, and a fresh one takes over.
 */
export class ScanTimer {
  private worker: Worker | undefined;
  private next = 0;

  private start(): Worker {
    this.worker ??= new Worker(new URL("./scan-worker.mjs", import.meta.url));
    return this.worker;
  }

  /**
   * The best of `repeats` scans of `text`, timed in the worker; the worker is ended when no reply
   * came well after `deadlineMs` (the slack covers handing the text over and waking the worker).
   */
  time(regex: RegExp, text: string, repeats: number, deadlineMs: number): Promise<Reply> {
    const worker = this.start();
    const id = (this.next += 1);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        worker.off("message", onMessage);
        this.worker = undefined;
        void worker.terminate();
        resolve({ timedOut: true });
      }, deadlineMs + 1_000);
      const onMessage = (reply: { id: number } & Reply) => {
        if (reply.id !== id) return;
        clearTimeout(timer);
        worker.off("message", onMessage);
        resolve(reply);
      };
      worker.on("message", onMessage);
      worker.postMessage({ id, source: regex.source, flags: regex.flags, text, repeats });
    });
  }

  /** Ends the worker. */
  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}

const thousands = (length: number) => `${Math.round(length / 1000)} K`;

/** The longest a scan of `length` code units with `matches` matches may take after one of `before` ms. */
function deadlineOf(limits: GrowthLimits, before: number, length: number, matches: number): number {
  const noise = limits.floorMs + (length * limits.nsPerUnit + matches * limits.nsPerMatch) / 1e6;
  return limits.maxRatio * before + noise;
}

/**
 * Times a regex over a shape at `small` and at ten times `small`: the larger may take at most
 * `maxRatio` times the smaller (plus the noise allowance), else the scan is ended there and
 * reported, so a quadratic pattern costs seconds, not hours; the smaller has 30 s.
 */
export async function regexGrowth(
  timer: ScanTimer,
  regex: RegExp,
  shape: Shape,
  limits: GrowthLimits,
): Promise<Growth> {
  const lengths = [limits.small, limits.small * 10];
  const times: number[] = [];
  for (const [step, length] of lengths.entries()) {
    const before = times.at(-1);
    const inTime = (reply: Reply): reply is { ms: number; matches: number } =>
      "ms" in reply &&
      (before === undefined || reply.ms <= deadlineOf(limits, before, length, reply.matches));
    // The worker is ended past the deadline a text of nothing but matches would have.
    const cutoff = before === undefined ? 30_000 : deadlineOf(limits, before, length, length);
    // Scans are timed by the wall clock on a shared machine: the smaller keeps its best of
    // three, and the larger is timed up to twice more when it looks too slow, so that a pause
    // of the machine is not taken for the regex.
    const last = step === lengths.length - 1;
    const text = textOf(shape, length);
    let reply = await timer.time(regex, text, last ? 1 : 3, cutoff);
    for (let retry = 0; last && retry < 2 && !inTime(reply); retry += 1) {
      if ("error" in reply) break;
      reply = await timer.time(regex, text, 1, cutoff);
    }
    const matches = "ms" in reply ? reply.matches : 0;
    if (!inTime(reply)) {
      const smallMs = times[0] ?? 0;
      const allowed = deadlineOf(limits, before ?? 0, length, matches);
      const problem =
        "error" in reply
          ? `${reply.error} at ${thousands(length)}`
          : `${thousands(length)} took over ${Math.round(allowed)} ms, ${limits.maxRatio}× the ${(before ?? 0).toFixed(1)} ms of ${thousands(lengths[step - 1] ?? 0)}`;
      return { shape: shape.name, smallMs, largeMs: Number.NaN, problem };
    }
    times.push(reply.ms);
  }
  return { shape: shape.name, smallMs: times[0] ?? 0, largeMs: times[1] ?? 0, problem: null };
}
