// Vite (and so Vitest) imports any file's text with the `?raw` suffix; tests read fixtures this way.
declare module "*?raw" {
  const text: string;
  export default text;
}
