import type { Client } from "../client/createClient.ts";
import { initialPasskeyFlow } from "./types.ts";

/** Puts `passkeyFlow` back to `initial` (e.g. when the passkey screen closes). */
export function resetPasskeyFlow(client: Client): void {
  client.store.setState({ passkeyFlow: initialPasskeyFlow });
}
