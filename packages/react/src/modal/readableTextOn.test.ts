import { describe, expect, it } from "vitest";
import { readableTextOn } from "./readableTextOn";

describe("readableTextOn", () => {
  it("puts white text on a deep accent and dark text on a light one", () => {
    expect(readableTextOn("#5b4bff")).toBe("#ffffff");
    expect(readableTextOn("#8a7dff")).toBe("#0f1115");
    expect(readableTextOn("#ff0")).toBe("#0f1115");
  });

  it("leaves colours it cannot read to the theme", () => {
    expect(readableTextOn("rebeccapurple")).toBeUndefined();
  });
});
