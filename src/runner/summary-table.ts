import type { TaskSummary } from "../core/loop/run-summary.js";
import { formatNumber } from "../core/format-number.js";
import { printable } from "../core/printable.js";
import { tone, type Paint } from "./paint.js";

/** Lays out rows as aligned columns; colour is applied after padding so widths stay right. */
export function columns(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  color: (row: number, column: number, text: string) => string = (_r, _c, text) => text,
): string {
  const widths = header.map((title, index) =>
    Math.max(title.length, ...rows.map((row) => (row[index] ?? "").length)),
  );
  const line = (cells: readonly string[], row: number) =>
    cells
      .map((cell, index) => color(row, index, cell.padEnd(widths[index] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header, -1), ...rows.map((row, index) => line(row, index))].join("\n") + "\n";
}

/**
 * The final table of a run: task, outcome, iterations, spend, deciding condition. Its cells
 * are made printable before they are coloured: the colours are the only escapes it holds.
 */
export function summaryTable(summary: readonly TaskSummary[], paint: Paint): string {
  const rows = summary.map((task) =>
    [
      task.taskId,
      task.outcome,
      String(task.iterations),
      formatNumber(task.spend),
      task.reason ?? "-",
    ].map(printable),
  );
  return columns(
    ["task", "outcome", "iterations", "spend", "condition"],
    rows,
    (row, column, text) =>
      row === -1 ? paint.bold(text) : column === 1 ? tone(paint, text.trim())(text) : text,
  );
}
