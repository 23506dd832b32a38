//! The schema's migrations, embedded in the binary.
//!
//! Listed by hand instead of `sqlx::migrate!`: that macro needs sqlx's macro crate, which compiles SQLite and
//! the Postgres driver a second time for the compiler — about a quarter of a cold build. The version,
//! description and checksum come out as the macro makes them (the checksum is the SHA-384 of the file), so
//! databases migrated by earlier builds match. A test checks this list against the directory.

use std::borrow::Cow;

use sqlx::SqlSafeStr;
use sqlx::migrate::{Migration, MigrationType, Migrator};

macro_rules! migrations {
    ($($version:literal $name:literal),* $(,)?) => {
        /// `(version, file name, SQL)` of every migration, in order.
        pub const FILES: &[(i64, &str, &str)] = &[
            $(($version, concat!($name, ".sql"), include_str!(concat!("../../migrations/", $name, ".sql")))),*
        ];
    };
}

migrations! {
    1 "0001_init",
    2 "0002_embedded_wallets",
    3 "0003_hardening",
    4 "0004_wallet_proofs",
    5 "0005_origins",
    6 "0006_accounts",
    7 "0007_oauth",
    8 "0008_farcaster",
    9 "0009_cross_app",
    10 "0010_wallet_nonces",
    11 "0011_passkeys",
    12 "0012_mfa",
    13 "0013_fresh_sign_in",
    14 "0014_code_networks",
    15 "0015_wallet_and_oauth_proofs",
    16 "0016_mfa_lock_backoff",
    17 "0017_mfa_signing_window",
    18 "0018_challenges",
    19 "0019_rate_limits",
    20 "0020_api_secrets",
    21 "0021_custom_metadata",
    22 "0022_idempotency_keys",
    24 "0024_policies",
    25 "0025_key_quorums",
    26 "0026_webhooks",
    27 "0027_delegations",
    28 "0028_aggregations",
}

/// The migrator over [`FILES`]; `below` keeps only versions under it (tests rebuild older schemas).
pub fn migrator(below: Option<i64>) -> Migrator {
    Migrator::with_migrations(
        FILES
            .iter()
            .filter(|(version, _, _)| below.is_none_or(|limit| *version < limit))
            .map(|&(version, file, sql)| {
                // "0005_origins.sql" → "origins", as sqlx names it (underscores become spaces).
                let description = file
                    .split_once('_')
                    .map_or(file, |(_, rest)| rest)
                    .trim_end_matches(".sql")
                    .replace('_', " ");
                Migration::new(
                    version,
                    Cow::Owned(description),
                    MigrationType::Simple,
                    sql.into_sql_str(),
                    false,
                )
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_in_the_directory_is_listed_once_in_order() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".sql"))
            .collect();
        on_disk.sort();
        let listed: Vec<String> = FILES.iter().map(|(_, file, _)| file.to_string()).collect();
        assert_eq!(
            listed, on_disk,
            "add the new migration to migrations! in src/db/migrations.rs"
        );
        for (version, file, _) in FILES {
            assert_eq!(
                file.split('_').next().and_then(|v| v.parse().ok()),
                Some(*version)
            );
        }
    }

    #[test]
    fn versions_descriptions_and_checksums_are_sqlx_s() {
        let all = migrator(None);
        let first = &all.migrations[0];
        assert_eq!((first.version, first.description.as_ref()), (1, "init"));
        let wallets = &all.migrations[1];
        assert_eq!(wallets.description, "embedded wallets");
        // sqlx's checksum: SHA-384 of the SQL text.
        use sha2::{Digest, Sha384};
        assert_eq!(
            first.checksum.as_ref(),
            &Sha384::digest(FILES[0].2.as_bytes())[..]
        );
        assert_eq!(migrator(Some(5)).migrations.len(), 4);
    }
}
