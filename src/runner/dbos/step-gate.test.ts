import { describe, expect, it } from "vitest";
import { StepGate } from "./step-gate.js";

/** Whether `promise` settled within a few turns of the event loop. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("StepGate", () => {
  it("gives `size` places at once and the next one when a place is released", async () => {
    const gate = new StepGate(2);
    const first = await gate.take();
    await gate.take();
    const third = gate.take();
    expect(await settled(third)).toBe(false);
    first.release();
    expect(await settled(third)).toBe(true);
  });

  it("once closed, parks whoever waits for a place or asks for one, and is quiet when nothing is busy", async () => {
    const gate = new StepGate(1);
    gate.enter();
    gate.enter();
    const held = await gate.take();
    const waiting = gate.take();
    gate.close();
    expect(gate.isClosed).toBe(true);
    expect(await settled(waiting)).toBe(false);
    expect(await settled(gate.quiet(10_000))).toBe(false);
    held.release();
    // The waiter parked (never settles) and left; the holder's workflow leaves too.
    gate.leave();
    expect(await gate.quiet(10_000)).toBe(true);
    expect(await settled(gate.take())).toBe(false);
  });

  it("says it is not quiet after the timeout while a workflow is busy, and cuts off the steps running", async () => {
    const gate = new StepGate(1);
    gate.enter();
    const place = await gate.take();
    expect(await gate.quiet(20)).toBe(false);
    expect(place.cut()).toBe(false);
    expect(gate.cutOff()).toBe(1);
    expect(place.cut()).toBe(true);
  });
});
