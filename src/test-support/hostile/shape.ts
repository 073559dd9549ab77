/** A pathological input: `head`, then `unit` repeated to the size asked, then `tail`. */
export interface Shape {
  readonly name: string;
  readonly head: string;
  readonly unit: string;
  readonly tail: string;
}

/** A shape of one repeated unit. */
export function repeated(name: string, unit: string, head = "", tail = ""): Shape {
  return { name, head, unit, tail };
}

/** The shape's text at about `length` UTF-16 code units (never less than head and tail). */
export function textOf(shape: Shape, length: number): string {
  const room = Math.max(length - shape.head.length - shape.tail.length, 0);
  return `${shape.head}${shape.unit.repeat(Math.ceil(room / shape.unit.length))}${shape.tail}`;
}

/**
 * The shapes the red team found slow or crashing, and the classic ones for log readers:
 * a JWT-looking run, PEM headers without an end, unterminated escape sequences and quotes, runs of
 * one (one- and two-byte) character with no line break.
 */
export const HAND_SHAPES: readonly Shape[] = [
  repeated('"eyJa-" repeated (a JWT that never gets its dots)', "eyJa-"),
  repeated("PEM BEGIN without END, repeated", "-----BEGIN RSA PRIVATE KEY-----\n"),
  repeated("PEM BEGIN without END on one line", "-----BEGIN PRIVATE KEY----- "),
  repeated("a two-byte character on one line", "é"),
  repeated("a CJK character on one line", "中"),
  repeated("an astral character on one line", "😀"),
  repeated("one letter", "a"),
  repeated("spaces", " "),
  repeated("tabs", "\t"),
  repeated("line breaks", "\n"),
  repeated("CR LF", "\r\n"),
  repeated("carriage returns", "\r"),
  repeated("unterminated CSI", "\u001b["),
  repeated("unterminated OSC", "\u001b]0;"),
  repeated("CSI digits", "\u001b[1;"),
  repeated("backslashes", "\\"),
  repeated("double quotes", '"'),
  repeated("single quotes", "'"),
  repeated("opening parentheses", "("),
  repeated("opening brackets", "["),
  repeated("opening braces", "{"),
  repeated("angle brackets", "<"),
  repeated('"a:" repeated', "a:"),
  repeated('"a=" repeated', "a="),
  repeated('"a." repeated', "a."),
  repeated('"1:" repeated', "1:"),
  repeated("stack frame prefix repeated", "    at a ("),
  repeated("path segments", "a/"),
  repeated("URL scheme without host", "a://"),
  repeated("credential-looking pairs", "password="),
  repeated("words and spaces", "ab "),
  repeated("digits", "0"),
  repeated("dots", "."),
  repeated("dashes", "-"),
  repeated("equals signs", "="),
  repeated("JSON key start", '{"a":'),
  repeated("expected/received words", "Expected Received "),
  repeated("FAIL words", "FAIL "),
];
