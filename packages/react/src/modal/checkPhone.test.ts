import { describe, expect, it } from "vitest";
import { checkPhone } from "./checkPhone";

describe("checkPhone (core's parsePhone, libphonenumber-js)", () => {
  it("qualifies a national number with the picked country and gives E.164", async () => {
    expect(await checkPhone("(201) 234-5678", "US")).toBe("+12012345678");
    expect(await checkPhone("07911 123456", "GB")).toBe("+447911123456");
  });

  it("takes a number with its '+' whatever the country", async () => {
    expect(await checkPhone("+44 7911 123456", "US")).toBe("+447911123456");
  });

  it("refuses numbers that are not valid", async () => {
    expect(await checkPhone("123", "US")).toBeNull();
    expect(await checkPhone("201 234 567", "US")).toBeNull();
    expect(await checkPhone("", "US")).toBeNull();
  });
});
