//! What a passkey account shows about where it was made (spec §3): the authenticator's name from
//! its AAGUID, and the browser, OS and device of the registering request's `User-Agent`.

/// Known passkey providers by AAGUID (the community list of passkey authenticator AAGUIDs).
const AUTHENTICATORS: &[(&str, &str)] = &[
    ("fbfc3007-154e-4ecc-8c0b-6e020557d7bd", "iCloud Keychain"),
    (
        "dd4ec289-e01d-41c9-bb89-70fa845d4bf2",
        "iCloud Keychain (Managed)",
    ),
    (
        "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
        "Google Password Manager",
    ),
    ("adce0002-35bc-c60a-648b-0b25f1f05503", "Chrome on Mac"),
    ("08987058-cadc-4b81-b6e1-30de50dcbe96", "Windows Hello"),
    ("9ddd1817-af5a-4672-a2b9-3e3dd95000a9", "Windows Hello"),
    ("6028b017-b1d4-4c02-b4b3-afcdafc96bb2", "Windows Hello"),
    ("bada5566-a7aa-401f-bd96-45619a55120d", "1Password"),
    ("d548826e-79b4-db40-a3d8-11116f7e8349", "Bitwarden"),
    ("531126d6-e717-415c-9320-3d9aa6981239", "Dashlane"),
    ("53414d53-554e-4700-0000-000000000000", "Samsung Pass"),
    ("b84e4048-15dc-4dd0-8640-f4f60813c8af", "NordPass"),
    ("0ea242b4-43c4-4a1b-8b17-dd6d0b6baec6", "Keeper"),
];

/// The AAGUID in an attestation object's authenticator data (RP id hash 32 bytes, flags, counter
/// 4 bytes, then the attested credential data when flag AT is set), as a UUID string.
pub fn aaguid(attestation_object: &[u8]) -> Option<String> {
    let value: ciborium::Value = ciborium::from_reader(attestation_object).ok()?;
    let auth_data = value.as_map()?.iter().find_map(|(key, value)| {
        (key.as_text() == Some("authData"))
            .then(|| value.as_bytes())
            .flatten()
    })?;
    let attested = auth_data.get(32).is_some_and(|flags| flags & 0x40 != 0);
    let bytes = auth_data.get(37..53).filter(|_| attested)?;
    let hex = crate::digest::hex(bytes);
    Some(format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    ))
}

/// The provider's name for a known AAGUID.
pub fn authenticator_name(aaguid: &str) -> Option<&'static str> {
    AUTHENTICATORS
        .iter()
        .find(|(id, _)| *id == aaguid)
        .map(|(_, name)| *name)
}

/// Browser, OS and device kind (`desktop`, `mobile`, `tablet`) named by a `User-Agent` (the
/// common ones; `None` when unsure).
pub fn user_agent(
    ua: &str,
) -> (
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
) {
    let has = |needle: &str| ua.contains(needle);
    let browser = if has("Edg/") {
        Some("Edge")
    } else if has("OPR/") {
        Some("Opera")
    } else if has("SamsungBrowser/") {
        Some("Samsung Internet")
    } else if has("Firefox/") || has("FxiOS/") {
        Some("Firefox")
    } else if has("Chrome/") || has("CriOS/") || has("Chromium/") {
        Some("Chrome")
    } else if has("Safari/") {
        Some("Safari")
    } else {
        None
    };
    let os = if has("iPhone") || has("iPad") || has("iPod") {
        Some("iOS")
    } else if has("Android") {
        Some("Android")
    } else if has("CrOS") {
        Some("ChromeOS")
    } else if has("Windows") {
        Some("Windows")
    } else if has("Mac OS X") || has("Macintosh") {
        Some("macOS")
    } else if has("Linux") {
        Some("Linux")
    } else {
        None
    };
    let device = if has("iPad") || (os == Some("Android") && !has("Mobile")) {
        Some("tablet")
    } else if has("Mobile") || has("iPhone") {
        Some("mobile")
    } else if os.is_some() {
        Some("desktop")
    } else {
        None
    };
    (browser, os, device)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_agents_name_browser_os_and_device() {
        let chrome_mac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 \
                          (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
        assert_eq!(
            user_agent(chrome_mac),
            (Some("Chrome"), Some("macOS"), Some("desktop"))
        );
        let safari_iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) \
                             AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
        assert_eq!(
            user_agent(safari_iphone),
            (Some("Safari"), Some("iOS"), Some("mobile"))
        );
        let edge = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
                    Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0";
        assert_eq!(user_agent(edge).0, Some("Edge"));
        assert_eq!(user_agent("curl/8.0"), (None, None, None));
    }

    #[test]
    fn the_aaguid_is_read_from_attested_credential_data() {
        let mut auth_data = vec![0u8; 32];
        auth_data.push(0x45);
        auth_data.extend_from_slice(&[0, 0, 0, 0]);
        auth_data.extend_from_slice(&[
            0xfb, 0xfc, 0x30, 0x07, 0x15, 0x4e, 0x4e, 0xcc, 0x8c, 0x0b, 0x6e, 0x02, 0x05, 0x57,
            0xd7, 0xbd,
        ]);
        let object = ciborium::Value::Map(vec![
            (
                ciborium::Value::Text("fmt".into()),
                ciborium::Value::Text("none".into()),
            ),
            (
                ciborium::Value::Text("authData".into()),
                ciborium::Value::Bytes(auth_data),
            ),
        ]);
        let mut bytes = Vec::new();
        assert!(ciborium::into_writer(&object, &mut bytes).is_ok());
        let id = aaguid(&bytes);
        assert_eq!(id.as_deref(), Some("fbfc3007-154e-4ecc-8c0b-6e020557d7bd"));
        assert_eq!(
            id.as_deref().and_then(authenticator_name),
            Some("iCloud Keychain")
        );
        assert_eq!(aaguid(b"not cbor"), None);
    }
}
