import { type Client, initialSmsFlow } from "../client/createClient.ts";

/** Puts the SMS flow back to `initial` (e.g. when the modal closes). */
export function resetSmsFlow(client: Client): void {
  client.store.setState({ smsFlow: initialSmsFlow });
}
