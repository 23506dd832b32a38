import { describe, expect, it } from "vitest";
import { ApiCallError, createApi } from "./api.ts";

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
    await createApi({ fetch, appId: "app-id", clientId: "client-id" }).replaceShares("tok", "0xAbC", {
      auth: "YQ==",
      recovery: "Yg==",
    });
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
          body: JSON.stringify({ chain_type: "ethereum", auth_share: "YQ==", recovery_share: "Yg==" }),
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
      .keyMaterial("tok", "0xabc")
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
    await expect(createApi({ fetch }).keyMaterial("tok", "0xabc")).rejects.toMatchObject({
      message: "Request failed with status 502",
      code: null,
    });
  });
});
