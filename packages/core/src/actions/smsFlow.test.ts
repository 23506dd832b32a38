import { describe, expect, it } from "vitest";
import type { CodeFlowStatus } from "../client/createClient.ts";
import { isApiError } from "../errors/ApiError.ts";
import { isClientError } from "../errors/ClientError.ts";
import { makeUser } from "../test/fixtures.ts";
import { makeClient, useScriptedApp } from "../test/harness.ts";
import { loginWithSmsCode } from "./loginWithSmsCode.ts";
import { resetSmsFlow } from "./resetSmsFlow.ts";
import { sendSmsCode } from "./sendSmsCode.ts";

const scripted = useScriptedApp();

function scriptSms() {
  scripted.server.on("POST /api/v1/passwordless_sms/init", () => ({ json: { success: true } }));
  scripted.server.on("POST /api/v1/passwordless_sms/authenticate", (hit) => {
    const { code, phoneNumber } = hit.body as { code: string; phoneNumber: string };
    if (code !== "123456")
      return { status: 401, json: { error: "Invalid code", code: "invalid_credentials" } };
    scripted.app.user = makeUser({
      linked_accounts: [
        { type: "phone", phoneNumber, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 },
      ],
    });
    return { json: scripted.app.issue({ is_new_user: true }) };
  });
}

describe("SMS code login", () => {
  it("goes sending-code, awaiting-code-input, submitting-code, done with the number in E.164", async () => {
    scriptSms();
    const client = makeClient(scripted.server);
    const seen: CodeFlowStatus[] = [];
    client.store.subscribe((s, prev) => {
      if (s.smsFlow.status !== prev.smsFlow.status) seen.push(s.smsFlow.status);
    });
    await sendSmsCode(client, { phoneNumber: " +1 (201) 555-0123 ", captchaToken: "cap" });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless_sms/init")[0]?.body).toEqual({
      phoneNumber: "+12015550123",
      token: "cap",
    });
    const result = await loginWithSmsCode(client, { code: " 123456 ", mode: "no-signup" });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless_sms/authenticate")[0]?.body).toEqual({
      phoneNumber: "+12015550123",
      code: "123456",
      mode: "no-signup",
    });
    expect(seen).toEqual(["sending-code", "awaiting-code-input", "submitting-code", "done"]);
    expect(result.isNewUser).toBe(true);
    expect(client.store.getState().authenticated).toBe(true);
    resetSmsFlow(client);
    expect(client.store.getState().smsFlow).toEqual({ status: "initial", phoneNumber: null, error: null });
  });

  it("accepts a national number with its default country", async () => {
    scriptSms();
    const client = makeClient(scripted.server);
    await sendSmsCode(client, { phoneNumber: "020 7946 0958", defaultCountry: "gb" });
    expect(client.store.getState().smsFlow.phoneNumber).toBe("+442079460958");
  });

  it("refuses an invalid number without calling the server", async () => {
    scriptSms();
    const client = makeClient(scripted.server);
    const e = await sendSmsCode(client, { phoneNumber: "+1 555" }).catch((err: unknown) => err);
    expect(isClientError(e) && e.message).toBe("Please enter a valid phone number.");
    expect(client.store.getState().smsFlow.status).toBe("error");
    expect(scripted.server.hitsOf("POST /api/v1/passwordless_sms/init")).toHaveLength(0);
  });

  it("a wrong code leaves an error state keeping the number; a retry succeeds", async () => {
    scriptSms();
    const client = makeClient(scripted.server);
    await sendSmsCode(client, { phoneNumber: "+12015550123" });
    const e = await loginWithSmsCode(client, { code: "000000" }).catch((err: unknown) => err);
    expect(isApiError(e) && e.code).toBe("invalid_credentials");
    expect(client.store.getState().smsFlow).toMatchObject({ status: "error", phoneNumber: "+12015550123" });
    await loginWithSmsCode(client, { code: "123456" });
    expect(client.store.getState().smsFlow.status).toBe("done");
  });

  it("without a flow in progress fails with 'No auth flow in progress.'", async () => {
    const client = makeClient(scripted.server);
    const e = await loginWithSmsCode(client, { code: "123456" }).catch((err: unknown) => err);
    expect(isClientError(e) && e.message).toBe("No auth flow in progress.");
  });
});
