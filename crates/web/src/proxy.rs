//! Who the client is: the peer of the connection, or, when that peer is a reverse proxy the
//! operator trusts (`arbiter serve --trusted-proxy CIDR`), the client the proxy forwards in
//! `Forwarded` (RFC 7239) or `X-Forwarded-For`, with the scheme it was reached by
//! (`Forwarded: proto=` or `X-Forwarded-Proto`). Every per-client limit, quota and log line uses
//! this client; a forwarding header from a peer not trusted is ignored, since anyone can write
//! one.
//!
//! The forwarded addresses are read from the right, the proxy nearest the server first: each
//! trusted address is a proxy that forwarded the request, and the first one that is not trusted
//! is the client. What a client wrote into the header itself stands to the left of what its proxy
//! added, so it is never reached. An entry that is no address (`unknown`, an obfuscated name,
//! garbage) ends the walk at the proxy that wrote it, which is then taken as the client.
//!
//! Limits count per [`ClientKey`]: an IPv4 address, or an IPv6 address's /64 network, which a
//! single subscriber is commonly given whole.
//!
//! ```
//! use arbiter_web::proxy::{ClientKey, Proxies};
//!
//! let proxies: Proxies = ["127.0.0.1/32".parse().unwrap()].into_iter().collect();
//! let peer = "127.0.0.1".parse().unwrap();
//! let client = proxies.client(peer, None, Some("10.9.9.9, 203.0.113.7"), None);
//! assert_eq!(client.addr.to_string(), "203.0.113.7");
//! let a = ClientKey::of("2001:db8::1".parse().unwrap());
//! assert_eq!(a, ClientKey::of("2001:db8::ffff:2".parse().unwrap()));
//! assert_eq!(a.to_string(), "2001:db8::/64");
//! ```

use std::fmt;
use std::net::{IpAddr, Ipv6Addr};

use axum::http::HeaderMap;
pub use ipnet::IpNet;

/// A network as `--trusted-proxy` takes it: `ADDRESS/LENGTH`, or an address alone (that host).
pub fn network(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map(|net| net.trunc())
        .map_err(|_| {
            format!("`{text}` is not a network: an address, or an address/length (10.0.0.0/8)")
        })
}

/// What limits count by: an IPv4 address, or the /64 network of an IPv6 address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    /// The key of `addr` (an IPv4 address written as IPv6, `::ffff:a.b.c.d`, is that IPv4
    /// address).
    pub fn of(addr: IpAddr) -> ClientKey {
        match addr.to_canonical() {
            IpAddr::V4(v4) => ClientKey(IpAddr::V4(v4)),
            IpAddr::V6(v6) => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                ClientKey(IpAddr::V6(Ipv6Addr::from(network)))
            }
        }
    }
}

impl fmt::Display for ClientKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

/// The client of a request, as [`Proxies::client`] found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Client {
    /// Its address.
    pub addr: IpAddr,
    /// What its limits count by.
    pub key: ClientKey,
    /// Whether a trusted proxy forwarded it (the peer is that proxy).
    pub forwarded: bool,
    /// Whether it reached the proxy by HTTPS, as the proxy says.
    pub https: bool,
}

impl Client {
    /// The client that is the peer `addr` itself.
    pub fn direct(addr: IpAddr) -> Client {
        let addr = addr.to_canonical();
        Client { addr, key: ClientKey::of(addr), forwarded: false, https: false }
    }
}

/// The reverse proxies trusted to say who their clients are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proxies(Vec<IpNet>);

impl FromIterator<IpNet> for Proxies {
    fn from_iter<I: IntoIterator<Item = IpNet>>(networks: I) -> Proxies {
        Proxies(networks.into_iter().map(|net| net.trunc()).collect())
    }
}

impl Proxies {
    /// Whether `addr` is a trusted proxy.
    pub fn trusts(&self, addr: IpAddr) -> bool {
        let addr = addr.to_canonical();
        self.0.iter().any(|net| net.contains(&addr))
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The client of a request from `peer` with these headers' values (`Forwarded`,
    /// `X-Forwarded-For`, `X-Forwarded-Proto`, each its lines joined by commas), as the module
    /// says; `Forwarded` is read when present, else `X-Forwarded-For`.
    pub fn client(
        &self,
        peer: IpAddr,
        forwarded: Option<&str>,
        forwarded_for: Option<&str>,
        forwarded_proto: Option<&str>,
    ) -> Client {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return Client::direct(peer);
        }
        let (hops, proto): (Vec<Hop>, Option<String>) = match (forwarded, forwarded_for) {
            (Some(forwarded), _) => {
                let elements = forwarded_elements(forwarded);
                let proto = elements.last().and_then(|element| element.proto.clone());
                (elements.into_iter().map(|element| element.hop).collect(), proto)
            }
            (None, Some(list)) => {
                let proto = forwarded_proto
                    .and_then(|value| value.rsplit(',').next())
                    .map(|proto| proto.trim().to_ascii_lowercase());
                (list.split(',').map(|entry| Hop::parse(entry.trim())).collect(), proto)
            }
            (None, None) => return Client::direct(peer),
        };
        let mut client = peer;
        for hop in hops.iter().rev() {
            match hop {
                Hop::Addr(addr) => {
                    client = *addr;
                    if !self.trusts(*addr) {
                        break;
                    }
                }
                Hop::Other => break,
            }
        }
        Client {
            addr: client,
            key: ClientKey::of(client),
            forwarded: true,
            https: proto.as_deref() == Some("https"),
        }
    }

    /// The client of a request from `peer` with `headers`.
    pub(crate) fn client_of(&self, peer: IpAddr, headers: &HeaderMap) -> Client {
        if !self.trusts(peer) {
            return Client::direct(peer);
        }
        let joined = |name: &str| {
            let values: Vec<&str> =
                headers.get_all(name).iter().filter_map(|value| value.to_str().ok()).collect();
            (!values.is_empty()).then(|| values.join(","))
        };
        let (forwarded, forwarded_for, proto) =
            (joined("forwarded"), joined("x-forwarded-for"), joined("x-forwarded-proto"));
        self.client(peer, forwarded.as_deref(), forwarded_for.as_deref(), proto.as_deref())
    }
}

/// One entry of a forwarding header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hop {
    /// An address.
    Addr(IpAddr),
    /// `unknown`, an obfuscated name, or something that is no address.
    Other,
}

impl Hop {
    /// An entry: an address, IPv6 in brackets or not, with or without a port.
    fn parse(text: &str) -> Hop {
        let text = text.trim().trim_matches('"');
        if let Ok(addr) = text.parse::<IpAddr>() {
            return Hop::Addr(addr.to_canonical());
        }
        let bare = match text.strip_prefix('[') {
            Some(rest) => rest.split(']').next().unwrap_or_default(),
            // An IPv4 address with a port.
            None => text.rsplit_once(':').map_or(text, |(host, _)| host),
        };
        bare.parse::<IpAddr>().map_or(Hop::Other, |addr| Hop::Addr(addr.to_canonical()))
    }
}

/// One element of a `Forwarded` header: its `for` and its `proto`.
struct Element {
    hop: Hop,
    proto: Option<String>,
}

/// The elements of a `Forwarded` value (`for=a;proto=https, for="[b]:1"`): comma-separated
/// elements of semicolon-separated pairs, values plain or quoted. An element without `for` is an
/// entry that is no address.
fn forwarded_elements(value: &str) -> Vec<Element> {
    split_outside_quotes(value, ',')
        .into_iter()
        .map(|element| {
            let (mut hop, mut proto) = (Hop::Other, None);
            for pair in split_outside_quotes(element, ';') {
                let Some((name, value)) = pair.split_once('=') else { continue };
                let value = value.trim().trim_matches('"');
                match name.trim().to_ascii_lowercase().as_str() {
                    "for" => hop = Hop::parse(value),
                    "proto" => proto = Some(value.to_ascii_lowercase()),
                    _ => {}
                }
            }
            Element { hop, proto }
        })
        .collect()
}

/// `text` cut at each `separator` that is not inside double quotes.
fn split_outside_quotes(text: &str, separator: char) -> Vec<&str> {
    let (mut parts, mut start, mut quoted) = (Vec::new(), 0, false);
    for (at, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            c if c == separator && !quoted => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxies(nets: &[&str]) -> Proxies {
        nets.iter().map(|net| net.parse::<IpNet>().unwrap()).collect()
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_writes() {
        let trusted = proxies(&["10.0.0.0/8"]);
        let client = trusted.client(ip("192.0.2.1"), Some("for=1.1.1.1"), Some("2.2.2.2"), None);
        assert_eq!(client, Client::direct(ip("192.0.2.1")));
        assert_eq!(
            Proxies::default().client(ip("10.0.0.1"), None, Some("2.2.2.2"), None).addr,
            ip("10.0.0.1")
        );
    }

    #[test]
    fn the_client_is_the_first_untrusted_address_from_the_right() {
        let trusted = proxies(&["10.0.0.0/8", "::1/128"]);
        let peer = ip("10.0.0.1");
        let read = |xff: &str| trusted.client(peer, None, Some(xff), Some("https")).addr;
        assert_eq!(read("203.0.113.7"), ip("203.0.113.7"));
        // A forged entry stands left of what the proxy added.
        assert_eq!(read("6.6.6.6, 203.0.113.7"), ip("203.0.113.7"));
        assert_eq!(read("6.6.6.6, 203.0.113.7, 10.1.1.1"), ip("203.0.113.7"));
        // Only proxies: the leftmost.
        assert_eq!(read("10.2.2.2, 10.1.1.1"), ip("10.2.2.2"));
        // Garbage stops at the proxy that wrote it.
        assert_eq!(read("203.0.113.7, unknown, 10.1.1.1"), ip("10.1.1.1"));
        assert_eq!(read("[2001:db8::1]:443"), ip("2001:db8::1"));
        assert_eq!(read("192.0.2.5:8080"), ip("192.0.2.5"));
        assert_eq!(read("::ffff:192.0.2.5"), ip("192.0.2.5"));
        let client = trusted.client(peer, None, Some("192.0.2.5"), Some("http, https"));
        assert!(client.https && client.forwarded);
        assert!(!trusted.client(peer, None, Some("192.0.2.5"), None).https);
    }

    #[test]
    fn forwarded_is_read_before_x_forwarded_for() {
        let trusted = proxies(&["127.0.0.1/32"]);
        let peer = ip("127.0.0.1");
        let client = trusted.client(
            peer,
            Some(r#"for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https;by=127.0.0.1"#),
            Some("192.0.2.9"),
            Some("http"),
        );
        assert_eq!(client.addr, ip("2001:db8:cafe::17"));
        assert!(client.https);
        assert_eq!(client.key.to_string(), "2001:db8:cafe::/64");
        let client = trusted.client(peer, Some("for=_hidden;proto=http"), None, None);
        assert_eq!(client.addr, peer);
        let client =
            trusted.client(peer, Some(r#"proto=https;for="a,b", for=192.0.2.1"#), None, None);
        assert_eq!(client.addr, ip("192.0.2.1"));
    }

    #[test]
    fn networks_are_read_with_or_without_their_length() {
        assert_eq!(network("10.1.2.3/8").unwrap().to_string(), "10.0.0.0/8");
        assert_eq!(network("::1").unwrap().to_string(), "::1/128");
        assert_eq!(network("127.0.0.1").unwrap().to_string(), "127.0.0.1/32");
        assert!(network("10.0.0.0/33").is_err());
        assert!(network("proxy.lan").unwrap_err().contains("proxy.lan"));
    }

    #[test]
    fn an_ipv6_client_is_its_64_network() {
        let key = ClientKey::of(ip("2001:db8:1:2:3:4:5:6"));
        assert_eq!(key, ClientKey::of(ip("2001:db8:1:2::")));
        assert_ne!(key, ClientKey::of(ip("2001:db8:1:3::1")));
        assert_eq!(ClientKey::of(ip("::ffff:127.0.0.1")), ClientKey::of(ip("127.0.0.1")));
        assert_eq!(ClientKey::of(ip("127.0.0.1")).to_string(), "127.0.0.1");
    }
}
