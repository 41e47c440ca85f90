//! What must not leave the machine in anything exported (reports, experiment bundles, trial
//! evidence): stored
//! provider keys, key-shaped strings, the workspace path and the user's home directory.

use crate::agents;
use crate::credentials;
use crate::error::Result;
use skillscope_atif::Redactor;
use skillscope_store::workspace::Workspace;

pub struct Scrubber {
    keys: Redactor,
    workspace: String,
    home: Option<String>,
}

impl Scrubber {
    /// Reads every stored provider key once (the keyring is slow to ask per string).
    pub fn new(ws: &Workspace) -> Result<Self> {
        let mut secrets = Vec::new();
        for p in agents::providers(ws)? {
            if let Ok(Some(k)) = credentials::get(&p.config.id) {
                secrets.push(k);
            }
        }
        Ok(Self {
            keys: Redactor::new(secrets),
            workspace: ws.home().display().to_string(),
            home: dirs::home_dir().filter(|h| h.as_os_str().len() > 1).map(|h| h.display().to_string()),
        })
    }

    pub fn text(&self, text: &str) -> String {
        let mut text = self.keys.redact(text).replace(&self.workspace, "<workspace>");
        if let Some(home) = &self.home {
            text = text.replace(home.as_str(), "~");
        }
        text
    }

    /// Scrubs every string of a JSON document (object keys are left as they are).
    pub fn json(&self, value: &mut serde_json::Value) {
        skillscope_atif::redact::map_strings(value, &|text| self.text(text));
    }
}
