//! The users API (`/v1/users…`).

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use reqwest::Method;
use serde::Serialize;
use serde_json::{Map, Value};
use symbolon_protocol::server_api::{
    CreateUserRequest, CustomAuthLookup, CustomMetadataRequest, EmailLookup, FarcasterLookup,
    ImportUserResult, ImportUsersRequest, ImportUsersResponse, PhoneLookup,
    PregenerateWalletsRequest, SubjectLookup, TelegramLookup, UnlinkAccountRequest, UserPage,
    UsernameLookup, WalletCreationInput, WalletLookup,
};
use symbolon_protocol::user::User;

use crate::client::{Client, RetryPolicy};

/// Users per `POST /v1/users/import` (the server's limit).
pub const IMPORT_BATCH: usize = 100;
use crate::error::{Error, Result};

/// Characters left as they are in a path segment (RFC 3986 unreserved); `:` of `did:privy:` is
/// encoded too, which the server decodes.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// One path segment, percent-encoded.
pub(crate) fn encode(segment: &str) -> String {
    utf8_percent_encode(segment, SEGMENT).to_string()
}

/// The users API of a [`Client`].
#[derive(Debug, Clone, Copy)]
pub struct Users<'a> {
    pub(crate) client: &'a Client,
}

/// A provider whose accounts are found by username.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsernameProvider {
    /// Twitter (X).
    Twitter,
    /// Discord.
    Discord,
    /// GitHub.
    Github,
    /// Telegram.
    Telegram,
}

impl Users<'_> {
    async fn expect<B: Serialize + ?Sized>(
        &self,
        method: Method,
        path: &str,
        body: Option<&B>,
        key: Option<&str>,
    ) -> Result<User> {
        self.client
            .call(method, path, body, key)
            .await?
            .ok_or_else(|| Error::Transport("empty answer".into()))
    }

    async fn lookup<B: Serialize>(&self, route: &str, body: &B) -> Result<User> {
        self.expect(
            Method::POST,
            &format!("/v1/users/{route}"),
            Some(body),
            None,
        )
        .await
    }

    /// `GET /v1/users/{id}`: the user (`did:privy:…` or the bare id).
    pub async fn get(&self, id: &str) -> Result<User> {
        self.expect::<()>(
            Method::GET,
            &format!("/v1/users/{}", encode(id)),
            None,
            None,
        )
        .await
    }

    /// `GET /v1/users`: one page (`limit` 1 to 100; `cursor` the previous page's `next_cursor`).
    pub async fn list(&self, cursor: Option<&str>, limit: Option<u32>) -> Result<UserPage> {
        let mut query = Vec::new();
        if let Some(cursor) = cursor {
            query.push(format!("cursor={}", encode(cursor)));
        }
        if let Some(limit) = limit {
            query.push(format!("limit={limit}"));
        }
        let path = if query.is_empty() {
            "/v1/users".to_string()
        } else {
            format!("/v1/users?{}", query.join("&"))
        };
        self.client
            .call::<(), UserPage>(Method::GET, &path, None, None)
            .await?
            .ok_or_else(|| Error::Transport("empty answer".into()))
    }

    /// Every user, walking all pages of `limit` users.
    pub async fn list_all(&self, limit: Option<u32>) -> Result<Vec<User>> {
        let mut users = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let page = self.list(cursor.as_deref(), limit).await?;
            users.extend(page.data);
            match page.next_cursor {
                Some(next) if Some(&next) != cursor.as_ref() => cursor = Some(next),
                _ => return Ok(users),
            }
        }
    }

    /// `POST /v1/users`: a user with these accounts. With an idempotency key the call may be
    /// retried, and a repeat answers the first result.
    pub async fn create(
        &self,
        request: &CreateUserRequest,
        idempotency_key: Option<&str>,
    ) -> Result<User> {
        self.expect(Method::POST, "/v1/users", Some(request), idempotency_key)
            .await
    }

    /// `POST /v1/users/import` in batches of 100: creates each user on its own and answers one
    /// result per user, `index` its position in `users`. A rate-limited batch (`429`) is retried
    /// after the server's `Retry-After` (up to a minute, eight times), under the idempotency key
    /// `{key}-{batch}`, so a retry never creates a user twice. Runs against the hosted product's
    /// batch route as well as ours.
    pub async fn import(
        &self,
        users: &[CreateUserRequest],
        idempotency_key: &str,
    ) -> Result<Vec<ImportUserResult>> {
        let mut results = Vec::with_capacity(users.len());
        for (batch, chunk) in users.chunks(IMPORT_BATCH).enumerate() {
            let request = ImportUsersRequest {
                users: chunk
                    .iter()
                    .map(serde_json::to_value)
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|e| Error::Config(format!("a user does not serialise: {e}")))?,
            };
            let answer: ImportUsersResponse = self
                .client
                .call_with(
                    RetryPolicy::BULK,
                    Method::POST,
                    "/v1/users/import",
                    Some(&request),
                    Some(&format!("{idempotency_key}-{batch}")),
                )
                .await?
                .ok_or_else(|| Error::Transport("empty answer".into()))?;
            let offset = batch * IMPORT_BATCH;
            results.extend(answer.results.into_iter().map(|mut result| {
                result.index += offset;
                result
            }));
        }
        Ok(results)
    }

    /// `DELETE /v1/users/{id}`: removes the user and everything of theirs.
    pub async fn delete(&self, id: &str) -> Result<()> {
        self.client
            .call::<(), Value>(
                Method::DELETE,
                &format!("/v1/users/{}", encode(id)),
                None,
                None,
            )
            .await
            .map(drop)
    }

    /// `POST /v1/users/{id}/wallets`: embedded wallets made now for a user who has none, theirs
    /// from their first sign-in. With an idempotency key the call may be retried.
    pub async fn pregenerate_wallets(
        &self,
        id: &str,
        wallets: Vec<WalletCreationInput>,
        idempotency_key: Option<&str>,
    ) -> Result<User> {
        let body = PregenerateWalletsRequest { wallets };
        let path = format!("/v1/users/{}/wallets", encode(id));
        self.expect(Method::POST, &path, Some(&body), idempotency_key)
            .await
    }

    /// `POST /v1/users/{id}/custom_metadata`: replaces the user's metadata.
    pub async fn set_custom_metadata(
        &self,
        id: &str,
        custom_metadata: Map<String, Value>,
    ) -> Result<User> {
        let body = CustomMetadataRequest { custom_metadata };
        let path = format!("/v1/users/{}/custom_metadata", encode(id));
        self.expect(Method::POST, &path, Some(&body), None).await
    }

    /// `POST /v1/users/{id}/accounts/unlink`: the user without that account.
    pub async fn unlink(&self, id: &str, request: &UnlinkAccountRequest) -> Result<User> {
        let path = format!("/v1/users/{}/accounts/unlink", encode(id));
        self.expect(Method::POST, &path, Some(request), None).await
    }

    /// The user with this email address.
    pub async fn by_email(&self, address: &str) -> Result<User> {
        self.lookup(
            "email/address",
            &EmailLookup {
                address: address.into(),
            },
        )
        .await
    }

    /// The user with this phone number.
    pub async fn by_phone(&self, number: &str) -> Result<User> {
        self.lookup(
            "phone/number",
            &PhoneLookup {
                number: number.into(),
            },
        )
        .await
    }

    /// The user of this external or embedded wallet.
    pub async fn by_wallet(&self, address: &str) -> Result<User> {
        self.lookup(
            "wallet/address",
            &WalletLookup {
                address: address.into(),
            },
        )
        .await
    }

    /// The user of this smart wallet.
    pub async fn by_smart_wallet(&self, address: &str) -> Result<User> {
        self.lookup(
            "smart_wallet/address",
            &WalletLookup {
                address: address.into(),
            },
        )
        .await
    }

    /// The user with this custom-auth id.
    pub async fn by_custom_auth_id(&self, custom_user_id: &str) -> Result<User> {
        let body = CustomAuthLookup {
            custom_user_id: custom_user_id.into(),
        };
        self.lookup("custom_auth/id", &body).await
    }

    /// The user with this Twitter subject.
    pub async fn by_twitter_subject(&self, subject: &str) -> Result<User> {
        self.lookup(
            "twitter/subject",
            &SubjectLookup {
                subject: subject.into(),
            },
        )
        .await
    }

    /// The user with this Telegram user id.
    pub async fn by_telegram_user_id(&self, telegram_user_id: &str) -> Result<User> {
        let body = TelegramLookup {
            telegram_user_id: telegram_user_id.into(),
        };
        self.lookup("telegram/telegram_user_id", &body).await
    }

    /// The user with this Farcaster id.
    pub async fn by_farcaster_id(&self, fid: u64) -> Result<User> {
        self.lookup("farcaster/fid", &FarcasterLookup { fid }).await
    }

    /// The user with this username at `provider` (any case, a leading `@` ignored).
    pub async fn by_username(&self, provider: UsernameProvider, username: &str) -> Result<User> {
        let route = match provider {
            UsernameProvider::Twitter => "twitter/username",
            UsernameProvider::Discord => "discord/username",
            UsernameProvider::Github => "github/username",
            UsernameProvider::Telegram => "telegram/username",
        };
        self.lookup(
            route,
            &UsernameLookup {
                username: username.into(),
            },
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_segments_are_percent_encoded() {
        assert_eq!(encode("did:privy:abc"), "did%3Aprivy%3Aabc");
        assert_eq!(encode("a/../b c"), "a%2F..%2Fb%20c");
    }
}
