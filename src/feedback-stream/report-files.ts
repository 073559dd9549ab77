import { readFileSync, statSync } from "node:fs";
import { InputError } from "../wire/input-error.js";
import { MAX_JSON_DOCUMENT_LENGTH } from "./reduce-log.js";

/** Largest report read, in bytes: as much as a JSON report inside a log may hold. */
export const MAX_REPORT_BYTES = MAX_JSON_DOCUMENT_LENGTH;

/**
 * The text of a machine-readable test report (JUnit XML, a JSON report, TAP), read whole: a
 * report is one document, and a cut one does not parse. One larger than `MAX_REPORT_BYTES`, or
 * one that cannot be read, is invalid input naming the file.
 */
export function readReportFile(path: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new InputError(path, `cannot read the report (${errorCode(error)})`);
  }
  if (size > MAX_REPORT_BYTES) {
    throw new InputError(path, `report larger than ${MAX_REPORT_BYTES / 1024 / 1024} MB`);
  }
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new InputError(path, `cannot read the report (${errorCode(error)})`);
  }
}

/** The error's errno code, or a word for one without. */
function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === "string" ? code : "unreadable";
}
