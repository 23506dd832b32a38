// Event name → handler for the hidden wallet frame (docs/wallet.md "Frame messages"): the events
// and shapes the published react-auth 3.x client posts, which our own client posts too.
import type {
  DelegateWalletRequest,
  DelegateWalletResponse,
  EntropyAnswer,
  RpcAnswer,
} from "../../core/src/generated/protocol.ts";
import { FrameError, toFrameError } from "./frameError.ts";
import type { Handler } from "./messages.ts";
import { type MfaDeps, mfaHandlers } from "./mfa/mfaHandlers.ts";
import { checkWalletOptions, enterSession, requireHdWalletIndex, requireWallet } from "./requestData.ts";
import { parseRpcRequest } from "./rpc.ts";
import type { WalletService } from "./wallets.ts";

export function walletHandlers(wallets: WalletService, mfa: MfaDeps): Record<string, Handler> {
  const { handlers: mfaEvents, verifyInline, spendToken } = mfaHandlers(wallets, mfa);
  /**
   * A wallet event: the token's session is entered first (an expired token or a new session
   * forgets unlocked keys), then `parse` checks the data, then an MFA code the call carries
   * (`mfaMethod`, `mfaCode`: how the published client retries after `missing_or_invalid_mfa`) is
   * verified and its token kept for the key release, then `run`.
   */
  const walletEvent =
    <T>(
      parse: (data: Record<string, unknown>) => T,
      run: (token: string, userId: string, input: T) => unknown,
    ) =>
    async (data: Record<string, unknown>) => {
      const { token, userId, session } = enterSession(wallets, data);
      const input = parse(data);
      await verifyInline(token, session, data);
      return run(token, userId, input);
    };
  return {
    "privy:iframe:ready": () => ({}),
    "privy:wallet:create": walletEvent(checkWalletOptions, (token, userId, chain) =>
      wallets.create(token, userId, chain),
    ),
    "privy:wallets:add": walletEvent(
      (data) => {
        checkWalletOptions(data);
        return { wallet: requireWallet(data), index: requireHdWalletIndex(data, 1) };
      },
      (token, userId, { wallet, index }) => wallets.add(token, userId, wallet, index),
    ),
    "privy:wallets:connect": walletEvent(requireWallet, async (token, userId, wallet) => {
      const connected = await wallets.connect(token, userId, wallet);
      if (!connected.unlocked) {
        // The published client recovers (`privy:wallets:recover`) on exactly this type.
        throw new FrameError("wallet_not_on_device", "The wallet's device share is not on this device");
      }
      return { entropyId: connected.address } satisfies EntropyAnswer;
    }),
    "privy:wallets:recover": walletEvent(requireWallet, async (token, userId, wallet) => {
      const { address } = await wallets.recover(token, userId, wallet);
      return { entropyId: address } satisfies EntropyAnswer;
    }),
    "privy:wallets:rpc": walletEvent(
      (data) => {
        checkWalletOptions(data);
        const wallet = requireWallet(data);
        return {
          wallet,
          index: requireHdWalletIndex(data),
          request: parseRpcRequest(data.request, wallet.chain),
        };
      },
      async (token, userId, { wallet, index, request }) => {
        try {
          // Unlocked: signs synchronously, no network. Locked: connect (and recover) first. The
          // wallet's chain signs.
          const signature = await wallets.use(token, userId, wallet, index, (signer) =>
            wallet.chain.signRpc(signer, request),
          );
          return { response: { method: request.method, data: signature } } satisfies RpcAnswer;
        } catch (error) {
          throw toFrameError(error, "embedded_wallet_request_error");
        }
      },
    ),
    // Delegated actions: the wallets' keys sealed to the app's signer, over the same-origin POST the
    // MFA handlers use. Its code and HPKE load on the first consent (a chunk of their own); then as
    // `walletEvent`: session, data checks, an inline MFA code, the work.
    "privy:delegated-actions:consent": async (data) => {
      const { token, userId, session } = enterSession(wallets, data);
      const { delegateWallets, parseDelegationRequest } = await import("./delegation/delegation.ts");
      const request = parseDelegationRequest(data);
      await verifyInline(token, session, data);
      // The consent goes with the held MFA token: the server guards it like an export.
      const postConsent = (body: DelegateWalletRequest) =>
        spendToken<DelegateWalletResponse>(token, session, "/delegated_actions", body);
      return delegateWallets(
        { wallets, post: mfa.post, postConsent, appId: mfa.appId },
        token,
        userId,
        request,
      );
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
