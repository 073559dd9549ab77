/** The options naming a command's store, as `parseOptions` reads them. */
export const STORE_OPTIONS = {
  store: { type: "string" },
  db: { type: "string" },
} as const;

/** How the store options read in a command's usage text, descriptions starting at `column`. */
export function storeHelp(column: number): string {
  const flag = (name: string) => `  ${name}`.padEnd(column);
  const more = " ".repeat(column);
  return `${flag("--store URL")}the store: a journal path, sqlite:PATH or
${more}postgres://USER@HOST:PORT/DATABASE (default: LOOPGATE_STORE)
${flag("--db PATH")}the journal (default: LOOPGATE_DB, else the first
${more}.loopgate/journal.db here or above)`;
}
