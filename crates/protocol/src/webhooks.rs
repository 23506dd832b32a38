//! Webhook events: what a host back end hears about its users, named and shaped as the vendor's
//! server SDK (`@privy-io/node`'s `WebhookPayload`) types them. Each event is a JSON object with
//! `type` and the fields its kind lists; it is signed with the Svix scheme (`svix-id`,
//! `svix-timestamp`, `svix-signature`).

use serde::{Deserialize, Serialize};

/// The kinds of events an endpoint may subscribe to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WebhookEventType {
    /// A user was created (signed up, created or imported over `/v1`). `{user}`.
    #[serde(rename = "user.created")]
    UserCreated,
    /// A user signed in. `{user, account}`: the account they proved.
    #[serde(rename = "user.authenticated")]
    UserAuthenticated,
    /// A user linked an account. `{user, account}`.
    #[serde(rename = "user.linked_account")]
    UserLinkedAccount,
    /// A user unlinked an account (or the host did over `/v1`). `{user, account}`.
    #[serde(rename = "user.unlinked_account")]
    UserUnlinkedAccount,
    /// A user replaced their email or phone. `{user, account}`: the new one.
    #[serde(rename = "user.updated_account")]
    UserUpdatedAccount,
    /// An account moved to another user. `{fromUser: {id}, toUser, account, deletedUser}`.
    #[serde(rename = "user.transferred_account")]
    UserTransferredAccount,
    /// An embedded wallet was created for a user. `{user, wallet}`.
    #[serde(rename = "user.wallet_created")]
    UserWalletCreated,
    /// A user was deleted. `{user}`: as they were just before.
    #[serde(rename = "user.deleted")]
    UserDeleted,
    /// A second factor was enrolled. `{user_id, method}`.
    #[serde(rename = "mfa.enabled")]
    MfaEnabled,
    /// A second factor was removed. `{user_id, method}`.
    #[serde(rename = "mfa.disabled")]
    MfaDisabled,
    /// A user's wallet key left the frame for them to see. `{user_id, wallet_id, wallet_address}`.
    #[serde(rename = "wallet.private_key_export")]
    WalletPrivateKeyExport,
    /// A user's wallet was recovered on a new device. `{user_id, wallet_id, wallet_address}`.
    #[serde(rename = "wallet.recovered")]
    WalletRecovered,
}

impl WebhookEventType {
    /// Every kind, in the order the docs list them.
    pub const ALL: [WebhookEventType; 12] = [
        Self::UserCreated,
        Self::UserAuthenticated,
        Self::UserLinkedAccount,
        Self::UserUnlinkedAccount,
        Self::UserUpdatedAccount,
        Self::UserTransferredAccount,
        Self::UserWalletCreated,
        Self::UserDeleted,
        Self::MfaEnabled,
        Self::MfaDisabled,
        Self::WalletPrivateKeyExport,
        Self::WalletRecovered,
    ];

    /// Its wire name (`user.created`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::UserCreated => "user.created",
            Self::UserAuthenticated => "user.authenticated",
            Self::UserLinkedAccount => "user.linked_account",
            Self::UserUnlinkedAccount => "user.unlinked_account",
            Self::UserUpdatedAccount => "user.updated_account",
            Self::UserTransferredAccount => "user.transferred_account",
            Self::UserWalletCreated => "user.wallet_created",
            Self::UserDeleted => "user.deleted",
            Self::MfaEnabled => "mfa.enabled",
            Self::MfaDisabled => "mfa.disabled",
            Self::WalletPrivateKeyExport => "wallet.private_key_export",
            Self::WalletRecovered => "wallet.recovered",
        }
    }

    /// The kind named `name`, if any.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    /// The payload field that carries the user as they are when the event is sent (`user`,
    /// `toUser`); `None` for kinds that name the user by id only or carry them already.
    pub fn user_field(self) -> Option<&'static str> {
        match self {
            Self::UserCreated
            | Self::UserAuthenticated
            | Self::UserLinkedAccount
            | Self::UserUnlinkedAccount
            | Self::UserUpdatedAccount
            | Self::UserWalletCreated => Some("user"),
            Self::UserTransferredAccount => Some("toUser"),
            Self::UserDeleted
            | Self::MfaEnabled
            | Self::MfaDisabled
            | Self::WalletPrivateKeyExport
            | Self::WalletRecovered => None,
        }
    }
}

impl std::fmt::Display for WebhookEventType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::WebhookEventType;

    #[test]
    fn names_read_back_and_serialise_as_the_wire_names() {
        for kind in WebhookEventType::ALL {
            assert_eq!(WebhookEventType::parse(kind.as_str()), Some(kind));
            assert_eq!(
                serde_json::to_value(kind).ok(),
                Some(serde_json::Value::String(kind.as_str().into()))
            );
        }
        assert_eq!(WebhookEventType::parse("user.Created"), None);
    }
}
