// Event name → handler for the hidden wallet frame (docs/wallet.md "Frame messages"): the events
// and shapes the published react-auth 3.x client posts, which our own client posts too.
import type { EntropyAnswer, RpcAnswer } from "../../core/src/generated/protocol.ts";
import { FrameError, toFrameError } from "./frameError.ts";
import type { Handler } from "./messages.ts";
import { type MfaDeps, mfaHandlers } from "./mfa/mfaHandlers.ts";
import { checkWalletOptions, enterSession, requireEntropyId, requireHdWalletIndex } from "./requestData.ts";
import { parseRpcRequest, signRpc } from "./rpc.ts";
import type { WalletService } from "./wallets.ts";

export function walletHandlers(wallets: WalletService, mfa: MfaDeps): Record<string, Handler> {
  const { handlers: mfaEvents, verifyInline } = mfaHandlers(wallets, mfa);
  // Every call with a token first ties the frame's unlocked keys to that token's session; a call
  // that carries an MFA code (`mfaMethod`, `mfaCode`: how the published client retries after
  // `missing_or_invalid_mfa`) is verified first, and the token kept for the key release.
  const session = (data: Record<string, unknown>) => enterSession(wallets, data);
  const verified = async (current: ReturnType<typeof session>, data: Record<string, unknown>) => {
    await verifyInline(current.token, current.session, data);
    return current;
  };
  return {
    "privy:iframe:ready": () => ({}),
    "privy:wallet:create": async (data) => {
      const current = session(data);
      checkWalletOptions(data);
      const { token, userId } = await verified(current, data);
      return wallets.create(token, userId);
    },
    "privy:wallets:add": async (data) => {
      const current = session(data);
      checkWalletOptions(data);
      const entropyId = requireEntropyId(data);
      const index = requireHdWalletIndex(data, 1);
      const { token, userId } = await verified(current, data);
      return wallets.add(token, userId, entropyId, index);
    },
    "privy:wallets:connect": async (data) => {
      const current = session(data);
      const entropyId = requireEntropyId(data);
      const { token, userId } = await verified(current, data);
      const connected = await wallets.connect(token, userId, entropyId);
      if (!connected.unlocked) {
        // The published client recovers (`privy:wallets:recover`) on exactly this type.
        throw new FrameError("wallet_not_on_device", "The wallet's device share is not on this device");
      }
      return { entropyId: connected.address } satisfies EntropyAnswer;
    },
    "privy:wallets:recover": async (data) => {
      const current = session(data);
      const entropyId = requireEntropyId(data);
      const { token, userId } = await verified(current, data);
      const { address } = await wallets.recover(token, userId, entropyId);
      return { entropyId: address } satisfies EntropyAnswer;
    },
    "privy:wallets:rpc": async (data) => {
      const current = session(data);
      checkWalletOptions(data);
      const entropyId = requireEntropyId(data);
      const index = requireHdWalletIndex(data);
      const request = parseRpcRequest(data.request);
      const { token, userId } = await verified(current, data);
      try {
        // Unlocked: signs synchronously, no network. Locked: connect (and recover) first.
        const signature = await wallets.use(token, userId, entropyId, index, (signer) =>
          signRpc(signer, request),
        );
        return { response: { method: request.method, data: signature } } satisfies RpcAnswer;
      } catch (error) {
        throw toFrameError(error, "embedded_wallet_request_error");
      }
    },
    ...mfaEvents,
    // Sign-out: the published client posts only this, so it also frees every unlocked key.
    "privy:mfa:clear": () => {
      wallets.clear();
      mfa.tokens.forgetAll();
      return {};
    },
  };
}
