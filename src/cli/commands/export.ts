import { runOption } from "../../runner/pick-run.js";
import { openRunStore } from "../../runner/store/open-run-store.js";
import { toWire } from "../../wire/codec.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { storeHelp, STORE_OPTIONS } from "../store-options.js";
import { SkippedRuns } from "../skipped-runs.js";
import { UsageError } from "../usage-error.js";

/** `loopgate export --jsonl`: the journal as JSON lines, for audits and other tools. */
export const exportCommand: Command = {
  help: `Usage: loopgate export --jsonl [--run ID] [--store URL | --db PATH]

Prints every journaled event, oldest first, one JSON object per line:
{seq, run_id, at, type, effect_id, task_id, iteration, …, meta}. Decisions carry
their complete input; step results their (bounded, redacted) output.

Options:
  --jsonl     JSON lines (the only format)
  --run ID    only this run
${storeHelp(14)}

A damaged event is left out and named on stderr; the others are printed.

Exit codes: 0 printed, 2 invalid arguments or no journal, 5 damaged events left
out (see loopgate doctor), 1 internal error.
`,
  async run({ args, stdout, stderr }) {
    const { values } = parseOptions(
      "export",
      args,
      { jsonl: { type: "boolean" }, run: { type: "string" }, ...STORE_OPTIONS },
      0,
    );
    if (values.jsonl !== true) throw new UsageError("export: give --jsonl (the only format)");
    const run = runOption(values.run);
    const store = await openRunStore("export", values, "read");
    try {
      const journal = await store.read({ run, all: true });
      const skipped = new SkippedRuns(stderr);
      for (const read of journal.readEvents(run)) {
        if (!read.ok) {
          skipped.skip(read.error);
          continue;
        }
        const entry = read.entry;
        stdout(
          `${JSON.stringify({ seq: entry.seq, run_id: entry.runId, at: entry.at, ...(toWire(entry.event) as object), meta: entry.meta })}\n`,
        );
      }
      return skipped.exitCode();
    } finally {
      await store.close();
    }
  },
};
