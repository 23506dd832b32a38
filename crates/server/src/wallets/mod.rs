//! Embedded wallets (`docs/wallet.md`): the wallet frame's share endpoints — a challenge for
//! signed calls, register a wallet with its root shares, read the root shares back, replace them
//! after a re-split.
//!
//! The server never sees the entropy or a device share: it stores the auth and recovery shares
//! of the user's root entropy, each sealed under its own key (`crate::keys`) and bound to the root
//! (index 0) wallet's address and the user, and the frame's device public key beside the auth
//! share.
//!
//! A bearer token alone releases nothing: the auth share needs the device key's signature of a
//! fresh nonce; the recovery share needs a session that signed in within the last 10 minutes
//! with a fresh proof and has not recovered yet; registering or replacing shares needs the wallet
//! key's signature, and registering the root wallet a fresh sign-in too.
//! Every release and refusal is logged under the `symbolon::audit` target ([`audit`]).
//!
//! [`routes`] only reads the request; the rules are in [`service`], which takes no HTTP types.
//! What both read is [`deps`].
//! Wallets made before the user's first sign-in: [`pregenerate`]; moved from another server: [`moves`].
//! Per chain: [`chains`] (Ethereum now); per recovery method: [`recovery`] (automatic now).

pub mod audit;
pub mod chains;
pub mod challenges;
pub mod deps;
pub mod frame_page;
pub mod limits;
pub mod moves;
pub mod pregenerate;
pub mod proofs;
pub mod recovery;
pub mod refusals;
pub mod routes;
pub mod service;
pub mod shares;
