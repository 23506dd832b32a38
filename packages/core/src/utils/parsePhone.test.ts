import { describe, expect, it } from "vitest";
import { parsePhone } from "./parsePhone.ts";

describe("parsePhone", () => {
  it("gives E.164 for an international number and a national one with its country", async () => {
    expect(await parsePhone(" +1 (201) 555-0123 ")).toEqual({ ok: true, e164: "+12015550123" });
    expect(await parsePhone("020 7946 0958", "GB")).toEqual({ ok: true, e164: "+442079460958" });
  });

  it("refuses empty, too short and unqualified numbers", async () => {
    for (const input of ["", "+1 555", "2015550123", "not a number"]) {
      expect(await parsePhone(input)).toEqual({ ok: false, message: "Please enter a valid phone number." });
    }
  });
});
