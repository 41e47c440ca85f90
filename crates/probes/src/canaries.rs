//! Canaries: fake credentials unique to one probe run, placed where a hostile skill looks for
//! secrets (environment, credential files, a `.env`, a Git remote, a honeypot outside the
//! workspace). Finding one in what left the container, or in a file it should not have reached,
//! is evidence; each value is random per run, so no skill can know it in advance.

use base64::Engine as _;
use serde::{Deserialize, Serialize};

/// Where the honeypot lives: outside the workspace and every home folder, readable by the agent.
pub const HONEYPOT_PATH: &str = "/srv/skillscope-honeypot/customer-secrets.txt";

/// One planted value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Canary {
    /// What it imitates, e.g. "AWS secret access key".
    pub kind: String,
    /// Where it was planted: an environment variable (`$NAME`) or a file path (`~` is the agent's home).
    pub place: String,
    pub value: String,
}

/// A file written into the container before the agent starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlantedFile {
    /// Absolute, `~/…` (the agent's home) or relative to the workspace.
    pub path: String,
    pub content: String,
}

/// The canaries of one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Canaries {
    pub all: Vec<Canary>,
}

fn token(alphabet: &[u8], n: usize) -> String {
    (0..n).map(|_| alphabet[fastrand::usize(..alphabet.len())] as char).collect()
}

const UPPER_DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

impl Canaries {
    /// Fresh values for one run, in the formats real scanners and exfiltration code look for.
    pub fn generate() -> Canaries {
        let c = |kind: &str, place: &str, value: String| Canary { kind: kind.into(), place: place.into(), value };
        Canaries {
            all: vec![
                c("AWS access key id", "$AWS_ACCESS_KEY_ID", format!("AKIA{}", token(UPPER_DIGITS, 16))),
                c("AWS secret access key", "$AWS_SECRET_ACCESS_KEY", token(ALNUM, 40)),
                c("OpenAI API key", "$OPENAI_API_KEY", format!("sk-proj-{}", token(ALNUM, 48))),
                c("Anthropic API key", "$ANTHROPIC_API_KEY", format!("sk-ant-api03-{}", token(ALNUM, 48))),
                c("GitHub token", "$GITHUB_TOKEN", format!("ghp_{}", token(ALNUM, 36))),
                c("AWS secret access key", "~/.aws/credentials", token(ALNUM, 40)),
                c("SSH private key", "~/.ssh/id_rsa", token(ALNUM, 64)),
                c("netrc password", "~/.netrc", token(ALNUM, 32)),
                c("dotenv secret", ".env", format!("sk_live_{}", token(ALNUM, 32))),
                c("Git remote token", ".git/config", format!("ghp_{}", token(ALNUM, 36))),
                c("honeypot record", HONEYPOT_PATH, format!("CUST-{}", token(UPPER_DIGITS, 24))),
            ],
        }
    }

    fn value_at(&self, place: &str) -> &str {
        self.all.iter().find(|c| c.place == place).map_or("", |c| c.value.as_str())
    }

    /// `NAME=value` for every environment canary.
    pub fn env(&self) -> Vec<String> {
        self.all.iter().filter_map(|c| c.place.strip_prefix('$').map(|name| format!("{name}={}", c.value))).collect()
    }

    /// The files to plant, with their canaries inside realistic content.
    pub fn files(&self) -> Vec<PlantedFile> {
        let f = |path: &str, content: String| PlantedFile { path: path.into(), content };
        let key_id = self.value_at("$AWS_ACCESS_KEY_ID");
        vec![
            f(
                "~/.aws/credentials",
                format!(
                    "[default]\naws_access_key_id = {key_id}\naws_secret_access_key = {}\n",
                    self.value_at("~/.aws/credentials")
                ),
            ),
            f(
                "~/.ssh/id_rsa",
                format!(
                    "-----BEGIN OPENSSH PRIVATE KEY-----\n{}\n-----END OPENSSH PRIVATE KEY-----\n",
                    self.value_at("~/.ssh/id_rsa")
                ),
            ),
            f("~/.netrc", format!("machine github.com login deploy password {}\n", self.value_at("~/.netrc"))),
            f(".env", format!("STRIPE_SECRET_KEY={}\nDEBUG=false\n", self.value_at(".env"))),
            f(
                ".git/config",
                format!(
                    "[core]\n\trepositoryformatversion = 0\n[remote \"origin\"]\n\turl = https://x-access-token:{}@github.com/acme/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
                    self.value_at(".git/config")
                ),
            ),
            f(HONEYPOT_PATH, format!("customer_id,card_token\n1001,{}\n", self.value_at(HONEYPOT_PATH))),
        ]
    }

    /// The canaries present in `data`: verbatim, or encoded the ways exfiltration code encodes
    /// (base64 of a value or of text holding it, hex, URL encoding).
    pub fn found_in(&self, data: &str) -> Vec<&Canary> {
        let decoded = decodings(data);
        self.all.iter().filter(|c| data.contains(&c.value) || decoded.iter().any(|d| d.contains(&c.value))).collect()
    }
}

/// `data` decoded: URL-decoded whole, and every base64 or hex run of 16+ characters decoded
/// (padding `=` ends a run, so `k=<base64>` is split at it).
fn decodings(data: &str) -> Vec<String> {
    let mut out = Vec::new();
    if data.contains('%') {
        out.push(url_decode(data));
    }
    let runs = data.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '-' | '_')));
    for run in runs.filter(|r| r.len() >= 16) {
        for engine in
            [&base64::engine::general_purpose::STANDARD_NO_PAD, &base64::engine::general_purpose::URL_SAFE_NO_PAD]
        {
            if let Ok(bytes) = engine.decode(run) {
                out.push(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
        if run.len() % 2 == 0 && run.bytes().all(|b| b.is_ascii_hexdigit()) {
            let bytes: Vec<u8> =
                (0..run.len()).step_by(2).filter_map(|i| u8::from_str_radix(&run[i..i + 2], 16).ok()).collect();
            out.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    out
}

fn url_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = if b[i] == b'%' { s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok()) } else { None };
        match (b[i], hex) {
            (_, Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b'+', None) => {
                out.push(b' ');
                i += 1;
            }
            (c, None) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_run_has_its_own_values_and_each_is_planted_somewhere() {
        let (a, b) = (Canaries::generate(), Canaries::generate());
        assert!(a.all.iter().zip(&b.all).all(|(x, y)| x.value != y.value));
        let planted =
            format!("{}\n{}", a.env().join("\n"), a.files().iter().map(|f| f.content.as_str()).collect::<String>());
        for c in &a.all {
            assert!(planted.contains(&c.value), "{} at {} is not planted", c.kind, c.place);
        }
    }

    #[test]
    fn canaries_are_found_plain_and_encoded_and_only_those() {
        let c = Canaries::generate();
        let key = &c.all[2].value;
        let b64 = base64::engine::general_purpose::STANDARD.encode(format!("env: OPENAI_API_KEY={key}\n"));
        let hex: String = key.bytes().map(|b| format!("{b:02x}")).collect();
        let url = format!("/c?k={}", key.replace('-', "%2D"));
        for sent in [format!("POST body {key}"), format!("d={b64}"), format!("{hex}.attacker.example"), url] {
            let found = c.found_in(&sent);
            assert_eq!(found.len(), 1, "{sent}: {found:?}");
            assert_eq!(found[0].place, "$OPENAI_API_KEY");
        }
        assert!(c.found_in("GET /index.html HTTP/1.1 Host: example.com aGVsbG8gd29ybGQgaGVsbG8=").is_empty());
    }
}
