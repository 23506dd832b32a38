//! Delegated actions (`[delegation]`): the signers a user delegates to when the client names none
//! (the published client's `useDelegatedActions` names none).

use serde::{Deserialize, Serialize};
use symbolon_protocol::delegation::SessionSignerInput;

/// An app's default delegation.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DelegationSettings {
    /// Key quorums of the app (`/v1/key_quorums`) with the policies their requests must pass.
    pub signers: Vec<SessionSignerInput>,
}
