import { MAX_PRIVATE_KEY_LENGTH } from "../core/redaction/private-keys.js";
import { redactedHead, redactedTail } from "../core/redaction/redacted-cut.js";
import { redact } from "../core/redaction/redaction.js";

/** Default bytes kept of a step's output: the first half and the last half of this. */
export const DEFAULT_OUTPUT_LIMIT = 1024 * 1024;

/**
 * Bytes read past each side of the cut: a secret across it is redacted whole, never kept in
 * part. At least the longest secret loopgate recognises (a private key block).
 */
const MARGIN = MAX_PRIVATE_KEY_LENGTH + 4096;

/** The code-unit index of byte `offset` of `bytes` once decoded, moved back to a character start. */
function charIndex(bytes: Buffer, offset: number): number {
  let at = Math.max(0, Math.min(offset, bytes.length));
  while (at > 0 && at < bytes.length && ((bytes[at] ?? 0) & 0xc0) === 0x80) at -= 1;
  return bytes.subarray(0, at).toString("utf8").length;
}

/**
 * Keeps the head and the tail of a stream within `limit` bytes, whatever it prints: the head
 * says what the run was, the tail says how it ended, and memory stays bounded by the limit.
 * The text it gives is redacted, and redacted before it is cut: a secret the cut would split
 * is redacted whole on the side it starts (head) or ends (tail).
 */
export class BoundedOutput {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;

  constructor(
    private readonly limit: number = DEFAULT_OUTPUT_LIMIT,
    /** What the kept text is, for the marker: `output`, or a report line's field (`diff`). */
    private readonly what = "output",
  ) {}

  private get half(): number {
    return Math.floor(this.limit / 2);
  }

  /** Bytes the tail keeps: its share of the limit and the margin before it. */
  private get room(): number {
    return this.limit - this.half + MARGIN;
  }

  /** Adds a chunk; bytes beyond the head go to the tail, whose oldest bytes are dropped. */
  write(chunk: Buffer): void {
    const headRoom = this.half + MARGIN;
    let rest = chunk;
    if (this.headBytes < headRoom) {
      const taken = rest.subarray(0, headRoom - this.headBytes);
      this.head.push(taken);
      this.headBytes += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    if (this.tailBytes > this.room * 2) this.trimTail();
  }

  /** Keeps the last `room` bytes of the tail; done in batches so each byte is copied O(1) times. */
  private trimTail(): void {
    const joined = Buffer.concat(this.tail);
    const kept = joined.subarray(Math.max(0, joined.length - this.room));
    this.dropped += joined.length - kept.length;
    this.tail = [Buffer.from(kept)];
    this.tailBytes = kept.length;
  }

  /** The kept text, redacted; a marker says how many bytes were left out in the middle. */
  text(): string {
    if (this.tailBytes > this.room) this.trimTail();
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    const total = head.length + tail.length + this.dropped;
    if (total <= this.limit) return redact(Buffer.concat([head, tail]).toString("utf8"));
    // Nothing dropped yet: head and tail are one text, cut twice.
    const [before, after] = this.dropped === 0 ? [Buffer.concat([head, tail]), null] : [head, tail];
    const beforeText = before.toString("utf8");
    const kept = redactedHead(beforeText, charIndex(before, this.half));
    const afterBytes = after ?? before;
    const afterText = after === null ? beforeText : after.toString("utf8");
    const tailCut = charIndex(afterBytes, afterBytes.length - (this.limit - this.half));
    const ending = redactedTail(afterText, tailCut);
    if (after === null && ending.cut <= kept.cut) return redact(beforeText);
    const keptBytes =
      Buffer.byteLength(beforeText.slice(0, kept.cut)) +
      Buffer.byteLength(afterText.slice(ending.cut));
    return `${kept.text}\n[… loopgate left out ${total - keptBytes} bytes of ${this.what} …]\n${ending.text}`;
  }
}
