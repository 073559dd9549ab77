import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AwaitAnswer } from "../../core/loop/loop-effect.js";
import type { TaskSummary } from "../../core/loop/run-summary.js";
import { redact } from "../../core/redaction/redaction.js";
import { redactStrings } from "../../core/redaction/redact-strings.js";
import { toWire } from "../../wire/codec.js";
import type { NotificationSpec } from "../../wire/task-file.js";
import type { LoadedRun } from "../load-run.js";
import { deliverCommand } from "./deliver-command.js";
import { deliverWebhook, type Delivery } from "./deliver-webhook.js";
import type { StoreName } from "./store-name.js";

/** A delivery attempt's time limit when the task file sets none. */
export const DEFAULT_NOTIFY_TIMEOUT_MS = 10_000;
/** Webhook attempts after the first when the task file sets none. */
export const DEFAULT_NOTIFY_RETRIES = 2;

/** What a notification is about. */
type NotificationEvent = "pause" | "finish";

/** Where the run's notifications go, as the loaded run gives them. */
interface Targets {
  readonly runId: number;
  readonly runDir: string;
  readonly baseDir: string;
  readonly onPause?: NotificationSpec;
  readonly onFinish?: NotificationSpec;
}

/**
 * Tells the task file's `on_pause` and `on_finish` targets what happened: the notification is
 * redacted JSON, written to a file for a command and POSTed to a webhook. Deliveries run beside
 * the run and never change it: a failed one is reported through `warn`, and `settled` waits for
 * every delivery still under way before the process may exit.
 */
export class Notifier {
  private targets: Targets | undefined;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    /** The run's store, so a receiver can name it to `loopgate answer`. */
    private readonly store: StoreName,
    private readonly warn: (line: string) => void,
  ) {}

  /** Takes the targets from the run as loaded (its secrets restored). */
  configure(loaded: LoadedRun): void {
    this.targets = {
      runId: loaded.run.id,
      runDir: loaded.runDir,
      baseDir: loaded.run.baseDir,
      ...(loaded.file.onPause === undefined ? {} : { onPause: loaded.file.onPause }),
      ...(loaded.file.onFinish === undefined ? {} : { onFinish: loaded.file.onFinish }),
    };
  }

  /** A task waits for a human. */
  paused(effect: AwaitAnswer): void {
    const targets = this.targets;
    if (targets?.onPause === undefined) return;
    const decision = effect.decision;
    this.send("pause", `pause-${effect.taskId}-${effect.iteration}`, targets.onPause, {
      event: "pause",
      run: targets.runId,
      journal: this.store.journal,
      taskId: effect.taskId,
      iteration: effect.iteration,
      reason: decision.reason,
      question: decision.action === "escalate" ? decision.question : decision.message,
      options: effect.options,
      answerWith: `loopgate answer ${effect.taskId} ${this.store.answerOption} --option N | --text "…" | --approve | --abort`,
      decision,
    });
  }

  /** The run finished: every task proceeded or was aborted. */
  finished(tasks: readonly TaskSummary[]): void {
    const targets = this.targets;
    if (targets?.onFinish === undefined) return;
    this.send("finish", "finish", targets.onFinish, {
      event: "finish",
      run: targets.runId,
      journal: this.store.journal,
      status: "finished",
      tasks,
    });
  }

  /** Resolves once every delivery started so far has ended, delivered or not. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  /** `name` names the command's file: one per pause (a pause told again overwrites its own). */
  private send(
    event: NotificationEvent,
    name: string,
    spec: NotificationSpec,
    notification: object,
  ): void {
    const targets = this.targets;
    if (targets === undefined) return;
    const body = `${JSON.stringify(redactStrings(toWire(notification)), null, 2)}\n`;
    const timeoutMs = spec.timeoutMs ?? DEFAULT_NOTIFY_TIMEOUT_MS;
    const deliveries: Promise<void>[] = [];
    const setting = `on_${event}`;
    if (spec.command !== undefined) {
      const dir = join(targets.runDir, "notifications");
      const file = join(dir, `${name}.json`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, body);
      deliveries.push(
        this.report(
          `${setting} command`,
          deliverCommand(spec.command, { file, event }, { cwd: targets.baseDir, timeoutMs }),
        ),
      );
    }
    if (spec.webhook !== undefined) {
      deliveries.push(
        this.report(
          `${setting} webhook ${redact(spec.webhook)}`,
          deliverWebhook(spec.webhook, body, {
            timeoutMs,
            retries: spec.retries ?? DEFAULT_NOTIFY_RETRIES,
          }),
        ),
      );
    }
    for (const delivery of deliveries) {
      this.pending.add(delivery);
      void delivery.finally(() => this.pending.delete(delivery));
    }
  }

  private async report(what: string, delivery: Promise<Delivery>): Promise<void> {
    try {
      const result = await delivery;
      if (result.delivered) return;
      const tries = result.attempts === 1 ? "" : ` after ${result.attempts} attempts`;
      this.warn(`${what} not delivered${tries}: ${redact(result.why)}`);
    } catch (error) {
      this.warn(
        `${what} not delivered: ${redact(error instanceof Error ? error.message : String(error))}`,
      );
    }
  }
}
