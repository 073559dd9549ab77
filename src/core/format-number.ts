/**
 * Renders a measured value for a human-readable reason. Rounds to 12 significant digits so
 * binary float noise (0.1 + 0.2) never shows up in an audit trail.
 */
export function formatNumber(value: number): string {
  return String(roundNumber(value));
}

/** Drops binary float noise below 12 significant digits, so differences of exact decimals compare exactly. */
export function roundNumber(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(12)) : value;
}
