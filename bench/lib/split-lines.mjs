// The throughput baseline of the feedback bench: read a file as a stream, decode it as UTF-8 and
// split it into lines, doing nothing with them. Importable (`splitLines`) or runnable
// (`node bench/lib/split-lines.mjs FILE` prints the line count).
import { createReadStream } from "node:fs";
import { fileURLToPath } from "node:url";
import { TextDecoder } from "node:util";

/** Reads FILE in 64 KB chunks, as loopgate does, and counts its lines. */
export async function splitLines(file) {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let partial = "";
  let lines = 0;
  let longest = 0;
  const take = (text) => {
    let start = 0;
    for (;;) {
      const end = text.indexOf("\n", start);
      if (end === -1) break;
      const line = start === 0 ? partial + text.slice(0, end) : text.slice(start, end);
      if (line.length > longest) longest = line.length;
      lines += 1;
      start = end + 1;
    }
    partial = start === 0 ? partial + text : text.slice(start);
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
    take(decoder.decode(chunk, { stream: true }));
  }
  take(decoder.decode());
  if (partial !== "") lines += 1;
  return { lines, longest };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { lines } = await splitLines(process.argv[2]);
  console.log(lines);
}
