//! Origins in the form browsers send them: how stored origins and request origins are compared.

/// Normalises an origin the way browsers serialise `Origin` (WHATWG URL): scheme and host in
/// lowercase (IDN hosts in punycode), default port dropped, no path or trailing slash. `None` if
/// `raw` is not an `http`/`https` origin (a path, query, fragment or user info is refused).
///
/// Stored origins and request origins both go through this, so `http://LOCALHOST:5173` and
/// `https://x.com:443` match what a browser sends.
pub fn normalize_origin(raw: &str) -> Option<String> {
    let url = url::Url::parse(raw.trim()).ok()?;
    let plain = matches!(url.scheme(), "http" | "https")
        && url.host().is_some()
        && url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none()
        && url.username().is_empty()
        && url.password().is_none();
    plain.then(|| url.origin().ascii_serialization())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_normalised() {
        assert_eq!(
            normalize_origin("http://localhost:5173/").as_deref(),
            Some("http://localhost:5173")
        );
        assert_eq!(normalize_origin("ftp://x"), None);
        assert_eq!(normalize_origin("http://x/path"), None);
        assert_eq!(normalize_origin("http://x?q=1"), None);
        assert_eq!(normalize_origin("http://user@x"), None);
        assert_eq!(normalize_origin("null"), None);
    }

    #[test]
    fn origins_match_what_browsers_send() {
        // Browsers send `Origin` lowercase and without the scheme's default port.
        for (stored, browser) in [
            ("http://LOCALHOST:5173", "http://localhost:5173"),
            ("HTTPS://Shop.Example.COM", "https://shop.example.com"),
            ("https://x.com:443", "https://x.com"),
            ("http://x.com:80/", "http://x.com"),
            ("https://x.com:8443", "https://x.com:8443"),
            ("http://[::1]:80", "http://[::1]"),
            ("https://bücher.example", "https://xn--bcher-kva.example"),
        ] {
            assert_eq!(
                normalize_origin(stored).as_deref(),
                Some(browser),
                "{stored}"
            );
            assert_eq!(
                normalize_origin(browser).as_deref(),
                Some(browser),
                "{browser}"
            );
        }
    }
}
