import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { ClientError } from "../errors/ClientError.ts";
import { mfaRuntime } from "./mfaRuntime.ts";
import { initialMfaState } from "./types.ts";

/** Sign-out: the pending verification fails, the MFA state starts over, the frame forgets its MFA token. */
export function clearMfa(client: Client): void {
  mfaRuntime(client).wait?.reject(new ClientError("attempted_rpc_call_before_logged_in"));
  client.store.setState({ mfaState: initialMfaState });
  const frame = internals(client).walletFrame;
  if (frame === null || !frame.isReady()) return;
  frame.request("privy:mfa:clear", {}).catch((error: unknown) => {
    console.error("Symbolon: the wallet frame did not confirm privy:mfa:clear.", error);
  });
}
