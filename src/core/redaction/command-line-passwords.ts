import type { Detector, SecretSpan } from "./secret-span.js";

/** Programs that take a password as an argument, and how each one's option looks. */
const PROGRAMS =
  /(?<![\w.])(?<![\w.]-)(?:(mysql[\w-]*|mariadb[\w-]*)|(sshpass)|(curl)|(redis-cli)|(mongo(?:sh|dump|restore|import|export)?))(?![\w-])/g;
/** The option that carries the password, per program (same order as the groups above); each ends with it. */
const OPTIONS: readonly RegExp[] = [
  // `mysql -pPASSWORD`: the password is glued to `-p`; `-p` alone prompts for it.
  /(?<=[ \t])-p([^\s"'\\]+|"[^"\n]*"|'[^'\n]*')/g,
  /(?<=[ \t])-p[ \t]*([^\s"'\\-][^\s"'\\]*|"[^"\n]*"|'[^'\n]*')/g,
  // `curl -u user:password`: the password after the user.
  /(?<=[ \t])(?:-u|--user)[ \t=]*(?:[^\s"':=][^\s:"']*)?:([^\s"'\\]+)/g,
  /(?<=[ \t])(?:-a|--pass)[ \t]+([^\s"'\\-][^\s"'\\]*)/g,
  /(?<=[ \t])(?:-p|--password)[ \t]+([^\s"'\\-][^\s"'\\]*)/g,
];
/** How far along its line a program's options are read. */
const MAX_ARGUMENTS = 2048;

/** Passwords given on a command line: `mysql -pPW`, `sshpass -p PW`, `curl -u user:PW`. */
export const commandLinePasswords: Detector = (text) => {
  const spans: SecretSpan[] = [];
  PROGRAMS.lastIndex = 0;
  for (let match = PROGRAMS.exec(text); match !== null; match = PROGRAMS.exec(text)) {
    const start = match.index + match[0].length;
    const window = text.slice(start, start + MAX_ARGUMENTS);
    const lineEnd = window.indexOf("\n");
    const line = lineEnd < 0 ? window : window.slice(0, lineEnd);
    const end = start + line.length;
    const option = OPTIONS[match.slice(1).findIndex((group) => group !== undefined)];
    if (option !== undefined) {
      option.lastIndex = 0;
      for (let found = option.exec(line); found !== null; found = option.exec(line)) {
        // Each option's pattern ends with the password.
        const end = start + found.index + found[0].length;
        spans.push({ start: end - (found[1] ?? "").length, end, kind: "password" });
      }
    }
    // The rest of the line was read for this program: the next one is looked for after it.
    PROGRAMS.lastIndex = end;
  }
  return spans;
};
