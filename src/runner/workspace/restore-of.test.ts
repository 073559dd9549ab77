import { describe, expect, it } from "vitest";
import type { QuestionOption } from "../../core/loop/answer.js";
import { restoreOf, withOptionRestore } from "./restore-of.js";

const options: QuestionOption[] = [
  { id: 1, label: "Continue with guidance", effect: "continue" },
  { id: 3, label: "Restore attempt 2 and continue", effect: "continue", restore: 2 },
];

describe("the restore an answer asks for", () => {
  it("writes a restore option's attempt into the answer, so the journaled answer alone says it", () => {
    const picked = withOptionRestore({ kind: "option", option: 3, by: "ann" }, options);
    expect(picked).toEqual({ kind: "option", option: 3, by: "ann", restore: 2 });
    expect(restoreOf(picked)).toBe(2);
  });

  it("leaves other answers as they are", () => {
    const plain = { kind: "option", option: 1 } as const;
    expect(withOptionRestore(plain, options)).toBe(plain);
    expect(restoreOf({ kind: "approve" })).toBeUndefined();
    expect(restoreOf({ kind: "abort", restore: 4 })).toBe(4);
    expect(restoreOf({ kind: "text", text: "go on" })).toBeUndefined();
  });
});
