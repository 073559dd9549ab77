import { describe, expect, it } from "vitest";
import { valueDifference } from "./value-difference.js";

describe("valueDifference", () => {
  it("keeps the element that differs and elides what both share", () => {
    expect(
      valueDifference(
        "{ id: 1, name: 'Ada', address: { city: 'Lyon', zip: '75001' } }",
        "{ id: 1, name: 'Ada', address: { city: 'Paris', zip: '75001' } }",
      ),
    ).toEqual({ expected: "…city: 'Lyon'…", received: "…city: 'Paris'…" });
  });

  it("reads Go's space-separated structs", () => {
    expect(
      valueDifference(
        "{ID:1 Name:Ada Address:{City:Lyon Zip:75001}}",
        "{ID:1 Name:Ada Address:{City:Paris Zip:75001}}",
      ),
    ).toEqual({ expected: "…City:Lyon Zip:75001…", received: "…City:Paris Zip:75001…" });
  });

  it("gives nothing when little is shared", () => {
    expect(valueDifference("123", '"123"')).toBeUndefined();
    expect(valueDifference('"city": "Lyon"', '"city": "Paris"')).toBeUndefined();
  });
});
