// Ethereum (docs/wallet.md `privy:wallets:rpc`): EIP-55 addresses, `personal_sign` proofs, and the
// signing methods the host may ask for. Runs on an already unlocked wallet: no network, no storage.
import { FrameError } from "../frameError.ts";
import type { ChainSigner } from "./ChainSigner.ts";

export const ethereum: ChainSigner = {
  chainType: "ethereum",
  entropyIdVerifier: "ethereum-address-verifier",
  isAddress: (text) => /^0x[0-9a-fA-F]{40}$/.test(text),
  addressKey: (address) => address.toLowerCase(),
  address: (wallet, index) => wallet.address(index),
  split: (wallet, deviceKey, userId) => wallet.split(deviceKey, userId),
  signProof: (wallet, index, message) => wallet.personalSign(index, message, "utf-8"),
  methods: new Set(["personal_sign", "eth_signTypedData_v4", "eth_signTransaction"]),
  signRpc({ wallet, index, address }, { method, params }) {
    switch (method) {
      case "personal_sign": {
        const [message, from] = params;
        if (typeof message !== "string") {
          throw new FrameError("invalid_input", "personal_sign expects params [message, address]");
        }
        checkAddress(from, address);
        // Like viem and Privy: a 0x-hex message is bytes, anything else is text.
        return wallet.personalSign(index, message, /^0x[0-9a-fA-F]*$/.test(message) ? "hex" : "utf-8");
      }
      case "eth_signTypedData_v4": {
        const [from, typedData] = params;
        if (typeof typedData !== "string" && (typeof typedData !== "object" || typedData === null)) {
          throw new FrameError("invalid_input", "eth_signTypedData_v4 expects params [address, typedData]");
        }
        checkAddress(from, address);
        return wallet.signTypedData(index, typeof typedData === "string" ? typedData : toJson(typedData));
      }
      default: {
        const [transaction] = params;
        if (typeof transaction !== "object" || transaction === null || Array.isArray(transaction)) {
          throw new FrameError("invalid_input", "eth_signTransaction expects params [transaction]");
        }
        return wallet.signTransaction(index, toJson(transaction)).raw;
      }
    }
  },
  exportPrivateKey: (wallet, index) => wallet.exportPrivateKey(index),
};

/** A params address, when given, must be the wallet the request is for. */
function checkAddress(given: unknown, address: string): void {
  if (typeof given === "string" && given.toLowerCase() !== address.toLowerCase()) {
    throw new FrameError("invalid_input", `Address ${given} does not match the wallet ${address}`);
  }
}

/** JSON for the wasm parser; bigints (structured clone keeps them) become decimal strings. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item));
}
