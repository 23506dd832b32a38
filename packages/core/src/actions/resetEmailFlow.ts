import { type Client, initialEmailFlow } from "../client/createClient.ts";

/** Puts the email flow back to `initial` (e.g. when the modal closes). */
export function resetEmailFlow(client: Client): void {
  client.store.setState({ emailFlow: initialEmailFlow });
}
