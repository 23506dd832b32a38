import { describe, expect, it } from "vitest";
import { isApiError } from "../errors/ApiError.ts";
import { isClientError } from "../errors/ClientError.ts";
import { transferData } from "../errors/transferData.ts";
import type { User } from "../generated/protocol.ts";
import { requireUpdatable } from "../session/requireUpdatable.ts";
import { makeUser } from "../test/fixtures.ts";
import { makeClient, useScriptedApp } from "../test/harness.ts";
import { linkEmail } from "./linkEmail.ts";
import { linkPhone } from "./linkPhone.ts";
import { loginWithEmailCode } from "./loginWithEmailCode.ts";
import { transferAccount } from "./transferAccount.ts";
import { unlinkEmail } from "./unlinkEmail.ts";
import { unlinkPhone } from "./unlinkPhone.ts";
import { updateEmail } from "./updateEmail.ts";
import { updatePhone } from "./updatePhone.ts";

const scripted = useScriptedApp();

const phone = (n: string) =>
  ({ type: "phone", phoneNumber: n, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }) as const;

/** Signs in (email ada@example.com) and scripts `path` to answer `user` (and the server to keep it). */
async function signedIn(route?: string, user?: User, status = 200, json?: unknown) {
  const client = makeClient(scripted.server);
  await loginWithEmailCode(client, { email: "ada@example.com", code: "123456" });
  if (route) {
    scripted.server.on(route, () => {
      if (status !== 200) return { status, json };
      if (user) scripted.app.user = user;
      return { json: scripted.app.user };
    });
  }
  return client;
}

describe("account calls", () => {
  it("linkPhone posts the number in E.164 with the bearer token, then refreshes the user", async () => {
    const withPhone = makeUser({ linked_accounts: [...makeUser().linked_accounts, phone("+12015550123")] });
    const client = await signedIn("POST /api/v1/passwordless_sms/link", withPhone);
    const result = await linkPhone(client, { phoneNumber: "+1 201 555 0123", code: " 111111 " });
    const hit = scripted.server.hitsOf("POST /api/v1/passwordless_sms/link")[0];
    expect(hit?.body).toEqual({ phoneNumber: "+12015550123", code: "111111" });
    expect(hit?.headers.authorization).toMatch(/^Bearer /);
    expect(scripted.server.hitsOf("POST /api/v1/sessions")).toHaveLength(1);
    expect(result.user).toEqual(withPhone);
    expect(client.store.getState().user).toEqual(withPhone);
    expect(result.identityToken).toBe(client.store.getState().identityToken);
  });

  it("refuses to link while signed out and a second account of a type, with the spec's messages", async () => {
    const out = makeClient(scripted.server);
    const e1 = await linkEmail(out, { email: "b@example.com", code: "1" }).catch((e: unknown) => e);
    expect(isClientError(e1) && e1.message).toBe("User must be authenticated before linking an account.");
    const client = await signedIn();
    const e2 = await linkEmail(client, { email: "b@example.com", code: "1" }).catch((e: unknown) => e);
    expect(isClientError(e2) && e2.message).toBe("User already has an account of type email linked.");
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/link")).toHaveLength(0);
  });

  it("an account_transfer_required refusal carries the transfer data; transferAccount sends its nonce", async () => {
    const data = {
      nonce: "n1",
      account_type: "phone",
      display_name: "+12015550123",
      embedded_wallet_address: null,
    };
    const client = await signedIn("POST /api/v1/passwordless_sms/link", undefined, 400, {
      error: "This account belongs to another user.",
      code: "account_transfer_required",
      data,
    });
    const e = await linkPhone(client, { phoneNumber: "+12015550123", code: "1" }).catch(
      (err: unknown) => err,
    );
    expect(isApiError(e) && e.code).toBe("account_transfer_required");
    expect(isApiError(e) && e.data).toEqual(data);
    expect(transferData(e)).toEqual(data);
    scripted.server.on("POST /api/v1/passwordless_sms/transfer", () => ({ json: scripted.app.user }));
    await transferAccount(client, { accountType: "phone", nonce: "n1", subject: "+12015550123" });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless_sms/transfer")[0]?.body).toEqual({
      nonce: "n1",
      phoneNumber: "+12015550123",
    });
    scripted.server.on("POST /api/v1/passwordless/transfer", () => ({ json: scripted.app.user }));
    await transferAccount(client, { accountType: "email", nonce: "n2", subject: "b@example.com" });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/transfer")[0]?.body).toEqual({
      nonce: "n2",
      email: "b@example.com",
    });
    scripted.server.on("POST /api/v1/farcaster/transfer", () => ({ json: scripted.app.user }));
    await transferAccount(client, { accountType: "farcaster", nonce: "n3", subject: "1002" });
    expect(scripted.server.hitsOf("POST /api/v1/farcaster/transfer")[0]?.body).toEqual({
      nonce: "n3",
      farcaster_id: 1002,
    });
  });

  it("updateEmail sends the old address from the user; updatePhone without a phone throws the spec's message", async () => {
    const client = await signedIn("POST /api/v1/passwordless/update");
    await updateEmail(client, { newAddress: " new@example.com ", code: "123456" });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/update")[0]?.body).toEqual({
      oldAddress: "ada@example.com",
      newAddress: "new@example.com",
      code: "123456",
    });
    expect(() => requireUpdatable(client, "phone")).toThrow(
      "User is required to have an phone number to update it.",
    );
    expect(requireUpdatable(client, "email").id).toBe(client.store.getState().user?.id);
    const e = await updatePhone(client, { newPhoneNumber: "+12015550123", code: "1" }).catch(
      (x: unknown) => x,
    );
    expect(isClientError(e) && e.message).toBe("User does not have a phone number linked to their account.");
  });

  it("updatePhone sends old_phone_number and new_phone_number; updateEmail without an email throws", async () => {
    scripted.app.user = makeUser({ linked_accounts: [phone("+12015550123")] });
    const client = makeClient(scripted.server);
    await loginWithEmailCode(client, { email: "ada@example.com", code: "123456" });
    client.store.setState({ user: makeUser({ linked_accounts: [phone("+12015550123")] }) });
    scripted.server.on("POST /api/v1/passwordless_sms/update", () => ({ json: scripted.app.user }));
    await updatePhone(client, { newPhoneNumber: "+44 20 7946 0958", code: "123456" });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless_sms/update")[0]?.body).toEqual({
      old_phone_number: "+12015550123",
      new_phone_number: "+442079460958",
      code: "123456",
    });
    client.store.setState({ user: makeUser({ linked_accounts: [phone("+12015550123")] }) });
    const e = await updateEmail(client, { newAddress: "x@example.com", code: "1" }).catch((x: unknown) => x);
    expect(isClientError(e) && e.message).toBe("User does not have an email linked to their account.");
  });

  it("unlink posts the address or number; the last account's refusal comes back with the server's message", async () => {
    const client = await signedIn("POST /api/v1/passwordless/unlink", undefined, 400, {
      error: "Cannot unlink the only account of a user.",
      code: "cannot_unlink_sole_account",
    });
    const e = await unlinkEmail(client, "ada@example.com").catch((x: unknown) => x);
    expect(isApiError(e) && [e.code, e.message]).toEqual([
      "cannot_unlink_sole_account",
      "Cannot unlink the only account of a user.",
    ]);
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/unlink")[0]?.body).toEqual({
      address: "ada@example.com",
    });
    scripted.server.on("POST /api/v1/passwordless_sms/unlink", () => ({ json: scripted.app.user }));
    await unlinkPhone(client, "+12015550123");
    expect(scripted.server.hitsOf("POST /api/v1/passwordless_sms/unlink")[0]?.body).toEqual({
      phoneNumber: "+12015550123",
    });
  });
});
