import type { Client } from "@symbolon/core";

/** The client, or a clear error when a hook's action runs before the provider mounted it. */
export function requireClient(client: Client | null, hookName: string): Client {
  if (!client) throw new Error(`${hookName}: the provider is not ready yet.`);
  return client;
}
