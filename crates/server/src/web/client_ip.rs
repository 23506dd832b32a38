//! The client's IP address, for rate limits: the TCP peer, or behind trusted reverse proxies the
//! address the nearest untrusted hop was seen from.
//!
//! A forwarding header is read only when the TCP peer is a configured trusted proxy
//! (`SYMBOLON_TRUSTED_PROXIES`), and only the one header those proxies set
//! (`SYMBOLON_FORWARDED_HEADER`). Proxies append the address they received the request from, so
//! the list is walked from the right: trusted proxies are skipped, the first address that is not
//! one is the client. Anything further left was written by the client and is never believed.

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use forwarded_header_value::{ForwardedHeaderValue, Identifier};
use ipnet::{IpNet, Ipv4Net, Ipv6Net};

use crate::config::{ForwardedHeader, HttpConfig};
use crate::error::AppError;
use crate::rate_limit::{Budget, IpLimits};
use crate::state::AppState;
use crate::web::routes::MatchedRoute;

/// The calling client's address (IPv4-mapped IPv6 addresses are shown as IPv4), and the budget
/// its route's row declares ([`crate::web::routes::Route::limited`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp {
    ip: IpAddr,
    budget: Option<Budget>,
}

impl ClientIp {
    /// The address.
    pub fn ip(&self) -> IpAddr {
        self.ip
    }

    /// The client's network, the key of every per-client limit: an IPv4 client's /24, an IPv6
    /// client's /64. One subscriber usually holds a whole /64 (keying single IPv6 addresses would
    /// give each client 2^64 keys), and neighbours in a /24 usually share an operator; limits are
    /// sized for a shared network (an office NAT, a campus).
    pub fn network_key(&self) -> String {
        match self.ip {
            IpAddr::V4(v4) => Ipv4Net::new_assert(v4, 24).trunc().to_string(),
            IpAddr::V6(v6) => Ipv6Net::new_assert(v6, 64).trunc().to_string(),
        }
    }

    /// Counts one call against this client network's share of the budget its route declares:
    /// `429 too_many_requests` with `Retry-After` when it is spent. Called where the method has
    /// checked what costs nothing to check, so bad input spends no budget.
    pub async fn spend(&self, limits: &IpLimits, now: i64) -> Result<(), AppError> {
        let budget = self
            .budget
            .ok_or_else(|| AppError::internal(&UndeclaredBudget))?;
        limits
            .of(budget)
            .hit(&self.network_key(), now)
            .await
            .map_err(|r| AppError::rate_limited(r.0))
    }

    /// The client address of the request in `parts` (for extractors that need it too).
    pub fn of(parts: &Parts, state: &AppState) -> Self {
        // The serve loop always sets the peer; in-process callers without one share one key.
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        let budget = parts
            .extensions
            .get::<MatchedRoute>()
            .and_then(|MatchedRoute(route)| route.budget);
        Self {
            budget,
            ..Self::resolve(&state.config.http, peer, &parts.headers)
        }
    }

    /// Resolves the client address of a request that came from `peer`.
    pub fn resolve(config: &HttpConfig, peer: IpAddr, headers: &HeaderMap) -> Self {
        let peer = peer.to_canonical();
        if !is_trusted(&config.trusted_proxies, peer) {
            return Self::at(peer);
        }
        let hops = forwarded_hops(config.forwarded_header, headers);
        let mut client = peer;
        // Right to left: while the hop we stand on is a trusted proxy, believe what it says.
        for hop in hops.into_iter().rev() {
            if !is_trusted(&config.trusted_proxies, client) {
                break;
            }
            match hop {
                Some(ip) => client = ip.to_canonical(),
                // A trusted proxy passed on something unreadable: it is the last address known.
                None => break,
            }
        }
        Self::at(client)
    }
}

fn is_trusted(proxies: &[IpNet], ip: IpAddr) -> bool {
    proxies.iter().any(|net| net.contains(&ip))
}

/// The addresses in the configured forwarding header, leftmost first; `None` for an entry that is
/// no address (`unknown`, an obfuscated name, garbage). Repeated header lines are one list.
fn forwarded_hops(kind: ForwardedHeader, headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let name = match kind {
        ForwardedHeader::XForwardedFor => "x-forwarded-for",
        ForwardedHeader::Forwarded => "forwarded",
    };
    let mut hops = Vec::new();
    for value in headers.get_all(name) {
        let Ok(value) = value.to_str() else {
            hops.push(None);
            continue;
        };
        match kind {
            // Each entry is an address, sometimes with a port (`[::1]:8080`, `1.2.3.4:80`).
            ForwardedHeader::XForwardedFor => hops.extend(
                value
                    .split(',')
                    .map(|entry| entry.parse::<Identifier>().ok().and_then(|id| id.ip())),
            ),
            ForwardedHeader::Forwarded => match ForwardedHeaderValue::from_forwarded(value) {
                Ok(parsed) => hops.extend(parsed.iter().map(|stanza| stanza.forwarded_for_ip())),
                Err(_) => hops.push(None),
            },
        }
    }
    hops
}

impl ClientIp {
    fn at(ip: IpAddr) -> Self {
        Self { ip, budget: None }
    }
}

/// A route spends a budget its row does not declare: a programming error, caught by the tests.
#[derive(Debug, thiserror::Error)]
#[error("the route spends a rate-limit budget its table row does not declare")]
struct UndeclaredBudget;

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(Self::of(parts, state))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_proxy_list;

    fn config(proxies: &str, header: ForwardedHeader) -> HttpConfig {
        HttpConfig {
            trusted_proxies: parse_proxy_list(proxies).expect("proxies"),
            forwarded_header: header,
            ..HttpConfig::default()
        }
    }

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).expect("name"),
                value.parse().expect("value"),
            );
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("ip")
    }

    #[test]
    fn spoofed_headers_from_untrusted_peers_are_ignored() {
        let xff = headers(&[("x-forwarded-for", "1.1.1.1"), ("forwarded", "for=2.2.2.2")]);
        for cfg in [
            config("", ForwardedHeader::XForwardedFor),
            config("10.0.0.0/8", ForwardedHeader::XForwardedFor),
            config("10.0.0.0/8", ForwardedHeader::Forwarded),
        ] {
            assert_eq!(
                ClientIp::resolve(&cfg, ip("203.0.113.9"), &xff).ip(),
                ip("203.0.113.9")
            );
        }
    }

    #[test]
    fn the_rightmost_untrusted_hop_is_the_client() {
        let cfg = config("10.0.0.0/8, 192.168.0.1", ForwardedHeader::XForwardedFor);
        // The client wrote "6.6.6.6" itself; the edge proxy appended the address it saw.
        let h = headers(&[("x-forwarded-for", "6.6.6.6, 198.51.100.7, 192.168.0.1")]);
        assert_eq!(
            ClientIp::resolve(&cfg, ip("10.1.2.3"), &h).ip(),
            ip("198.51.100.7")
        );
        // Two header lines are one list; ports and IPv6 brackets are understood.
        let h = headers(&[
            ("x-forwarded-for", "garbage, [2001:db8::1]:4711"),
            ("x-forwarded-for", "10.9.9.9"),
        ]);
        assert_eq!(
            ClientIp::resolve(&cfg, ip("10.1.2.3"), &h).ip(),
            ip("2001:db8::1")
        );
        // Without a header the trusted peer is all there is.
        assert_eq!(
            ClientIp::resolve(&cfg, ip("10.1.2.3"), &HeaderMap::new()).ip(),
            ip("10.1.2.3")
        );
        // An unreadable entry right after trusted hops stops at the last trusted one.
        let h = headers(&[("x-forwarded-for", "1.1.1.1, nonsense")]);
        assert_eq!(
            ClientIp::resolve(&cfg, ip("10.1.2.3"), &h).ip(),
            ip("10.1.2.3")
        );
        // Only the configured header is read.
        let h = headers(&[("forwarded", "for=7.7.7.7")]);
        assert_eq!(
            ClientIp::resolve(&cfg, ip("10.1.2.3"), &h).ip(),
            ip("10.1.2.3")
        );
    }

    #[test]
    fn rfc_7239_forwarded_is_read_when_configured() {
        let cfg = config("10.0.0.0/8", ForwardedHeader::Forwarded);
        let h = headers(&[(
            "forwarded",
            "for=6.6.6.6, for=\"[2001:db8:cafe::17]:4711\";proto=https, for=10.0.0.2",
        )]);
        assert_eq!(
            ClientIp::resolve(&cfg, ip("10.0.0.1"), &h).ip(),
            ip("2001:db8:cafe::17")
        );
        let h = headers(&[("x-forwarded-for", "7.7.7.7")]);
        assert_eq!(
            ClientIp::resolve(&cfg, ip("10.0.0.1"), &h).ip(),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn clients_share_their_24_or_64_and_mapped_ipv4_is_ipv4() {
        let cfg = config("", ForwardedHeader::XForwardedFor);
        let a = ClientIp::resolve(&cfg, ip("2001:db8:1:2:aaaa::1"), &HeaderMap::new());
        let b = ClientIp::resolve(
            &cfg,
            ip("2001:db8:1:2:ffff:ffff:ffff:ffff"),
            &HeaderMap::new(),
        );
        let c = ClientIp::resolve(&cfg, ip("2001:db8:1:3::1"), &HeaderMap::new());
        assert_eq!(a.network_key(), "2001:db8:1:2::/64");
        assert_eq!(a.network_key(), b.network_key());
        assert_ne!(a.network_key(), c.network_key());
        let mapped = ClientIp::resolve(&cfg, ip("::ffff:198.51.100.7"), &HeaderMap::new());
        assert_eq!(mapped.network_key(), "198.51.100.0/24");
        let neighbour = ClientIp::resolve(&cfg, ip("198.51.100.250"), &HeaderMap::new());
        assert_eq!(mapped.network_key(), neighbour.network_key());
        let next = ClientIp::resolve(&cfg, ip("198.51.101.7"), &HeaderMap::new());
        assert_ne!(mapped.network_key(), next.network_key());
    }
}
