/** Default bytes kept of a step's output: the first half and the last half of this. */
export const DEFAULT_OUTPUT_LIMIT = 1024 * 1024;

/**
 * Keeps the head and the tail of a stream within `limit` bytes, whatever it prints: the head
 * says what the run was, the tail says how it ended, and memory stays bounded by the limit.
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

  /** Adds a chunk; bytes beyond the head go to the tail, whose oldest bytes are dropped. */
  write(chunk: Buffer): void {
    const half = Math.floor(this.limit / 2);
    let rest = chunk;
    if (this.headBytes < half) {
      const taken = rest.subarray(0, half - this.headBytes);
      this.head.push(taken);
      this.headBytes += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    const room = this.limit - half;
    if (this.tailBytes > room * 2) this.trimTail(room);
  }

  /** Keeps the last `room` bytes of the tail; done in batches so each byte is copied O(1) times. */
  private trimTail(room: number): void {
    const joined = Buffer.concat(this.tail);
    const kept = joined.subarray(joined.length - room);
    this.dropped += joined.length - kept.length;
    this.tail = [Buffer.from(kept)];
    this.tailBytes = kept.length;
  }

  /** The kept text; a marker says how many bytes were left out in the middle. */
  text(): string {
    const room = this.limit - Math.floor(this.limit / 2);
    if (this.tailBytes > room) this.trimTail(room);
    const head = Buffer.concat(this.head).toString("utf8");
    const tail = Buffer.concat(this.tail).toString("utf8");
    if (this.dropped === 0) return head + tail;
    return `${head}\n[… loopgate left out ${this.dropped} bytes of ${this.what} …]\n${tail}`;
  }
}
