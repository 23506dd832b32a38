// Event name → handler for the hidden wallet frame (docs/wallet.md "Frame messages").
import { toFrameError } from "./frameError.ts";
import type { Handler } from "./messages.ts";
import { type MfaDeps, mfaHandlers } from "./mfa/mfaHandlers.ts";
import { checkWalletOptions, enterSession, requireAdditionalIndex, requireAddress } from "./requestData.ts";
import { parseRpcRequest, signRpc } from "./rpc.ts";
import type { WalletService } from "./wallets.ts";

export function walletHandlers(wallets: WalletService, mfa: MfaDeps): Record<string, Handler> {
  // Every call with a token first ties the frame's unlocked keys to that token's session.
  const session = (data: Record<string, unknown>) => enterSession(wallets, data);
  return {
    "privy:iframe:ready": () => ({}),
    "privy:wallet:create": (data) => {
      checkWalletOptions(data);
      const { token, userId } = session(data);
      return wallets.create(token, userId);
    },
    "privy:wallets:add": (data) => {
      checkWalletOptions(data);
      const { token, userId } = session(data);
      return wallets.add(token, userId, requireAdditionalIndex(data));
    },
    "privy:connect": (data) => {
      const { token, userId } = session(data);
      return wallets.connect(token, userId, requireAddress(data));
    },
    "privy:recover": (data) => {
      const { token, userId } = session(data);
      return wallets.recover(token, userId, requireAddress(data));
    },
    "privy:rpc": async (data) => {
      const { token, userId } = session(data);
      const address = requireAddress(data);
      const request = parseRpcRequest(data.request);
      try {
        // Unlocked: signs synchronously, no network. Locked: connect (and recover) first.
        const signature = await wallets.use(token, userId, address, (signer) =>
          signRpc(signer, address, request),
        );
        return { method: request.method, data: signature };
      } catch (error) {
        throw toFrameError(error, "embedded_wallet_request_error");
      }
    },
    ...mfaHandlers(wallets, mfa),
    "privy:clear": () => {
      wallets.clear();
      mfa.tokens.forgetAll();
      return {};
    },
  };
}
