import { describe, expect, it } from "vitest";
import { countries, defaultCountry } from "./countries";

describe("countries", () => {
  it("names every region in the reader's language, sorted, each with its calling code", () => {
    const list = countries("en-US");
    expect(list.length).toBeGreaterThan(230);
    expect(list.find((c) => c.code === "GB")).toEqual({ code: "GB", dial: "44", name: "United Kingdom" });
    expect(list.find((c) => c.code === "DE")?.dial).toBe("49");
    expect(countries("de").find((c) => c.code === "DE")?.name).toBe("Deutschland");
    expect(new Set(list.map((c) => c.code)).size).toBe(list.length);
  });

  it("defaults to the language's region, else the United States", () => {
    const list = countries("en");
    expect(defaultCountry("en-GB", list)).toBe("GB");
    expect(defaultCountry("fr", list)).toBe("FR");
    expect(defaultCountry("not a locale", list)).toBe("US");
  });
});
