import { describe, expect, it } from "vitest";
import { makeUser } from "../test/fixtures.ts";
import { formatUser } from "./formatUser.ts";

describe("formatUser", () => {
  it("gives the client form with camelCase fields and dates", () => {
    const user = formatUser(makeUser({ mfa_methods: [{ type: "totp", verified_at: 1 }] }));
    expect(user.id).toBe("did:privy:user1");
    expect(user.createdAt).toEqual(new Date(1_700_000_000_000));
    expect(user.email).toEqual({ address: "ada@example.com" });
    expect(user.mfaMethods).toEqual(["totp"]);
    expect(user.hasAcceptedTerms).toBe(true);
    expect(user.isGuest).toBe(false);
    expect(user.wallet).toBeUndefined();
    expect(user.linkedAccounts[0]).toEqual({
      type: "email",
      address: "ada@example.com",
      verifiedAt: new Date(1_700_000_000_000),
      firstVerifiedAt: new Date(1_700_000_000_000),
      latestVerifiedAt: new Date(1_700_000_100_000),
    });
  });

  it("carries the back end's custom metadata as customMetadata, absent until set", () => {
    expect(formatUser(makeUser({})).customMetadata).toBeUndefined();
    expect("customMetadata" in formatUser(makeUser({}))).toBe(false);
    const tagged = formatUser(makeUser({ custom_metadata: { plan: "pro", seats: 3, beta: true } }));
    expect(tagged.customMetadata).toEqual({ plan: "pro", seats: 3, beta: true });
  });

  it("picks the embedded Ethereum wallet as the user wallet", () => {
    const wallet = (address: string, connector: string, chain: "ethereum" | "solana") => ({
      type: "wallet" as const,
      id: null,
      address,
      chain_type: chain,
      wallet_client_type: connector === "embedded" ? "privy" : "metamask",
      connector_type: connector,
      wallet_index: 0,
      recovery_method: null,
      imported: false,
      delegated: false,
      verified_at: 5,
      first_verified_at: null,
      latest_verified_at: null,
    });
    const user = formatUser(
      makeUser({
        linked_accounts: [
          wallet("0xExternal", "injected", "ethereum"),
          wallet("Sol111", "embedded", "solana"),
          wallet("0xEmbedded", "embedded", "ethereum"),
        ],
      }),
    );
    expect(user.wallet?.address).toBe("0xEmbedded");
    expect(user.wallet?.walletClientType).toBe("privy");
    expect(user.wallet?.firstVerifiedAt).toBeNull();
    expect(user.email).toBeUndefined();
  });

  it("gives phone and custom auth accounts in client form, and user.phone / user.customAuth", () => {
    const user = formatUser(
      makeUser({
        linked_accounts: [
          {
            type: "phone",
            phoneNumber: "+12015550123",
            verified_at: 5,
            first_verified_at: 5,
            latest_verified_at: 6,
          },
          {
            type: "custom_auth",
            custom_user_id: "host-42",
            verified_at: 5,
            first_verified_at: null,
            latest_verified_at: null,
          },
        ],
      }),
    );
    expect(user.phone).toEqual({ number: "+12015550123" });
    expect(user.customAuth).toEqual({ customUserId: "host-42" });
    expect(user.linkedAccounts[0]).toMatchObject({ type: "phone", number: "+12015550123" });
    expect(user.linkedAccounts[1]).toMatchObject({ type: "custom_auth", customUserId: "host-42" });
    expect(user.email).toBeUndefined();
  });

  it("gives OAuth accounts in client form as user.google, user.github, …, and cross-app accounts", () => {
    const seen = { verified_at: 5, first_verified_at: 5, latest_verified_at: 6 };
    const user = formatUser(
      makeUser({
        linked_accounts: [
          {
            type: "google_oauth",
            subject: "g-1",
            email: "ada@gmail.com",
            name: "Ada",
            username: null,
            ...seen,
          },
          { type: "github_oauth", subject: "42", email: null, name: null, username: "ada", ...seen },
          { type: "custom:acme", subject: "a-7", email: null, name: "Ada", username: null, ...seen },
          {
            type: "cross_app",
            subject: "did:privy:other",
            provider_app_id: "cltestapp0000000000000002",
            embedded_wallets: [{ address: "0xabc" }],
            smart_wallets: [],
            ...seen,
          },
        ],
      }),
    );
    expect(user.google).toEqual({
      type: "google_oauth",
      subject: "g-1",
      email: "ada@gmail.com",
      name: "Ada",
      username: null,
      verifiedAt: new Date(5000),
      firstVerifiedAt: new Date(5000),
      latestVerifiedAt: new Date(6000),
    });
    expect(user.github).toMatchObject({ subject: "42", username: "ada" });
    expect(user.twitter).toBeUndefined();
    expect(user.linkedAccounts[2]).toMatchObject({ type: "custom:acme", subject: "a-7" });
    expect(user.linkedAccounts[3]).toMatchObject({
      type: "cross_app",
      subject: "did:privy:other",
      providerApp: { id: "cltestapp0000000000000002" },
      embeddedWallets: [{ address: "0xabc" }],
      smartWallets: [],
    });
  });
});
