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

const TOKEN = "ghp_1234567890abcdefghijABCDEFGHIJ123456";
const pieces = (secret: string) =>
  Array.from({ length: secret.length - 7 }, (_, start) => secret.slice(start, start + 8));

/** What a BoundedOutput of `limit` keeps of `text`, written in chunks of `chunk` bytes. */
function kept(text: string, limit: number, chunk = 4096): string {
  const output = new BoundedOutput(limit);
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunk) output.write(bytes.subarray(at, at + chunk));
  return output.text();
}

describe("BoundedOutput: redaction before the cut", () => {
  const limit = 1024;
  const flood = (length: number) => "log line\n".repeat(Math.ceil(length / 9)).slice(0, length);

  it("never keeps part of a secret the head's cut falls in", () => {
    for (let offset = 1; offset < TOKEN.length; offset += 1) {
      const text = `${flood(limit / 2 - offset - 1)} ${TOKEN}\n${flood(200_000)}END`;
      const result = kept(text, limit);
      expect(result).toContain("[REDACTED:github_token]");
      for (const piece of pieces(TOKEN)) expect(result).not.toContain(piece);
      expect(result).toMatch(/left out \d+ bytes/);
      expect(result.endsWith("END")).toBe(true);
    }
  });

  it("never keeps part of a secret the tail's cut falls in", () => {
    for (let offset = 1; offset < TOKEN.length; offset += 1) {
      const text = `START${flood(200_000)} ${TOKEN}\n${flood(limit / 2 - (TOKEN.length - offset) - 1)}`;
      const result = kept(text, limit);
      for (const piece of pieces(TOKEN)) expect(result).not.toContain(piece);
      expect(result.startsWith("START")).toBe(true);
    }
  });

  it("redacts a whole private key block that the tail's cut falls in", () => {
    const body = Array.from({ length: 40 }, (_, line) => `MIIE${String(line).padStart(60, "Q")}`);
    const pem = ["-----BEGIN RSA PRIVATE KEY-----", ...body, "-----END RSA PRIVATE KEY-----"];
    const text = `${flood(300_000)}${pem.join("\n")}\nexit 1\n`;
    const result = kept(text, 4096);
    for (const line of body) expect(result).not.toContain(line);
    expect(result).toContain("[REDACTED:private_key]\nexit 1\n");
  });

  it("counts the bytes it left out, so kept and left out add up to the output", () => {
    const text = `${flood(10_000)}${TOKEN}${flood(10_000)}`;
    const result = kept(text, limit);
    const leftOut = Number(/left out (\d+) bytes/.exec(result)?.[1]);
    const [head = "", tail = ""] = result.split(
      /\n\[… loopgate left out \d+ bytes of output …\]\n/,
    );
    expect(head.length + tail.length + leftOut).toBe(text.length);
  });
});
