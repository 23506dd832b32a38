import type { Client } from "./createClient.ts";

let active: Client | null = null;

/**
 * Makes `client` the one module-level helpers (`getActiveAccessToken`) use. `createClient` calls it,
 * so the newest client not destroyed is active; a provider may call it again when it mounts.
 */
export function setActiveClient(client: Client): void {
  active = client;
}

/** Forgets `client` if it is the active one (its `destroy()` calls this). */
export function clearActiveClient(client: Client): void {
  if (active === client) active = null;
}

/** The active client, or null when none exists (server render, before the provider mounts). */
export function getActiveClient(): Client | null {
  return active;
}
