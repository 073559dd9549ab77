/** Whether `char` opens or closes a quoted string: `"`, `'` or a backtick. */
export const isQuote = (char: string): boolean => char === '"' || char === "'" || char === "`";
