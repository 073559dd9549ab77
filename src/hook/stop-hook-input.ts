import * as v from "valibot";
import { decodeDocument } from "../wire/decode-document.js";
import { flag, name, text } from "../wire/fields.js";
import { InputError } from "../wire/input-error.js";

/** What Claude Code and Codex hand a Stop hook on stdin, camelCased (see docs/hooks.md). */
export interface StopHookInput {
  readonly sessionId: string;
  readonly cwd: string;
  readonly hookEventName: "Stop";
  /** The agent says it is already continuing because of a stop hook; loopgate counts its own blocks instead. */
  readonly stopHookActive: boolean;
  readonly transcriptPath: string | null;
  /** The agent's final text of the turn; null or absent when the agent gave none. */
  readonly lastAssistantMessage: string | null;
}

const nullableText = v.optional(v.nullable(text), null);

// Loose on purpose: the agents add fields over time (permission_mode, model, turn_id); only the
// fields loopgate reads are checked, each strictly.
const stopHookInputSchema = v.pipe(
  v.custom<Record<string, unknown>>(
    (input) => typeof input === "object" && input !== null && !Array.isArray(input),
    "expected the Stop hook's JSON object",
  ),
  v.looseObject(
    {
      session_id: name,
      cwd: v.pipe(
        name,
        v.check((path) => path.startsWith("/"), "expected an absolute path"),
      ),
      hook_event_name: v.literal("Stop", 'expected "Stop" (loopgate hook stop answers Stop only)'),
      stop_hook_active: v.optional(flag, false),
      transcript_path: nullableText,
      last_assistant_message: nullableText,
    },
    "expected the Stop hook's JSON object",
  ),
);

/** Reads the Stop hook's stdin document; unknown fields are left alone, known ones checked. */
export function decodeStopHookInput(document: unknown): StopHookInput {
  const decoded = decodeDocument(stopHookInputSchema, document) as StopHookInput &
    Record<string, unknown>;
  if (decoded.sessionId.includes("\u0000")) {
    throw new InputError("session_id", "expected no NUL byte");
  }
  return {
    sessionId: decoded.sessionId,
    cwd: decoded.cwd,
    hookEventName: decoded.hookEventName,
    stopHookActive: decoded.stopHookActive,
    transcriptPath: decoded.transcriptPath,
    lastAssistantMessage: decoded.lastAssistantMessage,
  };
}
