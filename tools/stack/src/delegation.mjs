// The demo app's delegation signer (docs/delegation.md): a host back end's P-256 authorization key, registered
// as a key quorum with a policy over the `/v1` API, named as the app's default `[delegation] signers` so a user
// who clicks "Delegate" in the web app (or the published client's `useDelegatedActions`) consents to exactly
// these. The private key stays with the stack (and `.dev/delegation.json` under `make dev`): it is what a back-end
// script passes to `@privy-io/node` as `authorization_context.authorization_private_keys`.
import { generateKeyPairSync } from "node:crypto";

/** The demo wallet's daily spend: the values of its transactions over a rolling 24 hours. */
export const DEMO_DAILY_SPEND = {
  name: "daily spend",
  method: "eth_signTransaction",
  metric: { field_source: "ethereum_transaction", field: "value", function: "sum" },
  window: { type: "rolling", seconds: 86_400 },
};

/**
 * The policy the demo back end signs under: payments on the local chain of at most 1 STT each and 2 STT a day
 * (`dailySpendId`: the aggregation that sums them), and sign-in messages.
 */
export function demoPolicy(chainId, dailySpendId) {
  return {
    version: "1.0",
    name: "Demo back end: small payments",
    chain_type: "ethereum",
    rules: [
      {
        name: "payments on the local chain",
        method: "eth_sendTransaction",
        action: "ALLOW",
        conditions: [
          { field_source: "ethereum_transaction", field: "chain_id", operator: "eq", value: String(chainId) },
        ],
      },
      {
        name: "signed payments on the local chain",
        method: "eth_signTransaction",
        action: "ALLOW",
        conditions: [
          { field_source: "ethereum_transaction", field: "chain_id", operator: "eq", value: String(chainId) },
        ],
      },
      {
        name: "sign-in messages",
        method: "personal_sign",
        action: "ALLOW",
        conditions: [
          { field_source: "message", field: "content", operator: "starts_with", value: "Sign in to" },
        ],
      },
      {
        name: "at most 1 STT a payment",
        method: "*",
        action: "DENY",
        conditions: [
          {
            field_source: "ethereum_transaction",
            field: "value",
            operator: "gt",
            value: "1000000000000000000",
          },
        ],
      },
      {
        name: "at most 2 STT a day",
        method: "*",
        action: "DENY",
        conditions: [
          {
            field_source: "reference",
            field: `aggregation.${dailySpendId}`,
            operator: "gt",
            value: "2000000000000000000",
          },
        ],
      },
    ],
  };
}

/** A fresh authorization key: base64 DER SPKI (the API's form) and base64 PKCS#8 (the SDK's form). */
export function authorizationKey() {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    publicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
    privateKey: privateKey.export({ type: "pkcs8", format: "der" }).toString("base64"),
  };
}

/** Registers the key and the policy for `appId` with its secret; returns what the app's settings and scripts need. */
export async function registerDemoSigner({ apiUrl, appId, appSecret, chainId }) {
  const key = authorizationKey();
  const call = async (path, body) => {
    const response = await fetch(`${apiUrl}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "privy-app-id": appId,
        authorization: `Basic ${Buffer.from(`${appId}:${appSecret}`).toString("base64")}`,
      },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const quorum = await call("/v1/key_quorums", {
    public_keys: [key.publicKey],
    display_name: "Demo back end",
  });
  const dailySpend = await call("/v1/aggregations", DEMO_DAILY_SPEND);
  const policy = await call("/v1/policies", demoPolicy(chainId, dailySpend.id));
  return {
    keyQuorumId: quorum.id,
    policyId: policy.id,
    dailySpendId: dailySpend.id,
    authorizationPublicKey: key.publicKey,
    authorizationPrivateKey: key.privateKey,
  };
}

/** The `[delegation]` section naming the signer as the app's default. */
export function delegationToml({ keyQuorumId, policyId }) {
  return `\n[[delegation.signers]]\nsigner_id = ${JSON.stringify(keyQuorumId)}\npolicy_ids = [${JSON.stringify(policyId)}]\n`;
}

/**
 * What a host's back end does with a delegated wallet, through the published `@privy-io/node`: the SDK signs each
 * request with the authorization key; our server and signer check it. `ethereum` is `privy.wallets().ethereum()`.
 */
export async function backEnd({ apiUrl, appId, appSecret, authorizationPrivateKey }) {
  const { PrivyClient } = await import("@privy-io/node");
  const privy = new PrivyClient({ appId, appSecret, apiUrl });
  const authorization_context = { authorization_private_keys: [authorizationPrivateKey] };
  return {
    privy,
    /** The app's delegated wallets (first page). */
    async delegatedWallets() {
      const page = await privy.wallets().list({ chain_type: "ethereum" });
      return page.data.filter((wallet) => wallet.delegated);
    },
    /** Sends `valueWei` to `to` from the wallet on `chainId`; the transaction hash. */
    async send(walletId, { to, valueWei, chainId }) {
      const answer = await privy
        .wallets()
        .ethereum()
        .sendTransaction(walletId, {
          caip2: `eip155:${chainId}`,
          params: { transaction: { to, value: `0x${BigInt(valueWei).toString(16)}` } },
          authorization_context,
        });
      return answer.hash;
    },
    /** `personal_sign` of `message` by the wallet. */
    async signMessage(walletId, message) {
      const answer = await privy
        .wallets()
        .ethereum()
        .signMessage(walletId, { message, authorization_context });
      return answer.signature;
    },
  };
}
