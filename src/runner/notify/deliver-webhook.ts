import { setTimeout as sleep } from "node:timers/promises";

/** How a delivery went: delivered, or why not after every attempt it was allowed. */
export type Delivery =
  | { readonly delivered: true; readonly attempts: number }
  | { readonly delivered: false; readonly attempts: number; readonly why: string };

/** Wait before the first retry; each later retry waits twice as long, up to MAX_BACKOFF_MS. */
export const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/** How one POST went: a status that may pass if tried again is worth a retry, others are not. */
type Answer =
  { readonly ok: true } | { readonly ok: false; readonly why: string; readonly retry: boolean };

async function postOnce(url: string, body: string, timeoutMs: number): Promise<Answer> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "loopgate" },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Read to the end so that the connection is free; what the receiver says is not used.
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok) return { ok: true };
    const retry = response.status >= 500 || response.status === 408 || response.status === 429;
    return { ok: false, why: `HTTP ${response.status}`, retry };
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    const why =
      name === "TimeoutError"
        ? `no answer within ${timeoutMs} ms`
        : error instanceof Error
          ? ((error.cause as Error | undefined)?.message ?? error.message)
          : String(error);
    return { ok: false, why, retry: true };
  }
}

/**
 * POSTs `body` (JSON) to `url`: up to `retries` more times after a network error, a timeout or
 * a 5xx/408/429, waiting FIRST_BACKOFF_MS, then twice as long each time. Never throws.
 */
export async function deliverWebhook(
  url: string,
  body: string,
  options: { readonly timeoutMs: number; readonly retries: number },
): Promise<Delivery> {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await postOnce(url, body, options.timeoutMs);
    if (answer.ok) return { delivered: true, attempts: attempt };
    if (!answer.retry || attempt > options.retries) {
      return { delivered: false, attempts: attempt, why: answer.why };
    }
    await sleep(Math.min(FIRST_BACKOFF_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS));
  }
}
