import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";

/** A temporary project with a task file; `db` is where its journal goes. */
export interface Fixture {
  readonly dir: string;
  readonly taskFile: string;
  readonly db: string;
  /** Writes a file into the project. */
  readonly write: (name: string, text: string) => string;
}

/**
 * A project whose steps are tiny shell commands: the test passes from attempt `passFrom`
 * (counting the attempts after an answer too) and at once for a task named `quick`; the review
 * approves with a JSON verdict. `generateDelay` (seconds) slows the generate step down.
 */
export function fixtureProject(
  options: { passFrom?: number; tasks?: readonly string[]; generateDelay?: number } = {},
): Fixture {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-fixture-"));
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const passFrom = options.passFrom ?? 4;
  const delay = options.generateDelay ? `sleep ${options.generateDelay}; ` : "";
  const document = {
    iteration_control: { max_iterations: 3 },
    steps: {
      generate: {
        command:
          delay +
          'echo "generating $LOOPGATE_TASK_ID #$LOOPGATE_ITERATION"; echo \'{"spend": 0.25, "tokens": 10}\' >> "$LOOPGATE_REPORT_FILE"',
      },
      test: {
        command: `if [ "$LOOPGATE_ITERATION" -ge ${passFrom} ] || [ "$LOOPGATE_TASK_ID" = quick ]; then echo ok; else printf 'FAIL src/login.test.ts\\nExpected: token to contain userId\\nReceived: undefined\\n'; exit 1; fi`,
      },
      review: { command: ["sh", "-c", 'echo \'{"status": "approve", "feedback": ""}\''] },
    },
    tasks: (options.tasks ?? ["task-1"]).map((id) => ({ id, prompt: `do ${id}` })),
  };
  return {
    dir,
    taskFile: write("loopgate.yaml", stringify(document)),
    db: join(dir, ".loopgate", "journal.db"),
    write,
  };
}
