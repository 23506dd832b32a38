pub mod verifier;
