import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { storageKey } from "./storageKey.ts";

/** A lease older than this is abandoned (a tab closed mid-refresh); longer than a request with retries. */
const LEASE_MS = 30_000;
const POLL_MS = 50;
/** Time for a concurrent tab's lease write to land before we check who won. */
const SETTLE_MS = 20;

interface Lease {
  owner: string;
  expires: number;
}

/**
 * Runs `fn` while holding the app's refresh lock, so only one tab of the origin spends the refresh
 * token at a time: a Web Lock (`privy:refresh:<appId>`) when the browser has them, else a lease in storage.
 */
export async function withRefreshLock<T>(client: Client, fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (locks && typeof locks.request === "function") {
    return locks.request(`privy:refresh:${client.options.appId}`, fn);
  }
  await acquireLease(client);
  try {
    return await fn();
  } finally {
    releaseLease(client);
  }
}

async function acquireLease(client: Client): Promise<void> {
  const own = internals(client);
  const key = storageKey(client.options.appId, "refresh_lease");
  const me = own.tabId();
  for (;;) {
    const current = readLease(own.storage().getItem(key));
    if (current === null || current.expires < Date.now() || current.owner === me) {
      const lease: Lease = { owner: me, expires: Date.now() + LEASE_MS };
      own.storage().setItem(key, JSON.stringify(lease));
      await delay(SETTLE_MS);
      if (readLease(own.storage().getItem(key))?.owner === me) return;
    }
    await delay(POLL_MS);
  }
}

function releaseLease(client: Client): void {
  const own = internals(client);
  const key = storageKey(client.options.appId, "refresh_lease");
  if (readLease(own.storage().getItem(key))?.owner === own.tabId()) own.storage().removeItem(key);
}

function readLease(raw: string | null): Lease | null {
  if (raw === null) return null;
  try {
    const lease = JSON.parse(raw) as Partial<Lease>;
    return typeof lease.owner === "string" && typeof lease.expires === "number" ? (lease as Lease) : null;
  } catch {
    return null;
  }
}

// Real time on purpose: the injectable sleep may be instant in tests, which would spin.
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
