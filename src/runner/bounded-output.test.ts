import { describe, expect, it } from "vitest";
import { BoundedOutput } from "./bounded-output.js";

describe("BoundedOutput", () => {
  it("keeps everything under the limit", () => {
    const output = new BoundedOutput(1024);
    output.write(Buffer.from("hello "));
    output.write(Buffer.from("world"));
    expect(output.text()).toBe("hello world");
  });

  it("keeps the head and the tail of a flood, and says how much it left out", () => {
    const output = new BoundedOutput(1024);
    output.write(Buffer.from("HEAD"));
    const chunk = Buffer.alloc(64 * 1024, "x");
    for (let index = 0; index < 1600; index++) output.write(chunk); // 100 MiB
    output.write(Buffer.from("TAIL"));
    const text = output.text();
    expect(text.startsWith("HEAD")).toBe(true);
    expect(text.endsWith("TAIL")).toBe(true);
    expect(text).toMatch(/left out \d+ bytes/);
    expect(text.length).toBeLessThan(1024 + 100);
  });
});
