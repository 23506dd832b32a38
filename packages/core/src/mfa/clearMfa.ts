import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import { mfaRuntime } from "./mfaRuntime.ts";
import { initialMfaState } from "./types.ts";

/**
 * Sign-out: the pending verification fails and the MFA state starts over. The frame's MFA token
 * goes with `privy:mfa:clear`, which `forgetWallets` posts (it also frees the unlocked keys).
 */
export function clearMfa(client: Client): void {
  mfaRuntime(client).wait?.reject(new ClientError("attempted_rpc_call_before_logged_in"));
  client.store.setState({ mfaState: initialMfaState });
}
