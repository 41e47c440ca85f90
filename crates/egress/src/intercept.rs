//! HTTPS seen in the clear: the sink holds a certificate authority made for this sink alone, and
//! the container is told to trust it (its file mounted at [`crate::CA_PATH`], the usual variables
//! pointing there, [`crate::ca_env`]). For each server name a client asks for, a certificate is
//! issued on the spot; the TLS connection is then terminated and the HTTP inside recorded like
//! plain HTTP. The authority's key never leaves the host process and dies with the sink; a client
//! that does not trust it (its own pinned roots) fails the handshake and is recorded by server
//! name only.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair, KeyUsagePurpose};
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use tokio_rustls::TlsAcceptor;

/// Server names a sink issues certificates for; a client asking for more gets none.
const MAX_NAMES: usize = 256;

/// The sink's authority and the TLS acceptor that issues from it.
pub(crate) struct Interceptor {
    ca_pem: String,
    pub(crate) acceptor: TlsAcceptor,
}

/// Issues a certificate per server name, signed by the authority, and keeps it for the sink's life.
struct Issuer {
    ca: rcgen::Certificate,
    ca_key: KeyPair,
    issued: Mutex<HashMap<String, Arc<CertifiedKey>>>,
}

impl std::fmt::Debug for Issuer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Issuer")
    }
}

impl Issuer {
    fn issue(&self, name: &str) -> Option<Arc<CertifiedKey>> {
        let key = KeyPair::generate().ok()?;
        let mut params = CertificateParams::new(vec![name.to_string()]).ok()?;
        params.distinguished_name.push(DnType::CommonName, name);
        let cert = params.signed_by(&key, &self.ca, &self.ca_key).ok()?;
        let der = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
        let signing = rustls::crypto::ring::sign::any_supported_type(&der).ok()?;
        Some(Arc::new(CertifiedKey::new(vec![cert.der().clone(), self.ca.der().clone()], signing)))
    }
}

impl ResolvesServerCert for Issuer {
    fn resolve(&self, hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        let name = hello.server_name()?.to_ascii_lowercase();
        let mut issued = self.issued.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(key) = issued.get(&name) {
            return Some(key.clone());
        }
        if issued.len() >= MAX_NAMES {
            return None;
        }
        let key = self.issue(&name)?;
        issued.insert(name, key.clone());
        Some(key)
    }
}

impl Interceptor {
    pub(crate) fn new() -> Result<Interceptor, String> {
        let ca_key = KeyPair::generate().map_err(|e| e.to_string())?;
        let mut params = CertificateParams::default();
        params.distinguished_name.push(DnType::CommonName, "Skillscope egress sink (one trial only)");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::DigitalSignature];
        let ca = params.self_signed(&ca_key).map_err(|e| e.to_string())?;
        let ca_pem = ca.pem();
        let issuer = Issuer { ca, ca_key, issued: Mutex::default() };
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_no_client_auth()
            .with_cert_resolver(Arc::new(issuer));
        Ok(Interceptor { ca_pem, acceptor: TlsAcceptor::from(Arc::new(config)) })
    }

    /// The authority's certificate, for the container to trust.
    pub(crate) fn ca_pem(&self) -> &str {
        &self.ca_pem
    }
}
