//! Who may call the server: the cross-site rules. A page on another site can make a visitor's
//! browser send requests to the local server (a form or a `text/plain` fetch needs no
//! permission), and a site whose name resolves to 127.0.0.1 (DNS rebinding) can even read the
//! replies. So every request must name this server in its `Host` header, and an API request that
//! carries an `Origin` must come from this server's own pages. (That API bodies must be sent as
//! `application/json`, which no page can do across sites without the server's consent, is
//! checked where bodies are read, in [`crate::api`].)

use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api::ApiError;

/// The names a request's `Host` header may give: by default this machine's loopback names
/// (`localhost`, `127.0.0.1`, `[::1]`), on any port until [`Hosts::on_port`] fixes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hosts {
    /// Host names in lowercase, IPv6 addresses in brackets.
    names: Vec<String>,
    /// The port the server listens on, once known.
    port: Option<u16>,
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
        Hosts { names, port: None }
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
        let port_matches = match (self.port, port) {
            (None, _) => true,
            (Some(ours), Some(theirs)) => ours == theirs,
            // A Host without a port means the scheme's default one.
            (Some(ours), None) => ours == 80,
        };
        port_matches && self.names.iter().any(|allowed| allowed == name)
    }
}

/// Refuses, with a 403, a request whose `Host` does not name this server, and an API request
/// whose `Origin` is not this server's. A request without `Host` cannot come from a browser
/// (HTTP/1.0 clients, in-process tests) and is let through, as is one without `Origin` (curl,
/// the pages' own GETs).
pub(crate) async fn check(hosts: &Hosts, request: Request, next: Next) -> Response {
    match refusal(hosts, request.uri().path(), request.headers()) {
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

/// Why a request to `path` with `headers` is refused, if it is.
fn refusal(hosts: &Hosts, path: &str, headers: &HeaderMap) -> Option<&'static str> {
    let host = match headers.get(header::HOST).map(|value| value.to_str()) {
        Some(Ok(host)) if hosts.admits(host) => Some(host),
        Some(_) => {
            return Some(
                "the Host header does not name this server (arbiter serve --allow-host NAME \
                 adds a name)",
            );
        }
        None => None,
    };
    if path != "/api" && !path.starts_with("/api/") {
        return None;
    }
    let origin = headers.get(header::ORIGIN)?;
    let same = match (origin.to_str(), host) {
        (Ok(origin), Some(host)) => origin
            .strip_prefix("http://")
            .is_some_and(|authority| authority.eq_ignore_ascii_case(host)),
        _ => false,
    };
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
        assert_eq!(refusal(&hosts, "/api/duck/engine", &ours), None);
        let none = headers(&[(header::HOST, "127.0.0.1:8080")]);
        assert_eq!(refusal(&hosts, "/api/duck/engine", &none), None);
        for origin in
            ["http://evil.example", "null", "https://127.0.0.1:8080", "http://localhost:8080"]
        {
            let theirs = headers(&[(header::HOST, "127.0.0.1:8080"), (header::ORIGIN, origin)]);
            assert!(refusal(&hosts, "/api/duck/engine", &theirs).is_some(), "{origin}");
            // The pages themselves are no secret.
            assert_eq!(refusal(&hosts, "/duck", &theirs), None);
        }
        let rebound = headers(&[(header::HOST, "evil.example:8080")]);
        assert!(refusal(&hosts, "/duck", &rebound).is_some());
        assert!(refusal(&hosts, "/api/", &rebound).is_some());
    }
}
