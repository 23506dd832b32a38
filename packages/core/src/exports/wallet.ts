// The embedded Ethereum wallet and the chain, the parts without viem: creation, confirmation, errors,
// types. Signing, sending, providers and balances (viem-backed) are in `@symbolon/core/wallet`
// (src/wallet.ts), so a bundle that only logs in does not carry them.
export type { ChainConfig } from "../chain/ChainConfig.ts";
export { rpcRequest } from "../chain/rpcRequest.ts";
export {
  setWalletConfirmation,
  USER_REJECTED_MESSAGE,
  type WalletConfirmationHandler,
  type WalletConfirmationRequest,
} from "../wallet/confirmation.ts";
export { describeChainError } from "../wallet/describeChainError.ts";
export { type DescribeWalletErrorOptions, describeWalletError } from "../wallet/describeWalletError.ts";
export { embeddedWalletState } from "../wallet/embeddedWalletState.ts";
export { getEmbeddedWallets, type WalletLinkedAccount } from "../wallet/embeddedWallets.ts";
export type { GetEthereumProviderOptions } from "../wallet/ethereumProvider.ts";
export type { FilledTransaction, TransactionRequest } from "../wallet/fillTransaction.ts";
export { isProviderRpcError, ProviderRpcError, unsupportedChainMessage } from "../wallet/ProviderRpcError.ts";
export type {
  EIP1193Provider,
  EmbeddedChainType,
  EmbeddedWallet,
  EmbeddedWalletState,
  EmbeddedWalletStatus,
  ProviderEvent,
  RequestArguments,
  WalletUiOptions,
} from "../wallet/types.ts";
