import * as crypto from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { LoopgateError } from "../core/errors.js";
import type { Attempt } from "../core/iteration-check.js";
import { isRecord, type JsonRecord } from "../core/json-record.js";
import type { DecisionRecorded, LoopEvent } from "../core/loop/loop-event.js";
import { fromWire, toWire } from "../wire/codec.js";
import { JournalError } from "./journal-error.js";

/**
 * Texts this long or longer (in UTF-16 units) are stored once, as a blob named by their
 * SHA-256, and events refer to them: a step's output is stored once however many decisions read it.
 */
export const BLOB_MIN_CHARS = 512;

/** The key of a reference to a blob, `{"$blob": "<sha256>"}`, in a packed body. */
const BLOB_KEY = "$blob";
/** The key of a reference to an earlier decision's history, in a packed decision's input. */
const HISTORY_KEY = "$history";

/**
 * Node's one-shot hash (20.12 on), four to five times faster than a Hash object on the few
 * hundred bytes of a task summary, whose checksum `status` checks for every task; a Hash object
 * on older Nodes.
 */
const oneShot: typeof crypto.hash | undefined =
  typeof crypto.hash === "function" ? crypto.hash : undefined;

/** SHA-256 of a text's UTF-8 bytes, in hex. */
export function sha256(text: string): string {
  return oneShot === undefined
    ? crypto.createHash("sha256").update(text, "utf8").digest("hex")
    : oneShot("sha256", text, "hex");
}

/** An event as stored: its body (JSON, with references) and the blobs it refers to. */
export interface PackedEvent {
  readonly body: string;
  /** Hash → text, for every blob the body refers to. */
  readonly blobs: ReadonlyMap<string, string>;
}

/** The latest decision journaled for a task: a later decision's history may extend its history. */
export interface HistoryBase {
  /** Where that decision is in the journal (its sequence number). */
  readonly seq: number;
  readonly history: readonly Attempt[];
}

/** Why a stored event cannot be read back. */
function damaged(why: string): JournalError {
  return new JournalError("JOURNAL_DAMAGED", why);
}

/** The history of a decision's input; absent for other events. */
function historyOf(event: LoopEvent): readonly Attempt[] | undefined {
  return event.type === "decision-recorded" ? event.input.iterationCheck.history : undefined;
}

/** Whether `base` is where `history` starts: equal attempts, the same objects in a running loop. */
function extendsBase(history: readonly Attempt[], base: readonly Attempt[]): boolean {
  return (
    base.length <= history.length &&
    base.every((attempt, index) => {
      const same = history[index];
      return same === attempt || isDeepStrictEqual(same, attempt);
    })
  );
}

/** Replaces every long string in a wire value by a blob reference, collecting the blobs. */
function withBlobs(value: unknown, blobs: Map<string, string>): unknown {
  if (typeof value === "string") {
    if (value.length < BLOB_MIN_CHARS) return value;
    const hash = sha256(value);
    blobs.set(hash, value);
    return { [BLOB_KEY]: hash };
  }
  if (Array.isArray(value)) return value.map((item) => withBlobs(item, blobs));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // Events have fixed field names; a "$" key would be read back as a reference.
    if (key.startsWith("$")) throw new LoopgateError("INVALID_EVENT", `event field ${key}`);
    out[key] = withBlobs(inner, blobs);
  }
  return out;
}

/**
 * Packs an event for storage: long texts become blob references, and a decision whose history
 * extends `base` (the task's previous decision) stores only the attempts after it. So each step's
 * output is stored once and a decision costs the same at attempt 50 as at attempt 2.
 */
export function packEvent(event: LoopEvent, base?: HistoryBase): PackedEvent {
  const blobs = new Map<string, string>();
  const history = historyOf(event);
  if (
    event.type !== "decision-recorded" ||
    base === undefined ||
    history === undefined ||
    !extendsBase(history, base.history)
  ) {
    return { body: JSON.stringify(withBlobs(toWire(event), blobs)), blobs };
  }
  // The attempts `base` holds are neither copied nor hashed again: only those after them are.
  const check = event.input.iterationCheck;
  const rest = { ...event, input: { ...event.input, iterationCheck: { ...check, history: [] } } };
  const wire = withBlobs(toWire(rest), blobs) as { input: { iteration_check: JsonRecord } };
  const then = withBlobs(toWire(history.slice(base.history.length)), blobs);
  (wire.input.iteration_check as Record<string, unknown>).history = {
    [HISTORY_KEY]: { after: base.seq, then },
  };
  return { body: JSON.stringify(wire), blobs };
}

/** Where a reader finds what a packed body refers to. */
export interface PackedSources {
  /** The text of a blob; throws a JournalError when it is missing or damaged. */
  readonly blob: (hash: string) => string;
  /** The full history of the decision at `seq`, of the same run and task. */
  readonly history: (seq: number, event: DecisionRecorded) => readonly Attempt[];
}

/** Puts the blobs a packed wire value refers to back in place. */
function resolveBlobs(value: unknown, blob: (hash: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveBlobs(item, blob));
  if (!isRecord(value)) return value;
  const hash = value[BLOB_KEY];
  if (hash !== undefined) {
    if (typeof hash !== "string" || Object.keys(value).length !== 1) {
      throw damaged("a blob reference is malformed");
    }
    return blob(hash);
  }
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = resolveBlobs(inner, blob);
  return out;
}

/** A decision's history as stored: in full, or the attempts after an earlier decision's. */
type StoredHistory =
  | { readonly full: readonly Attempt[] | undefined }
  | { readonly after: number; readonly then: readonly Attempt[] };

function storedHistory(value: unknown): StoredHistory {
  if (!isRecord(value)) return { full: value as readonly Attempt[] | undefined };
  const reference = value[HISTORY_KEY];
  if (
    !isRecord(reference) ||
    !Number.isSafeInteger(reference.after) ||
    !Array.isArray(reference.then)
  ) {
    throw damaged("the decision's history reference is malformed");
  }
  return { after: reference.after as number, then: reference.then as Attempt[] };
}

/**
 * Reads a packed body back into the event exactly as it was journaled: blobs in place, and a
 * decision's history rebuilt from the decision it extends. Throws a JournalError (JOURNAL_DAMAGED) when the body
 * is not JSON or a reference cannot be followed.
 */
export function unpackEvent(body: string, sources: PackedSources): LoopEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw damaged("its body is not JSON");
  }
  const event = fromWire(resolveBlobs(parsed, sources.blob)) as LoopEvent;
  if (event.type !== "decision-recorded") return event;
  const check = event.input.iterationCheck;
  const stored = storedHistory(check.history);
  if ("full" in stored) return event;
  const history = [...sources.history(stored.after, event), ...stored.then];
  return { ...event, input: { ...event.input, iterationCheck: { ...check, history } } };
}
