//! Login methods, one folder each. A method proves an identity (a code, a token, a signature)
//! and hands it to the account rules (`crate::accounts`); its routes stay thin.

pub mod code;
pub mod custom_jwt;
pub mod email;
pub mod guest;
pub mod sms;
