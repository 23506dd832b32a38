//! The auth-share key and the recovery key: from configuration, or (dev and tests) from files
//! generated once in the key directory. Never stored in the database.

use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use zeroize::Zeroizing;

use crate::config::Redacted;
use crate::random::random_bytes;

/// Bytes in a share key.
pub const SHARE_KEY_LEN: usize = 32;

/// A share key could not be loaded or created.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShareKeyError {
    /// The configured (or stored) value is not base64 of 32 bytes.
    #[error("{name} must be base64 of 32 bytes (openssl rand -base64 32)")]
    Malformed {
        /// Which key.
        name: &'static str,
    },
    /// Both keys are the same: one leak would then open both shares.
    #[error("SYMBOLON_AUTH_SHARE_KEY and SYMBOLON_RECOVERY_SHARE_KEY must differ")]
    Identical,
    /// The key file could not be read or written.
    #[error("cannot use key file {path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The CSPRNG failed.
    #[error(transparent)]
    Random(#[from] crate::random::RandomError),
}

/// One share key and where it came from.
pub struct ShareKey {
    /// The key bytes.
    pub bytes: Zeroizing<[u8; SHARE_KEY_LEN]>,
}

impl std::fmt::Debug for ShareKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ShareKey(<redacted>)")
    }
}

/// Which key: its environment variable and its file name in the key directory.
#[derive(Debug, Clone, Copy)]
pub struct KeySlot {
    /// `SYMBOLON_…`.
    pub env: &'static str,
    /// File name under the key directory.
    pub file: &'static str,
}

/// The auth-share key.
pub const AUTH_SHARE_KEY: KeySlot = KeySlot {
    env: "SYMBOLON_AUTH_SHARE_KEY",
    file: "auth-share.key",
};

/// The recovery key.
pub const RECOVERY_SHARE_KEY: KeySlot = KeySlot {
    env: "SYMBOLON_RECOVERY_SHARE_KEY",
    file: "recovery-share.key",
};

/// The configured key, or the one in `key_dir` (created at first use, mode 0600).
pub fn load_share_key(
    slot: KeySlot,
    configured: Option<&Redacted>,
    key_dir: &Path,
) -> Result<ShareKey, ShareKeyError> {
    if let Some(value) = configured {
        return decode(slot, &value.0);
    }
    let path = key_dir.join(slot.file);
    let text = match read_key_file(&path)? {
        Some(text) => text,
        None => create_key_file(&path)?,
    };
    tracing::warn!(
        path = %path.display(),
        "{} is not set: using a key file. Production should set it, kept apart from the database and its backups",
        slot.env
    );
    decode(slot, &text)
}

fn decode(slot: KeySlot, text: &str) -> Result<ShareKey, ShareKeyError> {
    let malformed = || ShareKeyError::Malformed { name: slot.env };
    let raw = Zeroizing::new(STANDARD.decode(text.trim()).map_err(|_| malformed())?);
    let bytes: [u8; SHARE_KEY_LEN] = raw.as_slice().try_into().map_err(|_| malformed())?;
    Ok(ShareKey {
        bytes: Zeroizing::new(bytes),
    })
}

fn read_key_file(path: &Path) -> Result<Option<Zeroizing<String>>, ShareKeyError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(Zeroizing::new(text))),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ShareKeyError::File {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Writes a fresh key to a private temporary file, then links it into place: the link fails if
/// the key exists, so two servers starting at once agree on one key, and no reader ever sees a
/// half-written file.
fn create_key_file(path: &Path) -> Result<Zeroizing<String>, ShareKeyError> {
    let file_error = |source| ShareKeyError::File {
        path: path.to_path_buf(),
        source,
    };
    let text = Zeroizing::new(STANDARD.encode(random_bytes::<SHARE_KEY_LEN>()?));
    let temp = path.with_extension(format!("tmp-{}", crate::random::random_id(12)?));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options.open(&temp).and_then(|mut file| {
        file.write_all(format!("{}\n", text.as_str()).as_bytes())?;
        file.sync_all()
    });
    let linked = written.and_then(|()| std::fs::hard_link(&temp, path));
    let _ = std::fs::remove_file(&temp);
    match linked {
        Ok(()) => {
            tracing::warn!(path = %path.display(), "generated a new share key");
            Ok(text)
        }
        // Another process created it first: use theirs.
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            read_key_file(path)?.ok_or_else(|| file_error(e))
        }
        Err(e) => Err(file_error(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "symbolon-keys-{}",
            crate::random::random_id(12).expect("id")
        ));
        std::fs::create_dir_all(&dir).expect("dir");
        dir
    }

    #[test]
    fn configured_keys_must_be_32_bytes_of_base64() {
        let dir = temp_dir();
        let short = Redacted(STANDARD.encode([7u8; 16]));
        let err = load_share_key(AUTH_SHARE_KEY, Some(&short), &dir).expect_err("short");
        assert_eq!(
            err.to_string(),
            "SYMBOLON_AUTH_SHARE_KEY must be base64 of 32 bytes (openssl rand -base64 32)"
        );
        let garbage = Redacted("not base64!".into());
        assert!(matches!(
            load_share_key(RECOVERY_SHARE_KEY, Some(&garbage), &dir),
            Err(ShareKeyError::Malformed {
                name: "SYMBOLON_RECOVERY_SHARE_KEY"
            })
        ));
        let good = Redacted(STANDARD.encode([7u8; 32]));
        let key = load_share_key(AUTH_SHARE_KEY, Some(&good), &dir).expect("good");
        assert_eq!(*key.bytes, [7u8; 32]);
        assert!(
            !dir.join("auth-share.key").exists(),
            "no file when configured"
        );
        assert_eq!(format!("{key:?}"), "ShareKey(<redacted>)");
    }

    #[test]
    fn unset_keys_are_generated_once_into_private_files() {
        let dir = temp_dir();
        let first = load_share_key(AUTH_SHARE_KEY, None, &dir).expect("create");
        let again = load_share_key(AUTH_SHARE_KEY, None, &dir).expect("reuse");
        assert_eq!(*first.bytes, *again.bytes);
        let recovery = load_share_key(RECOVERY_SHARE_KEY, None, &dir).expect("recovery");
        assert_ne!(*first.bytes, *recovery.bytes);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join("auth-share.key"))
                .expect("meta")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unreadable_key_dir_is_a_clear_error() {
        let missing = std::env::temp_dir().join("symbolon-no-such-dir/deeper");
        let err = load_share_key(AUTH_SHARE_KEY, None, &missing).expect_err("missing dir");
        assert!(err.to_string().starts_with("cannot use key file "), "{err}");
    }
}
