// The stack a test file talks to: the suite's shared one (see run.mjs) or, when the file runs alone, its own.
import { after, before } from "node:test";
import {
  approveLatestChannel,
  FARCASTER_TEST_ACCOUNTS,
  latestSmsCode,
  mailboxClient,
  signInAt,
  smsMessages,
  startStack,
} from "@symbolon/stack";
import { startPublishedClients } from "./publishedClient.mjs";
import { stackOptions } from "./stackOptions.mjs";

/**
 * Registers before/after hooks and returns a handle whose fields are filled once `before` ran.
 * `publishedClients`: the file needs the published react-auth host pages (lib/publishedClient.mjs); the shared
 * stack serves them (run.mjs), a stack of the file's own serves them too, with their origin allowed by the app.
 * @param {{ publishedClients?: boolean }} [options]
 * @returns {{ urls: { api: string, web: string, webB: string | null, inbox: string, smsInbox: string,
 *     hostAuth: string, oidc: string, oauth2: string, chain: string, farcasterRelay: string,
 *     walletConnectRelay: string | null, walletExplorer: string | null },
 *   appId: string, appBId: string | null, appSecret: string, mailbox: ReturnType<typeof mailboxClient>,
 *   signInAt: typeof signInAt,
 *   smsbox: { latestCode: (to: string, options?: object) => Promise<string>, messagesFor: (to: string) => Promise<object[]> },
 *   farcaster: { accounts: typeof FARCASTER_TEST_ACCOUNTS, approve: (fid: number, options?: object) => Promise<object> },
 *   webhooks: { secret: string, events: (type?: string) => Promise<object[]> },
 *   delegation: { keyQuorumId: string, policyId: string, authorizationPrivateKey: string },
 *   chain: { rpcUrl: string, chainId: number, funder: { address: string } },
 *   publishedClientOrigin: string | null }}
 */
export function useStack({ publishedClients = false } = {}) {
  const handle = /** @type {any} */ ({});
  let own;
  let ownPublished;
  before(async () => {
    const shared = process.env.SYMBOLON_E2E_STACK;
    if (!shared && publishedClients) ownPublished = await startPublishedClients();
    if (!shared) {
      own = await startStack({
        ...stackOptions,
        ...(ownPublished && { origins: [ownPublished.origin] }),
      });
    }
    const info = shared ? JSON.parse(shared) : own;
    Object.assign(handle, {
      urls: info.urls,
      publishedClientOrigin: shared ? (info.publishedClientOrigin ?? null) : (ownPublished?.origin ?? null),
      appId: info.appId,
      appBId: info.appBId ?? null,
      appSecret: info.appSecret,
      // The demo back end's delegation signer (tools/stack/src/delegation.mjs) and the local chain's funder.
      delegation: info.delegation,
      chain: info.chain,
      // The catcher the demo app's webhook endpoint posts to, and that endpoint's signing secret.
      webhooks: {
        secret: shared ? info.webhookSecret : own.webhookbox.secret,
        events: async (type) =>
          (
            await fetch(`${info.urls.webhooks}/api/events${type ? `?type=${encodeURIComponent(type)}` : ""}`)
          ).json(),
      },
      // Signs in at the Google or GitHub stand-in over HTTP (no browser): returns the callback address.
      signInAt,
      mailbox: mailboxClient(info.urls.inbox),
      smsbox: {
        latestCode: (to, options) => latestSmsCode(info.urls.smsInbox, to, options),
        messagesFor: (to) => smsMessages(info.urls.smsInbox, to),
      },
      // The Farcaster app's part: approve the newest pending sign-in as a test account (fids 1001–1003).
      farcaster: {
        accounts: FARCASTER_TEST_ACCOUNTS,
        approve: (fid, options) => approveLatestChannel(info.urls.farcasterRelay, fid, options),
      },
    });
  });
  after(async () => {
    await own?.stop();
    await ownPublished?.close();
  });
  return handle;
}
