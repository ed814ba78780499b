//! Passwords: kept only as Argon2id hashes (RFC 9106) in PHC form, made and checked off the async
//! threads, a few at a time.
//!
//! The parameters are OWASP's first recommendation for Argon2id: 19 MiB of memory, 2 passes, 1
//! lane (about 30 ms on one core of a 2020s machine). A hash keeps its parameters, so raising
//! them later leaves the hashes made before still checkable.
//!
//! Signing in as an account that does not exist checks the password against a hash of a random
//! password made once, so that an unknown name and a wrong password take the same time.

use std::fmt;
use std::sync::OnceLock;

use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};

/// Memory per hash, in KiB (19 MiB).
pub(crate) const MEMORY_KIB: u32 = 19 * 1024;

/// Passes over the memory.
pub(crate) const PASSES: u32 = 2;

/// Lanes.
pub(crate) const LANES: u32 = 1;

/// The shortest password, in characters.
pub(crate) const MIN_LEN: usize = 8;

/// The longest password read, in bytes: hashing is costly enough without a megabyte to read.
pub(crate) const MAX_LEN: usize = 1024;

/// A password as typed: never shown (its `Debug` hides it), never kept.
#[derive(Clone, serde::Deserialize)]
#[serde(transparent)]
pub(crate) struct Password(pub(super) String);

impl Password {
    /// Why the password cannot be a new one, if it cannot.
    pub(crate) fn refusal(&self) -> Option<String> {
        if self.0.chars().count() < MIN_LEN {
            return Some(format!("a password has at least {MIN_LEN} characters"));
        }
        if self.0.len() > MAX_LEN {
            return Some(format!("a password has at most {MAX_LEN} bytes"));
        }
        None
    }

    fn bytes(&self) -> &[u8] {
        // A longer password than the server reads is checked by its first bytes only; one that
        // long was refused when it was set.
        &self.0.as_bytes()[..self.0.len().min(MAX_LEN)]
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(…)")
    }
}

/// The hasher with arbiter's parameters.
fn hasher() -> Argon2<'static> {
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).expect("valid Argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Why a hash could not be made: the system's random generator failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot hash the password: {0}")]
pub(crate) struct HashError(String);

/// The PHC string of `password`'s Argon2id hash, with a random salt. Slow: call it off the
/// async threads.
pub(crate) fn hash(password: &Password) -> Result<String, HashError> {
    hasher()
        .hash_password(password.bytes())
        .map(|hash| hash.to_string())
        .map_err(|error| HashError(error.to_string()))
}

/// Whether `password` is the one hashed in `phc` (a hash that does not read is no match). Slow.
pub(crate) fn verify(password: &Password, phc: &str) -> bool {
    hasher().verify_password(password.bytes(), phc).is_ok()
}

/// Checks `password` against a hash of a random password, as long as a real check takes, and
/// answers no: for names that have no account.
pub(crate) fn verify_nobody(password: &Password) -> bool {
    static NOBODY: OnceLock<String> = OnceLock::new();
    let phc = NOBODY.get_or_init(|| {
        let mut random = [0u8; 32];
        // Without randomness the dummy is still a hash with the same parameters.
        let _ = getrandom::fill(&mut random);
        let secret: String = random.iter().map(|b| format!("{b:02x}")).collect();
        hash(&Password(secret)).unwrap_or_default()
    });
    let _ = verify(password, phc);
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_with_the_parameters_and_check_the_password() {
        let password = Password("correct horse".into());
        let phc = hash(&password).unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(!phc.contains("correct horse"));
        assert!(verify(&password, &phc));
        assert!(!verify(&Password("correct horsf".into()), &phc));
        assert!(!verify(&password, "not a hash"));
        // Salted: the same password hashes differently.
        assert_ne!(hash(&password).unwrap(), phc);
        assert!(!verify_nobody(&password));
        assert_eq!(format!("{password:?}"), "Password(…)");
    }

    #[test]
    fn new_passwords_have_8_characters_or_more() {
        assert!(Password("1234567".into()).refusal().is_some());
        assert!(Password("12345678".into()).refusal().is_none());
        // Characters, not bytes.
        assert!(Password("ééééééé".into()).refusal().is_some());
        assert!(Password("x".repeat(MAX_LEN + 1)).refusal().is_some());
    }
}
