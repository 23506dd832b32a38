import { describe, expect, it } from "vitest";
import { formatPhone } from "./formatPhone";

describe("formatPhone", () => {
  it("groups E.164 numbers as people write them", () => {
    expect(formatPhone("+12016591679")).toBe("+1 201 659 1679");
    expect(formatPhone("+447911123456")).toBe("+44 7911 123456");
  });

  it("shows what it cannot read as stored", () => {
    expect(formatPhone("not a number")).toBe("not a number");
  });
});
