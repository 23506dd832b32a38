//! How the server normalises the identifiers users sign in with, so that stored values and
//! request values compare equal: email addresses and wallet addresses (phone numbers: `sms::phone`).

pub mod email;
pub mod wallet_address;
