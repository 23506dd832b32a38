// Checks of the `data` fields the handlers read.
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

/** `data.address`: 0x + 40 hex characters. */
export function requireAddress(data: Record<string, unknown>): string {
  const address = data.address;
  if (typeof address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw new FrameError("invalid_input", `Invalid address: ${String(address)}`);
  }
  return address;
}

/** `chainType` and `recoveryMethod`, when given, must be the ones supported. */
export function checkWalletOptions(data: Record<string, unknown>): void {
  if (data.chainType !== undefined && data.chainType !== "ethereum") {
    throw new FrameError("invalid_input", `Unsupported chain type: ${String(data.chainType)}`);
  }
  if (data.recoveryMethod !== undefined && data.recoveryMethod !== "privy") {
    throw new FrameError("invalid_input", `Unsupported recovery method: ${String(data.recoveryMethod)}`);
  }
}

/** `data.walletIndex` of an additional wallet: an integer ≥ 1. */
export function requireAdditionalIndex(data: Record<string, unknown>): number {
  const index = data.walletIndex;
  if (typeof index !== "number" || !Number.isInteger(index) || index < 1 || index > 0x7fffffff) {
    throw new FrameError("invalid_input", "walletIndex must be a positive integer");
  }
  return index;
}
