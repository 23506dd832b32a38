// Checks of the `data` fields the handlers read.
import type { ChainSigner } from "./chains/ChainSigner.ts";
import { CHAINS, DEFAULT_CHAIN } from "./chains/chains.ts";
import { FrameError } from "./frameError.ts";
import { sessionOf, type TokenSession } from "./jwt.ts";
import type { WalletRef } from "./wallets.ts";

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

/**
 * The wallet `data` names: `data.entropyIdVerifier` picks the chain, `data.entropyId` (the address
 * of the wallet's index 0) must be one of its addresses, and a `data.chainType` must be that chain.
 */
export function requireWallet(data: Record<string, unknown>): WalletRef {
  const chains = [...CHAINS.values()];
  const chain = chains.find((candidate) => candidate.entropyIdVerifier === data.entropyIdVerifier);
  if (chain === undefined) {
    const expected = chains.map((candidate) => candidate.entropyIdVerifier).join(" or ");
    throw new FrameError(
      "invalid_input",
      `Unsupported entropyIdVerifier: ${String(data.entropyIdVerifier)} (expected ${expected})`,
    );
  }
  const entropyId = data.entropyId;
  if (typeof entropyId !== "string" || !chain.isAddress(entropyId)) {
    throw new FrameError("invalid_input", `Invalid entropyId: ${String(entropyId)}`);
  }
  if (data.chainType != null && data.chainType !== chain.chainType) {
    throw new FrameError(
      "invalid_input",
      `chainType ${String(data.chainType)} does not match entropyIdVerifier ${chain.entropyIdVerifier}`,
    );
  }
  return { chain, entropyId };
}

/** `data.hdWalletIndex`: an integer from `min` (default 0) to 2^31 − 1. */
export function requireHdWalletIndex(data: Record<string, unknown>, min = 0): number {
  const index = data.hdWalletIndex;
  if (typeof index !== "number" || !Number.isInteger(index) || index < min || index > 0x7fffffff) {
    throw new FrameError("invalid_input", `hdWalletIndex must be an integer ≥ ${min}`);
  }
  return index;
}

/** The chain `chainType` names (absent: the protocol's default, Ethereum). */
export function requireChain(chainType: unknown): ChainSigner {
  const chain =
    chainType == null ? DEFAULT_CHAIN : typeof chainType === "string" ? CHAINS.get(chainType) : undefined;
  if (chain === undefined)
    throw new FrameError("invalid_input", `Unsupported chain type: ${String(chainType)}`);
  return chain;
}

/** `chainType` and `recoveryMethod`, when given, must be ones supported; the chain meant. */
export function checkWalletOptions(data: Record<string, unknown>): ChainSigner {
  const chain = requireChain(data.chainType);
  if (data.recoveryMethod != null && data.recoveryMethod !== "privy") {
    throw new FrameError("invalid_input", `Unsupported recovery method: ${String(data.recoveryMethod)}`);
  }
  return chain;
}
