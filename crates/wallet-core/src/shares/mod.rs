//! Shamir 2-of-3 sharing of the wallet entropy (byte-wise over GF(256), `vsss-rs`).
//!
//! A share is `identifier || 16 bytes`; the identifier fixes its kind:
//! 1 = device, 2 = auth, 3 = recovery.

mod cipher;

use getrandom::SysRng;
use rand_core::UnwrapErr;
use vsss_rs::Gf256;
use zeroize::Zeroizing;

use crate::{ENTROPY_LEN, Entropy, Result, WalletError};

pub use cipher::{ShareAad, decrypt_share, encrypt_share};

/// Shares needed to rebuild the entropy.
const THRESHOLD: usize = 2;
/// Shares created.
const SHARE_COUNT: usize = 3;
/// Bytes in one share: identifier plus one byte per entropy byte.
const SHARE_LEN: usize = ENTROPY_LEN + 1;

/// Who holds a share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShareKind {
    /// Kept by the wallet frame, encrypted under a key only the frame holds.
    Device,
    /// Stored by the server, released after authentication.
    Auth,
    /// Protected by the wallet's recovery method: for automatic recovery (`privy`) the server
    /// stores it under its own recovery key, apart from the auth share; user-owned methods
    /// (passcode, cloud backup) will keep it with the user.
    Recovery,
}

impl ShareKind {
    /// The Shamir identifier (x coordinate) of this kind's share.
    pub fn identifier(self) -> u8 {
        match self {
            Self::Device => 1,
            Self::Auth => 2,
            Self::Recovery => 3,
        }
    }

    /// The wire name: `"device"`, `"auth"` or `"recovery"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Device => "device",
            Self::Auth => "auth",
            Self::Recovery => "recovery",
        }
    }

    /// Parses a wire name.
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "device" => Ok(Self::Device),
            "auth" => Ok(Self::Auth),
            "recovery" => Ok(Self::Recovery),
            other => Err(WalletError::InvalidShare(
                ["unknown share kind \"", other, "\""].concat(),
            )),
        }
    }

    fn from_identifier(identifier: u8) -> Result<Self> {
        match identifier {
            1 => Ok(Self::Device),
            2 => Ok(Self::Auth),
            3 => Ok(Self::Recovery),
            other => Err(WalletError::InvalidShare(
                ["unknown share identifier ", &other.to_string()].concat(),
            )),
        }
    }
}

/// One Shamir share (`identifier || value`), zeroized on drop.
#[derive(Clone, PartialEq, Eq)]
pub struct Share(Zeroizing<Vec<u8>>);

impl Share {
    /// Parses share bytes: 17 bytes with identifier 1, 2 or 3.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        if bytes.len() != SHARE_LEN {
            return Err(WalletError::InvalidShare(
                [&bytes.len().to_string(), " bytes, expected 17"].concat(),
            ));
        }
        ShareKind::from_identifier(bytes[0])?;
        Ok(Self(Zeroizing::new(bytes.to_vec())))
    }

    /// Which holder this share belongs to.
    pub fn kind(&self) -> ShareKind {
        // Validated on construction.
        ShareKind::from_identifier(self.0[0]).unwrap_or(ShareKind::Device)
    }

    /// The share bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl core::fmt::Debug for Share {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Share({}, ..)", self.kind().name())
    }
}

/// The three shares of one entropy.
#[derive(Clone, Debug)]
pub struct ShareSet {
    /// Share 1, for the device.
    pub device: Share,
    /// Share 2, for the server.
    pub auth: Share,
    /// Share 3, for user-owned recovery.
    pub recovery: Share,
}

/// Splits entropy into fresh device, auth and recovery shares (any two rebuild it).
/// Calling it again re-splits: the new shares do not combine with old ones.
pub fn split_entropy(entropy: &Entropy) -> Result<ShareSet> {
    // Probe the CSPRNG so a broken platform RNG is an error, not a panic in the adapter below.
    getrandom::fill(&mut [0u8; 1]).map_err(|_| WalletError::Randomness)?;
    let shares = Gf256::split_bytes(
        THRESHOLD,
        SHARE_COUNT,
        entropy.as_bytes(),
        UnwrapErr(SysRng),
    )
    .map_err(|_| WalletError::InvalidShare("splitting failed".into()))?;
    let shares = Zeroizing::new(shares);
    let share = |kind: ShareKind| -> Result<Share> {
        let bytes = shares
            .iter()
            .find(|s| s.first() == Some(&kind.identifier()))
            .ok_or_else(|| WalletError::InvalidShare("split lost a share".into()))?;
        Share::from_bytes(bytes)
    };
    Ok(ShareSet {
        device: share(ShareKind::Device)?,
        auth: share(ShareKind::Auth)?,
        recovery: share(ShareKind::Recovery)?,
    })
}

/// Rebuilds the entropy from at least two shares of different kinds.
pub fn combine_shares(shares: &[Share]) -> Result<Entropy> {
    if shares.len() < THRESHOLD {
        return Err(WalletError::NotEnoughShares);
    }
    for (i, a) in shares.iter().enumerate() {
        if shares[i + 1..].iter().any(|b| b.kind() == a.kind()) {
            return Err(WalletError::DuplicateShare(a.kind().name().to_owned()));
        }
    }
    let raw: Zeroizing<Vec<Vec<u8>>> =
        Zeroizing::new(shares.iter().map(|s| s.as_bytes().to_vec()).collect());
    let secret = Zeroizing::new(
        Gf256::combine_bytes(raw.as_slice())
            .map_err(|_| WalletError::InvalidShare("the shares do not combine".into()))?,
    );
    Entropy::from_bytes(&secret)
}

#[cfg(test)]
mod tests;
