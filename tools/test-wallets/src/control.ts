/**
 * The switchboard a test (or a developer in the console) uses: `window.symbolonTestWallet`. One object serves both
 * test wallets, so one `reject` switch covers them.
 */
export interface TestWalletControl {
  /** The Ethereum account's address (checksummed), or null when only the Solana wallet is installed. */
  address: `0x${string}` | null;
  /** The Ethereum wallet's current chain id (a number), or null. */
  chainId: number | null;
  /** The Solana account's address (base58), or null. */
  solanaAddress: string | null;
  /**
   * While true, every prompt (connect, sign, switch chain) answers 4001 "User rejected the request." (Solana: an
   * Error with code 4001). A list of method or feature names ("personal_sign", "solana:signMessage", …) rejects only
   * those. Stays set until the test clears it.
   */
  reject: boolean | string[];
  /** Every request the wallets received, in order (method names): lets a test see what the app asked for. */
  requests: string[];
  /** The messages the user was shown to sign (personal_sign, solana:signMessage) as text, in order. */
  messages: string[];
}

export const CONTROL_KEY = "symbolonTestWallet";

/** The page's control object, created on first use. */
export function controlOn(target: object): TestWalletControl {
  const holder = target as Record<string, TestWalletControl | undefined>;
  holder[CONTROL_KEY] ??= {
    address: null,
    chainId: null,
    solanaAddress: null,
    reject: false,
    requests: [],
    messages: [],
  };
  return holder[CONTROL_KEY];
}

/** Whether the test asked `method` to be refused. */
export function rejects(control: TestWalletControl, method: string): boolean {
  return Array.isArray(control.reject) ? control.reject.includes(method) : control.reject === true;
}
