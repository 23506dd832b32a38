// Well-known keys for local use only (never for real funds). Anvil's dev accounts come from its public test
// mnemonic; account 0 funds the local chain and account 1 is the e2e recipient, so the test wallet takes #2.

/** Anvil's dev account #2 (0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC). */
export const DEV_ETHEREUM_KEY = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
/** Anvil's dev account #3 (0x90F79bf6EB2c4f870365E785982E1f101E93b906). */
export const DEV_ETHEREUM_KEY_2 = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
/** A fixed ed25519 seed for the Solana test wallet in `make dev`. */
export const DEV_SOLANA_KEY = "0x5973796d626f6c6f6e2d746573742d736f6c616e612d77616c6c65742d303031";
