import { readFileSync, writeFileSync } from "node:fs";

/**
 * Damages a closed journal's file as a failing disk or a careless edit would: up to `count`
 * letters of `marker`, wherever the file holds it, have their case flipped, so the JSON around
 * them still parses and only the journal's own checksums can tell. Every copy is hit, the row
 * and the stale ones SQLite leaves in unused space alike. Returns how many copies there were.
 */
export function flipBytes(path: string, marker: string, count = 10): number {
  const bytes = readFileSync(path);
  let copies = 0;
  for (
    let at = bytes.indexOf(marker, 0, "utf8");
    at >= 0;
    at = bytes.indexOf(marker, at + 1, "utf8")
  ) {
    copies += 1;
    for (let index = at; index < at + Math.min(count, marker.length); index++) {
      const byte = bytes[index] ?? 0;
      if (/[a-z]/i.test(String.fromCharCode(byte))) bytes[index] = byte ^ 0x20;
    }
  }
  if (copies === 0) throw new Error(`${marker} is not stored in ${path}`);
  writeFileSync(path, bytes);
  return copies;
}
