import { describe, expect, it } from "vitest";
import { ApiCallError, createApi, createPost } from "./api.ts";

function recordingFetch(response: () => Response) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    return response();
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

describe("api", () => {
  it("posts same-origin JSON with the bearer token, app and client ids, and a real Origin", async () => {
    const { fetch, calls } = recordingFetch(() => Response.json({ address: "0xabc" }));
    await createApi({ fetch, appId: "app-id", clientId: "client-id" }).replaceShares(
      "tok",
      "ethereum",
      "0xAbC",
      {
        auth_share: "YQ==",
        recovery_share: "Yg==",
        device_public_key: "BA==",
        nonce: "n",
        signature: "0x01",
      },
    );
    expect(calls).toEqual([
      {
        url: "/api/v1/embedded_wallets/0xAbC/shares",
        init: {
          method: "POST",
          headers: {
            authorization: "Bearer tok",
            "content-type": "application/json",
            "privy-app-id": "app-id",
            "privy-client-id": "client-id",
          },
          body: JSON.stringify({
            chain_type: "ethereum",
            auth_share: "YQ==",
            recovery_share: "Yg==",
            device_public_key: "BA==",
            nonce: "n",
            signature: "0x01",
          }),
          // Under the page's no-referrer policy a POST would otherwise say `Origin: null`.
          referrerPolicy: "strict-origin",
          credentials: "omit",
        },
      },
    ]);
  });

  it("throws the server's message and code", async () => {
    const { fetch } = recordingFetch(() =>
      Response.json(
        { error: "Wallet requests must come from the wallet frame", code: "invalid_origin" },
        { status: 403 },
      ),
    );
    const failure = await createApi({ fetch })
      .keyMaterial("tok", "ethereum", "0xabc", { recovery: true })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiCallError);
    expect(failure).toMatchObject({
      message: "Wallet requests must come from the wallet frame",
      status: 403,
      code: "invalid_origin",
    });
  });

  it("names the status when the error body is not the server's JSON", async () => {
    const { fetch } = recordingFetch(() => new Response("<html>Bad gateway</html>", { status: 502 }));
    await expect(
      createApi({ fetch }).keyMaterial("tok", "ethereum", "0xabc", { recovery: true }),
    ).rejects.toMatchObject({
      message: "Request failed with status 502",
      code: null,
    });
  });

  it("asks for a challenge and sends the device proof or the recovery flag", async () => {
    const { fetch, calls } = recordingFetch(() => Response.json({ nonce: "n1", expires_at: 1 }));
    const api = createApi({ fetch, appId: "app-id" });
    expect(await api.challenge("tok", "ethereum", "key_material")).toBe("n1");
    await api.keyMaterial("tok", "ethereum", "0xabc", { nonce: "n1", device_signature: "c2ln" });
    expect(calls.map((c) => [c.url, c.init.body])).toEqual([
      [
        "/api/v1/embedded_wallets/challenge",
        JSON.stringify({ chain_type: "ethereum", purpose: "key_material" }),
      ],
      [
        "/api/v1/embedded_wallets/0xabc/recovery/key_material",
        JSON.stringify({ chain_type: "ethereum", nonce: "n1", device_signature: "c2ln" }),
      ],
    ]);
    expect(api.appId("x.eyJhdWQiOiJ0b2tlbi1hcHAifQ.y")).toBe("app-id");
    expect(createApi({ fetch }).appId("x.eyJhdWQiOiJ0b2tlbi1hcHAifQ.y")).toBe("token-app");
  });

  it("sends a non-default intent and the MFA token with key material, nothing when absent", async () => {
    const { fetch, calls } = recordingFetch(() => Response.json({}));
    const api = createApi({ fetch });
    await api.keyMaterial(
      "tok",
      "ethereum",
      "0xabc",
      { recovery: true },
      { intent: "export", mfaToken: "mfa" },
    );
    await api.keyMaterial("tok", "ethereum", "0xabc", { recovery: true }, { intent: "sign", mfaToken: null });
    expect(calls.map((c) => JSON.parse(String(c.init.body)))).toEqual([
      { chain_type: "ethereum", recovery: true, intent: "export", mfa_token: "mfa" },
      { chain_type: "ethereum", recovery: true },
    ]);
  });

  it("posts the MFA calls under /api/v1 with the same headers", async () => {
    const { fetch, calls } = recordingFetch(() => Response.json({ token: "t", expires_at: 1 }));
    const post = createPost({ fetch, appId: "app-id" });
    expect(await post("tok", "/mfa/verify", { method: "totp", code: "123456" })).toEqual({
      token: "t",
      expires_at: 1,
    });
    expect(calls[0]?.url).toBe("/api/v1/mfa/verify");
    expect(calls[0]?.init).toMatchObject({
      method: "POST",
      headers: { authorization: "Bearer tok", "privy-app-id": "app-id" },
      referrerPolicy: "strict-origin",
      credentials: "omit",
    });
  });
});
