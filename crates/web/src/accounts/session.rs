//! Sessions: a signed-in browser holds a random session id in an `HttpOnly`, `SameSite=Lax`
//! cookie (`Secure` when the site is served over https); the store keeps only the id's SHA-256,
//! so that a copy of the database signs nobody in. Each session has a CSRF token too, which
//! every state-changing request of the session must carry in the `X-CSRF-Token` header.
//!
//! A session lasts 30 days from sign-in; signing out ends it, and a password change ends every
//! session of the account. Signing in always starts a new session (a new id), ending the one
//! the browser held.

use std::fmt;

use axum::http::{HeaderMap, HeaderValue, header};
use sha2::{Digest, Sha256};

/// The cookie's name.
pub(crate) const COOKIE: &str = "arbiter_session";

/// How long a session lasts, in ms (30 days).
pub(crate) const LIFETIME_MS: u64 = 30 * 24 * 60 * 60 * 1000;

/// The header that carries the session's CSRF token.
pub(crate) const CSRF_HEADER: &str = "x-csrf-token";

/// Random bytes in a session id and a CSRF token: 256 bits.
const RANDOM_BYTES: usize = 32;

/// A session id, as its cookie holds it: never shown (its `Debug` hides it) and never stored.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct SessionId(String);

impl fmt::Debug for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SessionId(…)")
    }
}

/// `RANDOM_BYTES` random bytes in hexadecimal.
pub(crate) fn random_hex() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; RANDOM_BYTES];
    getrandom::fill(&mut bytes)?;
    Ok(hex(&bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl SessionId {
    /// A new random id.
    pub(crate) fn random() -> Result<SessionId, getrandom::Error> {
        random_hex().map(SessionId)
    }

    /// The id the request's cookie holds, if it holds one of the right form.
    pub(crate) fn from_headers(headers: &HeaderMap) -> Option<SessionId> {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(name, _)| *name == COOKIE)
            .map(|(_, value)| value.trim())
            .filter(|value| {
                value.len() == 2 * RANDOM_BYTES && value.bytes().all(|b| b.is_ascii_hexdigit())
            })
            .map(|value| SessionId(value.to_ascii_lowercase()))
    }

    /// What the store keeps of it: its SHA-256, in hexadecimal.
    pub(crate) fn key(&self) -> String {
        hex(&Sha256::digest(self.0.as_bytes()))
    }

    /// The `Set-Cookie` value that hands it to the browser.
    pub(crate) fn cookie(&self, secure: bool) -> HeaderValue {
        let max_age = LIFETIME_MS / 1000;
        let secure = if secure { "; Secure" } else { "" };
        let text = format!(
            "{COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}",
            self.0
        );
        HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
    }
}

/// The `Set-Cookie` value that removes the session's cookie.
pub(crate) fn cleared(secure: bool) -> HeaderValue {
    if secure {
        HeaderValue::from_static(
            "arbiter_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure",
        )
    } else {
        HeaderValue::from_static("arbiter_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
    }
}

/// Whether the request carries `csrf` in its `X-CSRF-Token` header, compared in time that does
/// not depend on where they differ.
pub(crate) fn carries_csrf(headers: &HeaderMap, csrf: &str) -> bool {
    let Some(sent) = headers.get(CSRF_HEADER).map(HeaderValue::as_bytes) else { return false };
    let ours = csrf.as_bytes();
    sent.len() == ours.len() && sent.iter().zip(ours).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_are_256_random_bits_read_back_from_the_cookie() {
        let id = SessionId::random().unwrap();
        assert_eq!(id.0.len(), 64);
        assert_ne!(SessionId::random().unwrap(), id);
        assert_eq!(format!("{id:?}"), "SessionId(…)");
        let cookie = id.cookie(false);
        let text = cookie.to_str().unwrap();
        assert!(
            text.contains("HttpOnly") && text.contains("SameSite=Lax") && !text.contains("Secure")
        );
        assert!(id.cookie(true).to_str().unwrap().ends_with("; Secure"));
        let mut headers = HeaderMap::new();
        let pair = text.split(';').next().unwrap();
        headers
            .insert(header::COOKIE, HeaderValue::from_str(&format!("theme=dark; {pair}")).unwrap());
        assert_eq!(SessionId::from_headers(&headers), Some(id.clone()));
        // The store's key is no id.
        assert_eq!(id.key().len(), 64);
        assert_ne!(id.key(), id.0);
        for bad in ["arbiter_session=short", "arbiter_session=", "other=1"] {
            headers.insert(header::COOKIE, HeaderValue::from_static(bad));
            assert_eq!(SessionId::from_headers(&headers), None, "{bad}");
        }
    }

    #[test]
    fn the_csrf_token_must_be_sent_exactly() {
        let mut headers = HeaderMap::new();
        assert!(!carries_csrf(&headers, "abc"));
        headers.insert(CSRF_HEADER, HeaderValue::from_static("abd"));
        assert!(!carries_csrf(&headers, "abc"));
        headers.insert(CSRF_HEADER, HeaderValue::from_static("abc"));
        assert!(carries_csrf(&headers, "abc"));
    }
}
