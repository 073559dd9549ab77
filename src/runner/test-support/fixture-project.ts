import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
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
  /** Every step's start and end, in the order they happened: `a generate 1 start`. */
  readonly trace: () => string[];
}

/** A step's command that appends its start and end (whatever its exit) to the trace file. */
function traced(command: string, trace: string): string {
  const mark = (at: string) =>
    `echo "$LOOPGATE_TASK_ID $LOOPGATE_STEP $LOOPGATE_ITERATION ${at}" >> '${trace}'`;
  return `${mark("start")}; (${command}); code=$?; ${mark("end")}; exit $code`;
}

/**
 * A project whose steps are tiny shell commands: the test passes from attempt `passFrom`
 * (counting the attempts after an answer too) and at once for a task named `quick`; the review
 * approves with a JSON verdict. `generateDelay` (seconds) slows the generate step down. With
 * `meet: N`, each task's first generate step waits (20 s at most) until N tasks' first generate
 * steps have begun: they can only all end in time if they run at once.
 */
export function fixtureProject(
  options: {
    passFrom?: number;
    tasks?: readonly string[];
    generateDelay?: number;
    meet?: number;
  } = {},
): Fixture {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-fixture-"));
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const trace = join(dir, "trace.log");
  const passFrom = options.passFrom ?? 4;
  const delay = options.generateDelay ? `sleep ${options.generateDelay}; ` : "";
  const meet =
    options.meet === undefined
      ? ""
      : `if [ "$LOOPGATE_ITERATION" = 1 ]; then touch '${dir}/met-'"$LOOPGATE_TASK_ID"; i=0; while [ "$(ls '${dir}' | grep -c '^met-')" -lt ${options.meet} ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; fi; `;
  const document = {
    iteration_control: { max_iterations: 3 },
    steps: {
      generate: {
        command: traced(
          meet +
            delay +
            'echo "generating $LOOPGATE_TASK_ID #$LOOPGATE_ITERATION"; echo \'{"spend": 0.25, "tokens": 10}\' >> "$LOOPGATE_REPORT_FILE"',
          trace,
        ),
      },
      test: {
        command: traced(
          `if [ "$LOOPGATE_ITERATION" -ge ${passFrom} ] || [ "$LOOPGATE_TASK_ID" = quick ]; then echo ok; else printf 'FAIL src/login.test.ts\\nExpected: token to contain userId\\nReceived: undefined\\n'; exit 1; fi`,
          trace,
        ),
      },
      review: {
        command: ["sh", "-c", traced('echo \'{"status": "approve", "feedback": ""}\'', trace)],
      },
    },
    tasks: (options.tasks ?? ["task-1"]).map((id) => ({ id, prompt: `do ${id}` })),
  };
  return {
    dir,
    taskFile: write("loopgate.yaml", stringify(document)),
    db: join(dir, ".loopgate", "journal.db"),
    write,
    trace: () => {
      try {
        return readFileSync(trace, "utf8").trim().split("\n").filter(Boolean);
      } catch {
        return [];
      }
    },
  };
}
