//! A PostgreSQL database's address as an operator writes it: a `postgres://` URL whose settings
//! are libpq's, with TLS chosen as libpq chooses it (`sslmode`, `sslrootcert`) but made by rustls,
//! and the pool's size (`pool_max_size`).
//!
//! `sslmode` is one of:
//!
//! | mode          | TLS                          | the server's certificate                       |
//! |---------------|------------------------------|------------------------------------------------|
//! | `disable`     | never                        | —                                              |
//! | `prefer`      | if the server offers it      | not checked (the default, as in libpq)         |
//! | `require`     | always                       | not checked                                    |
//! | `verify-ca`   | always                       | signed by a trusted authority                  |
//! | `verify-full` | always                       | signed by a trusted authority, for the host    |
//!
//! The trusted authorities are those of the PEM file `sslrootcert=PATH`, else (or with
//! `sslrootcert=system`) the system's. A Unix socket never carries TLS: PostgreSQL offers none
//! there.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio_postgres::Config;
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::store::StoreError;

/// How long a connection may take unless the URL says (`connect_timeout`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections in the pool unless the URL says (`pool_max_size`).
pub const POOL_MAX_SIZE: usize = 16;

/// Where the database is and how to reach it.
#[derive(Clone)]
pub struct Address {
    /// libpq's settings, but TLS's.
    pub(crate) config: Config,
    /// The TLS connector that `sslmode` asks for.
    pub(crate) tls: MakeRustlsConnect,
    /// The most connections the pool opens.
    pub(crate) pool_max_size: usize,
}

/// `sslmode`'s values, libpq's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl Mode {
    fn parse(text: &str) -> Result<Mode, StoreError> {
        Ok(match text {
            "disable" => Mode::Disable,
            "prefer" => Mode::Prefer,
            "require" => Mode::Require,
            "verify-ca" => Mode::VerifyCa,
            "verify-full" => Mode::VerifyFull,
            _ => {
                return Err(StoreError::Address(format!(
                    "sslmode is disable, prefer, require, verify-ca or verify-full, not `{text}`"
                )));
            }
        })
    }
}

impl Address {
    /// The address `url` (`postgres://` or `postgresql://`; a host that is a path is a Unix
    /// socket's directory). An error never repeats the URL, which may hold a password.
    pub fn parse(url: &str) -> Result<Address, StoreError> {
        if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
            return Err(StoreError::Address(
                "it must begin with postgres:// or postgresql://".into(),
            ));
        }
        // The settings tokio-postgres does not know are taken out before it reads the rest.
        let (base, query) = url.split_once('?').unwrap_or((url, ""));
        let mut mode = Mode::Prefer;
        let mut roots = None;
        let mut pool_max_size = POOL_MAX_SIZE;
        let mut kept = Vec::new();
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = percent_encoding::percent_decode_str(value).decode_utf8_lossy();
            match key {
                "sslmode" => mode = Mode::parse(&value)?,
                "sslrootcert" => roots = Some(value.into_owned()),
                "pool_max_size" => {
                    pool_max_size =
                        value.parse().ok().filter(|&size| size > 0).ok_or_else(|| {
                            StoreError::Address(format!("pool_max_size is a count, not `{value}`"))
                        })?;
                }
                _ => kept.push(pair),
            }
        }
        let rest =
            if kept.is_empty() { base.to_owned() } else { format!("{base}?{}", kept.join("&")) };
        let mut config = Config::from_str(&rest)
            .map_err(|error| StoreError::Address(super::describe(&error)))?;
        // An unreachable server fails a start, or a reconnection, rather than hanging it.
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        config.ssl_mode(match mode {
            Mode::Disable => SslMode::Disable,
            Mode::Prefer => SslMode::Prefer,
            Mode::Require | Mode::VerifyCa | Mode::VerifyFull => SslMode::Require,
        });
        let tls = MakeRustlsConnect::new(tls(mode, roots.as_deref())?);
        Ok(Address { config, tls, pool_max_size })
    }
}

/// The rustls settings `mode` asks for, trusting the authorities in `roots`.
fn tls(mode: Mode, roots: Option<&str>) -> Result<ClientConfig, StoreError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|error| StoreError::Address(format!("TLS: {error}")))?;
    let algorithms = provider.signature_verification_algorithms;
    let verifier: Arc<dyn ServerCertVerifier> = match mode {
        // With `disable` the connector is never used; with `prefer` and `require` libpq checks
        // nothing but that the handshake is sound.
        Mode::Disable | Mode::Prefer | Mode::Require => Arc::new(Unchecked(algorithms)),
        Mode::VerifyCa | Mode::VerifyFull => {
            let full = WebPkiServerVerifier::builder_with_provider(
                Arc::new(trusted(roots)?),
                Arc::clone(&provider),
            )
            .build()
            .map_err(|error| StoreError::Address(format!("TLS: {error}")))?;
            if mode == Mode::VerifyFull { full } else { Arc::new(AnyName(full)) }
        }
    };
    Ok(builder.dangerous().with_custom_certificate_verifier(verifier).with_no_client_auth())
}

/// The authorities trusted: those of the PEM file `roots`, else the system's.
fn trusted(roots: Option<&str>) -> Result<RootCertStore, StoreError> {
    let mut store = RootCertStore::empty();
    match roots {
        Some(path) if path != "system" => {
            let unreadable = |error: &dyn std::fmt::Display| {
                StoreError::Address(format!("sslrootcert {path}: {error}"))
            };
            for certificate in CertificateDer::pem_file_iter(path).map_err(|e| unreadable(&e))? {
                store.add(certificate.map_err(|e| unreadable(&e))?).map_err(|e| unreadable(&e))?;
            }
        }
        _ => {
            let found = rustls_native_certs::load_native_certs();
            store.add_parsable_certificates(found.certs);
        }
    }
    if store.is_empty() {
        return Err(StoreError::Address(
            "sslmode verify-ca and verify-full need trusted authorities: none found (give \
             sslrootcert=PATH)"
                .into(),
        ));
    }
    Ok(store)
}

/// Checks the handshake's signatures but not who signed the certificate: `prefer` and `require`.
#[derive(Debug)]
struct Unchecked(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        certificate: &CertificateDer<'_>,
        signature: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, certificate, signature, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        certificate: &CertificateDer<'_>,
        signature: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, certificate, signature, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}

/// `verify-ca`: the full check, less the host's name.
#[derive(Debug)]
struct AnyName(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self.0.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        certificate: &CertificateDer<'_>,
        signature: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, certificate, signature)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        certificate: &CertificateDer<'_>,
        signature: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, certificate, signature)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_of_its_own_are_taken_out_and_the_rest_kept() {
        let address = Address::parse(
            "postgres://ann@db.example/games?sslmode=require&pool_max_size=4&application_name=x",
        )
        .unwrap();
        assert_eq!(address.pool_max_size, 4);
        assert_eq!(address.config.get_ssl_mode(), SslMode::Require);
        assert_eq!(address.config.get_application_name(), Some("x"));
        assert_eq!(address.config.get_connect_timeout(), Some(&CONNECT_TIMEOUT));
        let plain = Address::parse("postgresql:///games?host=/run/postgresql").unwrap();
        assert_eq!(plain.config.get_ssl_mode(), SslMode::Prefer);
        assert_eq!(plain.pool_max_size, POOL_MAX_SIZE);
    }

    #[test]
    fn bad_settings_are_refused_without_the_password() {
        for (url, says) in [
            ("postgres://ann:secret@h/db?sslmode=allow", "sslmode"),
            ("postgres://ann:secret@h/db?pool_max_size=0", "pool_max_size"),
            (
                "postgres://ann:secret@h/db?sslmode=verify-full&sslrootcert=/nonexistent",
                "sslrootcert",
            ),
            ("postgres://ann:secret@h/db?nonsense=1", "nonsense"),
            ("mysql://ann:secret@h/db", "postgres://"),
        ] {
            let error = Address::parse(url).err().unwrap().to_string();
            assert!(error.contains(says), "{url}: {error}");
            assert!(!error.contains("secret"), "{url}: {error}");
        }
    }
}
