// The wallet actions that need viem (validation, transaction filling, ABI encoding). Hooks load this
// module with import() on first use, so pages that only log in do not download them.
export {
  crossAppSendTransaction,
  getEthereumProvider,
  sendTransaction,
  signMessage,
  signTypedData,
} from "@symbolon/core/wallet";
