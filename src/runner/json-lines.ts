import type { Readable } from "node:stream";

/** Calls `receive` with each JSON line `stream` brings, parsed, in order. */
export function onJsonLines<T>(stream: Readable, receive: (message: T) => void): void {
  let buffered = "";
  stream.setEncoding("utf8").on("data", (text: string) => {
    buffered += text;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      receive(JSON.parse(buffered.slice(0, end)) as T);
      buffered = buffered.slice(end + 1);
    }
  });
}
