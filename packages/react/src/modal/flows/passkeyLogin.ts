import type { LoginResult } from "@symbolon/core";
import type { SignInFlowKind } from "./signInTypes";

/** Log in with a passkey, or sign up with a new one (spec §4 passkey flow): the login screen's "Continue with a passkey". */
export type PasskeyScreenState = { flow: SignInFlowKind; screen: "passkey" };

/** What the passkey screen calls. */
export interface PasskeyLoginActions {
  succeed(result: LoginResult): void;
  refuse(error: unknown): boolean;
}
