import { defineCondition, fired, held } from "./condition.js";
import { Precedence } from "./precedence.js";

/** A human decision stops the loop regardless of every other condition. */
export const approvalGate = defineCondition(
  "APPROVAL_GATE",
  Precedence.APPROVAL_GATE,
  ({ counters }) => {
    const approval = counters.approval ?? null;
    if (approval === null) return held("no approval recorded");
    const by = approval.by === undefined || approval.by === "" ? "" : ` by ${approval.by}`;
    const note = approval.note === undefined || approval.note === "" ? "" : `: ${approval.note}`;
    return fired(`approval ${approval.decision}${by}${note}`);
  },
);
