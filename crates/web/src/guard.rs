//! Who may call the server: the cross-site rules. A page on another site can make a visitor's
//! browser send requests to the local server (a form or a `text/plain` fetch needs no
//! permission), and a site whose name resolves to 127.0.0.1 (DNS rebinding) can even read the
//! replies. So every request must name this server in its `Host` header, and an API request that
//! carries an `Origin` must come from this server's own pages. (That API bodies must be sent as
//! `application/json`, which no page can do across sites without the server's consent, is
//! checked where bodies are read, in [`crate::api`].)
//!
//! Behind a reverse proxy the site has a public address (`arbiter serve --public-url
//! https://NAME`): its name and port are accepted in `Host` and its origin in `Origin`. A request
//! that a trusted proxy says came by HTTPS (`crate::proxy`) may also give `https://` and its
//! `Host` as its origin.

use std::fmt;
use std::str::FromStr;

use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api::ApiError;
use crate::proxy::Client;

/// The address the site is reached at from outside, through its proxy: `http` or `https`, a
/// host name or address, and a port (the scheme's own when the URL gives none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl {
    https: bool,
    /// In lowercase, an IPv6 address in brackets.
    name: String,
    port: u16,
}

impl PublicUrl {
    /// Its origin, as a browser sends it in `Origin`: the port only when it is not the
    /// scheme's own.
    pub fn origin(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        if self.port == self.default_port() {
            format!("{scheme}://{}", self.name)
        } else {
            format!("{scheme}://{}:{}", self.name, self.port)
        }
    }

    fn default_port(&self) -> u16 {
        if self.https { 443 } else { 80 }
    }
}

impl fmt::Display for PublicUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/", self.origin())
    }
}

/// Why a public URL is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a public URL is http:// or https:// then a host name and an optional port, not `{0}`")]
pub struct PublicUrlError(String);

impl FromStr for PublicUrl {
    type Err = PublicUrlError;

    fn from_str(text: &str) -> Result<PublicUrl, PublicUrlError> {
        let wrong = || PublicUrlError(text.to_owned());
        let lower = text.trim().to_ascii_lowercase();
        let (https, rest) = match (lower.strip_prefix("https://"), lower.strip_prefix("http://")) {
            (Some(rest), _) => (true, rest),
            (None, Some(rest)) => (false, rest),
            (None, None) => return Err(wrong()),
        };
        let authority = rest.strip_suffix('/').unwrap_or(rest);
        if authority.is_empty() || authority.contains(['/', '?', '#', '@', ' ']) {
            return Err(wrong());
        }
        let (name, port) = match authority.rfind(':') {
            Some(colon) if !authority[colon..].contains(']') => {
                let port = authority[colon + 1..].parse::<u16>().map_err(|_| wrong())?;
                (&authority[..colon], Some(port))
            }
            _ => (authority, None),
        };
        let bracketed = name.starts_with('[') && name.ends_with(']');
        if name.is_empty() || (name.contains(':') && !bracketed) {
            return Err(wrong());
        }
        let mut url = PublicUrl { https, name: name.to_owned(), port: 0 };
        url.port = port.unwrap_or(url.default_port());
        Ok(url)
    }
}

/// The names a request's `Host` header may give: by default this machine's loopback names
/// (`localhost`, `127.0.0.1`, `[::1]`), on any port until [`Hosts::on_port`] fixes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hosts {
    /// Host names in lowercase, IPv6 addresses in brackets.
    names: Vec<String>,
    /// The port the server listens on, once known.
    port: Option<u16>,
    /// The site's public address, if it has one.
    public: Option<PublicUrl>,
}

impl Default for Hosts {
    fn default() -> Hosts {
        Hosts::loopback()
    }
}

impl Hosts {
    /// This machine's loopback names, on any port.
    pub fn loopback() -> Hosts {
        let names = ["localhost", "127.0.0.1", "[::1]"].map(str::to_owned).to_vec();
        Hosts { names, port: None, public: None }
    }

    /// Also answers to the site's public address `url` (its name on its port), and takes its
    /// origin.
    pub fn public(&mut self, url: PublicUrl) {
        self.public = Some(url);
    }

    /// Also answers to `name`: a host name or an IP address (an IPv6 address with or without
    /// brackets). Names are compared without regard to case.
    pub fn allow(&mut self, name: &str) {
        let name = name.trim().to_ascii_lowercase();
        let name =
            if name.contains(':') && !name.starts_with('[') { format!("[{name}]") } else { name };
        if !self.names.contains(&name) {
            self.names.push(name);
        }
    }

    /// The same names on `port` only.
    pub fn on_port(self, port: u16) -> Hosts {
        Hosts { port: Some(port), ..self }
    }

    /// Whether `host`, the value of a `Host` header (`name` or `name:port`), names this server.
    pub fn admits(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        // A bracketed IPv6 address holds colons of its own: the port follows the bracket.
        let (name, port) = match host.rfind(':') {
            Some(colon) if !host[colon..].contains(']') => {
                (&host[..colon], Some(&host[colon + 1..]))
            }
            _ => (host.as_str(), None),
        };
        let port = match port {
            Some(digits) => match digits.parse::<u16>() {
                Ok(port) => Some(port),
                Err(_) => return false,
            },
            None => None,
        };
        if let Some(public) = &self.public
            && public.name == name
            && port.unwrap_or(public.default_port()) == public.port
        {
            return true;
        }
        let port_matches = match (self.port, port) {
            (None, _) => true,
            (Some(ours), Some(theirs)) => ours == theirs,
            // A Host without a port means the scheme's default one.
            (Some(ours), None) => ours == 80,
        };
        port_matches && self.names.iter().any(|allowed| allowed == name)
    }

    /// Whether `origin`, the value of an `Origin` header, is this server's, for a request whose
    /// `Host` is `host` and that came by HTTPS (`https`, as a trusted proxy says) or not.
    fn same_origin(&self, origin: &str, host: Option<&str>, https: bool) -> bool {
        if self.public.as_ref().is_some_and(|public| origin.eq_ignore_ascii_case(&public.origin()))
        {
            return true;
        }
        let Some(host) = host else { return false };
        let scheme = if https { "https://" } else { "http://" };
        origin
            .get(..scheme.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(scheme))
            .then(|| &origin[scheme.len()..])
            .is_some_and(|authority| authority.eq_ignore_ascii_case(host))
    }
}

/// Refuses, with a 403, a request whose `Host` does not name this server, and an API request
/// whose `Origin` is not this server's. A request without `Host` cannot come from a browser
/// (HTTP/1.0 clients, in-process tests) and is let through, as is one without `Origin` (curl,
/// the pages' own GETs).
pub(crate) async fn check(hosts: &Hosts, request: Request, next: Next) -> Response {
    let https = request.extensions().get::<Client>().is_some_and(|client| client.https);
    match refusal(hosts, request.uri().path(), request.headers(), https) {
        Some(message) => {
            let mut response = ApiError::new(StatusCode::FORBIDDEN, message).into_response();
            let headers = response.headers_mut();
            headers.insert(header::VARY, header::HeaderValue::from_static("Origin"));
            // The body of a refused request is never read, and the connection cannot carry
            // another request behind it: say so, rather than let the server close it unannounced.
            if carries_body(request.headers()) {
                headers.insert(header::CONNECTION, header::HeaderValue::from_static("close"));
            }
            response
        }
        None => next.run(request).await,
    }
}

/// Whether a request with `headers` has a body to read: a `Content-Length` other than 0, or a
/// `Transfer-Encoding`.
fn carries_body(headers: &HeaderMap) -> bool {
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .is_some_and(|length| length.to_str().map_or(true, |length| length.trim() != "0"))
}

/// Why a request to `path` with `headers` is refused, if it is; `https` when a trusted proxy
/// says it came by HTTPS.
fn refusal(hosts: &Hosts, path: &str, headers: &HeaderMap, https: bool) -> Option<&'static str> {
    let host = match headers.get(header::HOST).map(|value| value.to_str()) {
        Some(Ok(host)) if hosts.admits(host) => Some(host),
        Some(_) => {
            return Some(
                "the Host header does not name this server (arbiter serve --allow-host NAME \
                 adds a name, --public-url the site's public address)",
            );
        }
        None => None,
    };
    if path != "/api" && !path.starts_with("/api/") {
        return None;
    }
    let origin = headers.get(header::ORIGIN)?;
    let same = origin.to_str().is_ok_and(|origin| hosts.same_origin(origin, host, https));
    (!same)
        .then_some("cross-site requests are refused: the API answers this server's own pages only")
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn hosts_are_loopback_names_on_the_port_and_the_names_allowed() {
        let mut hosts = Hosts::loopback().on_port(8080);
        for host in ["localhost:8080", "127.0.0.1:8080", "[::1]:8080", "LocalHost:8080"] {
            assert!(hosts.admits(host), "{host}");
        }
        for host in ["localhost:8081", "localhost", "evil.example:8080", "127.0.0.1:x", "[::1]"] {
            assert!(!hosts.admits(host), "{host}");
        }
        hosts.allow("Board.Lan");
        hosts.allow("::2");
        assert!(hosts.admits("board.lan:8080"));
        assert!(hosts.admits("[::2]:8080"));
        assert!(Hosts::loopback().admits("localhost"));
        assert!(Hosts::loopback().on_port(80).admits("localhost"));
    }

    #[test]
    fn api_requests_from_other_origins_are_refused() {
        let hosts = Hosts::loopback().on_port(8080);
        let headers = |pairs: &[(header::HeaderName, &'static str)]| {
            let mut map = HeaderMap::new();
            for (name, value) in pairs {
                map.insert(name.clone(), HeaderValue::from_static(value));
            }
            map
        };
        let ours =
            headers(&[(header::HOST, "127.0.0.1:8080"), (header::ORIGIN, "http://127.0.0.1:8080")]);
        assert_eq!(refusal(&hosts, "/api/duck/engine", &ours, false), None);
        let none = headers(&[(header::HOST, "127.0.0.1:8080")]);
        assert_eq!(refusal(&hosts, "/api/duck/engine", &none, false), None);
        for origin in
            ["http://evil.example", "null", "https://127.0.0.1:8080", "http://localhost:8080"]
        {
            let theirs = headers(&[(header::HOST, "127.0.0.1:8080"), (header::ORIGIN, origin)]);
            assert!(refusal(&hosts, "/api/duck/engine", &theirs, false).is_some(), "{origin}");
            // The pages themselves are no secret.
            assert_eq!(refusal(&hosts, "/duck", &theirs, false), None);
        }
        let rebound = headers(&[(header::HOST, "evil.example:8080")]);
        assert!(refusal(&hosts, "/duck", &rebound, false).is_some());
        assert!(refusal(&hosts, "/api/", &rebound, false).is_some());
    }

    #[test]
    fn a_public_url_is_accepted_as_host_and_origin() {
        for wrong in ["ftp://x", "https://", "https://a/b", "https://a:x", "https://::1", "x"] {
            assert!(wrong.parse::<PublicUrl>().is_err(), "{wrong}");
        }
        let url: PublicUrl = "HTTPS://Duck.Example/".parse().unwrap();
        assert_eq!(url.to_string(), "https://duck.example/");
        let mut hosts = Hosts::loopback().on_port(8080);
        hosts.public(url);
        for host in ["duck.example", "duck.example:443", "localhost:8080"] {
            assert!(hosts.admits(host), "{host}");
        }
        for host in ["duck.example:8080", "duck.example:80", "evil.example"] {
            assert!(!hosts.admits(host), "{host}");
        }
        let headers = |host: &'static str, origin: &'static str| {
            let mut map = HeaderMap::new();
            map.insert(header::HOST, HeaderValue::from_static(host));
            map.insert(header::ORIGIN, HeaderValue::from_static(origin));
            map
        };
        let ours = headers("duck.example", "https://duck.example");
        assert_eq!(refusal(&hosts, "/api/live/games", &ours, false), None);
        let other = headers("duck.example", "https://evil.example");
        assert!(refusal(&hosts, "/api/live/games", &other, false).is_some());
        let direct = headers("localhost:8080", "https://duck.example");
        assert_eq!(refusal(&hosts, "/api/live/games", &direct, false), None);
        // Without a public URL, the scheme a trusted proxy gives.
        let hosts = Hosts::loopback().on_port(8080);
        let proxied = headers("localhost:8080", "https://localhost:8080");
        assert!(refusal(&hosts, "/api/live/games", &proxied, false).is_some());
        assert_eq!(refusal(&hosts, "/api/live/games", &proxied, true), None);
        let port: PublicUrl = "http://[::1]:9000".parse().unwrap();
        assert_eq!(port.origin(), "http://[::1]:9000");
    }
}
