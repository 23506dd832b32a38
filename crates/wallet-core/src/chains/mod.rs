//! One module per chain: what turns the chain-neutral entropy into that chain's wallets.
//!
//! A chain module owns its derivation path (from the user's one entropy, through the BIP-39 seed),
//! its key, address and signature types, and the signing its wallets offer. Nothing outside
//! `chains/<chain>` knows a chain's formats, so adding one (Solana: SLIP-0010 ed25519 at
//! `m/44'/501'/i'/0'`) is one new module here plus its methods in the wasm bindings.

pub mod ethereum;
