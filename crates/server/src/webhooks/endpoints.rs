//! Endpoints: where an app's events go and which kinds each hears. Made by the operator
//! (`symbolon webhooks endpoint create`); the signing secret is shown once and stored sealed.

use symbolon_protocol::webhooks::WebhookEventType;
use zeroize::Zeroizing;

use super::deps::WebhookDeps;
use super::signing::new_secret;
use crate::app_secrets::SealedSecret;
use crate::db::webhooks::EndpointRecord;
use crate::outbound_http::is_https_or_loopback;
use crate::random::random_id;

/// The most endpoints one app may have.
pub const MAX_ENDPOINTS: usize = 20;

/// An endpoint just made, with its secret (shown once).
#[derive(Debug)]
pub struct CreatedEndpoint {
    /// The endpoint as stored (its secret sealed).
    pub endpoint: EndpointRecord,
    /// `whsec_…`: what the host back end verifies with.
    pub secret: Zeroizing<String>,
}

/// The field its secret is sealed under (the endpoint's own, so it opens for no other).
pub fn secret_field(endpoint_id: &str) -> String {
    format!("webhooks.{endpoint_id}.secret")
}

/// The stored form of an event filter: `*` for every kind (none named), else each kind between
/// commas. Unknown names are refused with the list of known ones.
pub fn event_filter(names: &[String]) -> Result<String, String> {
    if names.is_empty() {
        return Ok("*".into());
    }
    let mut filter = String::from(",");
    for name in names {
        let name = name.trim();
        let Some(kind) = WebhookEventType::parse(name) else {
            let known: Vec<&str> = WebhookEventType::ALL.iter().map(|k| k.as_str()).collect();
            return Err(format!(
                "unknown event {name:?}; the events are {}",
                known.join(", ")
            ));
        };
        if !filter.contains(&format!(",{kind},")) {
            filter.push_str(kind.as_str());
            filter.push(',');
        }
    }
    Ok(filter)
}

/// The kinds a stored filter names, for people (`all` for `*`).
pub fn describe_filter(filter: &str) -> String {
    if filter == "*" {
        return "all".into();
    }
    filter.trim_matches(',').replace(',', ", ")
}

/// Makes an endpoint of `app_id` posting to `url` the kinds `events` names (all when empty).
pub async fn create(
    deps: &WebhookDeps,
    app_id: &str,
    url: &str,
    events: &[String],
) -> Result<CreatedEndpoint, String> {
    let parsed = url::Url::parse(url).map_err(|e| format!("--url {url:?} is not a URL: {e}"))?;
    if !is_https_or_loopback(&parsed) {
        return Err(format!(
            "--url {url:?} must be https:// (or http:// to this machine, for development)"
        ));
    }
    let events = event_filter(events)?;
    if deps
        .db
        .find_app(app_id)
        .await
        .map_err(|e| e.to_string())?
        .is_none()
    {
        return Err(format!("no app {app_id:?}"));
    }
    let existing = deps
        .db
        .webhook_endpoints(app_id)
        .await
        .map_err(|e| e.to_string())?;
    if existing.len() >= MAX_ENDPOINTS {
        return Err(format!(
            "app {app_id} has {MAX_ENDPOINTS} endpoints already; delete one first"
        ));
    }
    let id = format!("we_{}", random_id(24).map_err(|e| e.to_string())?);
    let secret = new_secret().map_err(|e| e.to_string())?;
    let mut sealed = SealedSecret::from(secret.as_str());
    deps.app_secrets
        .seal(app_id, &secret_field(&id), &mut sealed)?;
    let endpoint = EndpointRecord {
        id,
        app_id: app_id.to_string(),
        url: parsed.to_string(),
        events,
        secret: sealed.as_stored().to_string(),
        created_at: deps.clock.now(),
    };
    deps.db
        .insert_webhook_endpoint(&endpoint)
        .await
        .map_err(|e| e.to_string())?;
    Ok(CreatedEndpoint { endpoint, secret })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn filters_store_known_kinds_once_and_refuse_unknown_ones() {
        assert_eq!(event_filter(&[]).as_deref(), Ok("*"));
        assert_eq!(
            event_filter(&[
                "user.created".into(),
                " mfa.enabled".into(),
                "user.created".into()
            ])
            .as_deref(),
            Ok(",user.created,mfa.enabled,")
        );
        let refused = event_filter(&["user.signed_in".into()]).unwrap_err();
        assert!(refused.contains("user.signed_in") && refused.contains("user.authenticated"));
        assert_eq!(
            describe_filter(",user.created,mfa.enabled,"),
            "user.created, mfa.enabled"
        );
        assert_eq!(describe_filter("*"), "all");
    }
}
