// Checks of the `data` fields the handlers read.
import type { EntropyIdVerifier } from "../../core/src/generated/protocol.ts";
import { FrameError } from "./frameError.ts";
import { sessionOf, type TokenSession } from "./jwt.ts";

/** The caller's access token, the user id (`sub`) in it and its session claims. */
export function requireSession(data: Record<string, unknown>): {
  token: string;
  userId: string;
  session: TokenSession;
} {
  const token = data.accessToken;
  if (typeof token !== "string" || token === "") {
    throw new FrameError("attempted_rpc_call_before_logged_in", "Missing access token");
  }
  const session = sessionOf(token);
  if (session === null) throw new FrameError("invalid_input", "Invalid access token");
  return { token, userId: session.userId, session };
}

/**
 * {@link requireSession}, entered into `wallets` first: an expired token or a new session
 * forgets unlocked keys before anything else runs.
 */
export function enterSession(
  wallets: { enter(session: TokenSession): void },
  data: Record<string, unknown>,
): ReturnType<typeof requireSession> {
  const current = requireSession(data);
  wallets.enter(current.session);
  return current;
}

/** The only `entropyIdVerifier` the frame serves: the entropy is named by its index 0's address. */
export const ETHEREUM_ENTROPY_VERIFIER: EntropyIdVerifier = "ethereum-address-verifier";

/**
 * `data.entropyId` (the address of the wallet's index 0: 0x + 40 hex characters) with
 * `data.entropyIdVerifier` `ethereum-address-verifier`.
 */
export function requireEntropyId(data: Record<string, unknown>): string {
  if (data.entropyIdVerifier !== ETHEREUM_ENTROPY_VERIFIER) {
    throw new FrameError(
      "invalid_input",
      `Unsupported entropyIdVerifier: ${String(data.entropyIdVerifier)} (expected ${ETHEREUM_ENTROPY_VERIFIER})`,
    );
  }
  const entropyId = data.entropyId;
  if (typeof entropyId !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(entropyId)) {
    throw new FrameError("invalid_input", `Invalid entropyId: ${String(entropyId)}`);
  }
  return entropyId;
}

/** `data.hdWalletIndex`: an integer from `min` (default 0) to 2^31 − 1. */
export function requireHdWalletIndex(data: Record<string, unknown>, min = 0): number {
  const index = data.hdWalletIndex;
  if (typeof index !== "number" || !Number.isInteger(index) || index < min || index > 0x7fffffff) {
    throw new FrameError("invalid_input", `hdWalletIndex must be an integer ≥ ${min}`);
  }
  return index;
}

/** `chainType` and `recoveryMethod`, when given, must be the ones supported. */
export function checkWalletOptions(data: Record<string, unknown>): void {
  if (data.chainType != null && data.chainType !== "ethereum") {
    throw new FrameError("invalid_input", `Unsupported chain type: ${String(data.chainType)}`);
  }
  if (data.recoveryMethod != null && data.recoveryMethod !== "privy") {
    throw new FrameError("invalid_input", `Unsupported recovery method: ${String(data.recoveryMethod)}`);
  }
}
