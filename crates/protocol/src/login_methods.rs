//! The login methods, once for every side: a new method is a variant here and a line in each of
//! the tables below. The server's routes, the names apps list and the client's method list all
//! read this enum, so no side can offer a method the others do not know.

/// A way in (spec §1, §4): the names apps configure and logs show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LoginMethod {
    /// Email code.
    Email,
    /// SMS code.
    Sms,
    /// Guest credential.
    Guest,
    /// The host app's JWT.
    CustomAuth,
    /// An OAuth provider (built-in, `custom:<name>` or another app).
    OAuth,
    /// Sign In With Farcaster.
    Farcaster,
    /// Telegram Login Widget or Mini App.
    Telegram,
    /// An external wallet: Sign-In With Ethereum or Solana.
    Wallet,
    /// A WebAuthn passkey; the subject is its credential id.
    Passkey,
}

/// How an app turns a method on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enabling {
    /// By listing its name in `login_methods_and_order`.
    Listed,
    /// By a setting of its own (guest accounts, custom auth, each OAuth provider by its name).
    OwnSetting,
}

impl LoginMethod {
    /// Every login method.
    pub const ALL: [Self; 9] = [
        Self::Email,
        Self::Sms,
        Self::Guest,
        Self::CustomAuth,
        Self::OAuth,
        Self::Farcaster,
        Self::Telegram,
        Self::Wallet,
        Self::Passkey,
    ];

    /// The name apps configure and logs show.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Sms => "sms",
            Self::Guest => "guest",
            Self::CustomAuth => "custom_auth",
            Self::OAuth => "oauth",
            Self::Farcaster => "farcaster",
            Self::Telegram => "telegram",
            Self::Wallet => "wallet",
            Self::Passkey => "passkey",
        }
    }

    /// How an app turns it on.
    pub const fn enabling(self) -> Enabling {
        match self {
            Self::Guest | Self::CustomAuth | Self::OAuth => Enabling::OwnSetting,
            _ => Enabling::Listed,
        }
    }

    /// Whether apps enable it by listing its name.
    pub const fn listed(self) -> bool {
        matches!(self.enabling(), Enabling::Listed)
    }

    /// The method whose name is `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|method| method.as_str() == name)
    }
}

/// How many methods are [`LoginMethod::listed`].
const LISTED_COUNT: usize = {
    let mut count = 0;
    let mut i = 0;
    while i < LoginMethod::ALL.len() {
        if LoginMethod::ALL[i].listed() {
            count += 1;
        }
        i += 1;
    }
    count
};

/// The names of the [`LoginMethod::listed`] methods, in [`LoginMethod::ALL`] order (computed, so
/// the list cannot drift from the enum).
pub const LISTED_NAMES: [&str; LISTED_COUNT] = {
    let mut names = [""; LISTED_COUNT];
    let (mut i, mut next) = (0, 0);
    while i < LoginMethod::ALL.len() {
        if LoginMethod::ALL[i].listed() {
            names[next] = LoginMethod::ALL[i].as_str();
            next += 1;
        }
        i += 1;
    }
    names
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        for method in LoginMethod::ALL {
            assert_eq!(LoginMethod::from_name(method.as_str()), Some(method));
        }
        assert_eq!(LoginMethod::from_name("magic"), None);
    }

    #[test]
    fn listed_names_are_exactly_the_listed_methods() {
        assert_eq!(
            LISTED_NAMES,
            ["email", "sms", "farcaster", "telegram", "wallet", "passkey"]
        );
        assert!(!LoginMethod::Guest.listed() && !LoginMethod::OAuth.listed());
    }
}
