// The MFA part of the fake wallet frame: the frame's side of `privy:mfa:*` and the MFA guard of the
// wallet operations, as contract-12.md describes them (one single-use MFA token, refused codes).
import type { Client } from "../client/createClient.ts";
import type { MfaMethodType, User } from "../generated/protocol.ts";
import type { FrameErrorAnswer } from "./fakeWalletFrame.ts";

/** How the fake frame's MFA behaves. */
export interface FakeMfaOptions {
  /** The code `privy:mfa:verify` accepts (default "123456"); a passkey answer needs `id`. */
  code?: string;
  /** Wallet events that need a token when the user has MFA (default rpc, recover, export). */
  protect?: string[];
  /** The guard refuses even a fresh token (to use up the attempts). */
  refuseTokens?: boolean;
}

/** The frame refuses for lack of (or with a bad) MFA token. */
export const mfaRequired = (message = "MFA verification failed, retry."): FrameErrorAnswer => ({
  error: { type: "missing_or_invalid_mfa", message },
});

export const FAKE_TOTP = {
  secret: "JBSWY3DPEHPK3PXP",
  authUrl: "otpauth://totp/Symbolon:ada?secret=JBSWY3DPEHPK3PXP",
};

/** The frame's MFA state and handlers; `handle` answers undefined for events it does not own. */
export function createFakeMfa(client: Client, options: FakeMfaOptions = {}) {
  const code = options.code ?? "123456";
  const protect = new Set(
    options.protect ?? ["privy:wallets:rpc", "privy:wallets:recover", "privy:wallet:export"],
  );
  let token = false;
  const user = (): User => {
    const current = client.store.getState().user;
    if (current === null)
      throw { error: { type: "attempted_rpc_call_before_logged_in", message: "Missing access token" } };
    return current;
  };
  const hasMfa = () => user().mfa_methods.length > 0;
  /** Consumes the token, or refuses. */
  const spend = () => {
    if (!token || options.refuseTokens) throw mfaRequired();
    token = false;
  };
  const withMethods = (u: User, methods: MfaMethodType[]): User => ({
    ...u,
    mfa_methods: methods.map((type) => ({ type, verified_at: 1 })),
    linked_accounts: u.linked_accounts.map((a) =>
      a.type === "passkey" ? { ...a, enrolled_in_mfa: methods.includes("passkey") && a.enrolled_in_mfa } : a,
    ),
  });
  const methods = () => user().mfa_methods.map((m) => m.type);

  return {
    /** Whether the frame holds an unspent MFA token. */
    hasToken: () => token,
    /** Runs the guard for a wallet event (before the real answer). */
    guard(event: string) {
      if (protect.has(event) && hasMfa()) spend();
    },
    handle(event: string, data: Record<string, unknown>): unknown {
      switch (event) {
        case "privy:mfa:verify": {
          const answer = data.mfaCode;
          const ok =
            data.method === "passkey"
              ? typeof answer === "object" && answer !== null && "id" in answer
              : answer === code;
          if (!ok) throw mfaRequired("The code you entered is not valid");
          token = true;
          return {};
        }
        case "privy:mfa:clear":
          token = false;
          return {};
        case "privy:mfa:init-enrollment":
          return data.method === "totp" ? FAKE_TOTP : {};
        case "privy:mfa:submit-enrollment": {
          if (hasMfa()) spend();
          const method = data.method as MfaMethodType;
          if (method !== "passkey" && data.mfaCode !== code)
            throw mfaRequired("The code you entered is not valid");
          const u = user();
          const enrolled = withMethods(u, [...new Set([...methods(), method])]);
          if (method === "passkey") {
            const ids = data.credentialIds as string[];
            enrolled.linked_accounts = enrolled.linked_accounts.map((a) =>
              a.type === "passkey" ? { ...a, enrolled_in_mfa: ids.includes(a.credential_id) } : a,
            );
          }
          return { user: enrolled };
        }
        case "privy:mfa:unenroll": {
          spend();
          const left = withMethods(
            user(),
            methods().filter((m) => m !== data.method),
          );
          if (data.method === "passkey" && data.removeForLogin) {
            left.linked_accounts = left.linked_accounts.filter((a) => a.type !== "passkey");
          }
          return { user: left };
        }
        case "privy:auth:unlink-passkey": {
          spend();
          const u = user();
          const linked = u.linked_accounts.filter(
            (a) => !(a.type === "passkey" && a.credential_id === data.credentialId),
          );
          const stillPasskeys = linked.some((a) => a.type === "passkey" && a.enrolled_in_mfa);
          return {
            user: withMethods(
              { ...u, linked_accounts: linked },
              methods().filter((m) => m !== "passkey" || stillPasskeys),
            ),
          };
        }
        default:
          return undefined;
      }
    },
  };
}
