/**
 * `@symbolon/core/wallet`: the wallet actions that need viem (parameter validation, transaction
 * filling, ABI encoding). A separate entry so bundlers can load it lazily: `@symbolon/core` itself
 * stays viem-free. Types and the viem-free wallet parts (createWallet, exportWallet,
 * setWalletConfirmation, ProviderRpcError, …) are exported from `@symbolon/core`.
 */
export { crossAppSendTransaction } from "./actions/crossAppSendTransaction.ts";
export { sendTransaction } from "./actions/sendTransaction.ts";
export { signMessage } from "./actions/signMessage.ts";
export { signTypedData } from "./actions/signTypedData.ts";
export { getBalances, MULTICALL3_ADDRESS } from "./chain/getBalances.ts";
export { getEthereumProvider } from "./wallet/ethereumProvider.ts";
