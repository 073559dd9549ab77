/** Replaced by the bundler with the package version; unbundled runs (tests) report a dev marker. */
declare const __LOOPGATE_VERSION__: string | undefined;

/** loopgate's version, as `loopgate --version` prints it. */
export function loopgateVersion(): string {
  return typeof __LOOPGATE_VERSION__ === "string" ? __LOOPGATE_VERSION__ : "0.0.0-dev";
}
