//! Model API keys live only in the OS keyring (service `skillscope`, one entry per provider id).
//! Nothing here writes a secret anywhere else; callers hold it in memory for one call. A crate of
//! its own, free of Linux-only code, so it is checked for macOS and Windows too.

#[derive(Debug, thiserror::Error)]
pub enum CredentialError {
    #[error("{0}")]
    InvalidInput(String),
    #[error("the OS keyring is unavailable for {provider:?} ({source}); {FIX}")]
    Keyring {
        provider: String,
        #[source]
        source: keyring::Error,
    },
}

pub type Result<T, E = CredentialError> = std::result::Result<T, E>;

#[cfg(target_os = "linux")]
const FIX: &str = "start a Secret Service (e.g. gnome-keyring) or set SKILLSCOPE_KEYRING=keyutils";
#[cfg(target_os = "macos")]
const FIX: &str = "unlock the login keychain in Keychain Access";
#[cfg(not(any(target_os = "linux", target_os = "macos")))]
const FIX: &str = "check that Windows Credential Manager is available to this user";

pub const SERVICE: &str = "skillscope";
/// Linux only: `keyutils` (kernel keyring, e.g. under `keyctl session`) or `secret-service`;
/// default: the platform's own choice (Secret Service with a kernel-keyring cache on Linux, the
/// Keychain on macOS, Credential Manager on Windows).
pub const STORE_ENV: &str = "SKILLSCOPE_KEYRING";

/// Picks the keyring store once per process, from `SKILLSCOPE_KEYRING` (Linux).
pub fn init_store() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    #[cfg(target_os = "linux")]
    ONCE.call_once(|| match std::env::var(STORE_ENV).as_deref() {
        Ok("keyutils") => keyring::set_default_credential_builder(keyring::keyutils::default_credential_builder()),
        Ok("secret-service") => {
            keyring::set_default_credential_builder(keyring::secret_service::default_credential_builder())
        }
        _ => {}
    });
    #[cfg(not(target_os = "linux"))]
    ONCE.call_once(|| {});
}

fn entry(provider: &str) -> Result<keyring::Entry> {
    if provider.trim().is_empty() {
        return Err(CredentialError::InvalidInput("a provider id is required".into()));
    }
    init_store();
    keyring::Entry::new(SERVICE, provider).map_err(|e| keyring_error(provider, e))
}

fn keyring_error(provider: &str, source: keyring::Error) -> CredentialError {
    CredentialError::Keyring { provider: provider.to_string(), source }
}

pub fn set(provider: &str, secret: &str) -> Result<()> {
    let secret = secret.trim();
    if secret.is_empty() {
        return Err(CredentialError::InvalidInput("the key is empty".into()));
    }
    entry(provider)?.set_password(secret).map_err(|e| keyring_error(provider, e))
}

/// The stored key, or None when there is none.
pub fn get(provider: &str) -> Result<Option<String>> {
    match entry(provider)?.get_password() {
        Ok(s) => Ok(Some(s)),
        Err(keyring::Error::NoEntry) => Ok(None),
        Err(e) => Err(keyring_error(provider, e)),
    }
}

/// Deletes the key; deleting a missing key is not an error. Returns whether one existed.
pub fn delete(provider: &str) -> Result<bool> {
    match entry(provider)?.delete_credential() {
        Ok(()) => Ok(true),
        Err(keyring::Error::NoEntry) => Ok(false),
        Err(e) => Err(keyring_error(provider, e)),
    }
}
