import type { Client } from "../client/createClient.ts";
import { initialOAuthFlow } from "../oauth/oauthState.ts";

/** Back to `initial` (the modal calls it when it closes; a new flow starts from here). */
export function resetOAuthFlow(client: Client): void {
  client.store.setState({ oauthFlow: initialOAuthFlow });
}
