//! Python lockfiles read as pins pip can install: `uv.lock` and `poetry.lock` (TOML, one
//! `[[package]]` per locked package) and `Pipfile.lock` (JSON, `default` and `develop`), each
//! package as `name==version`. Packages that are not from an index (the project itself, a folder,
//! a Git checkout, a file) are left out: pip cannot fetch them by version.

use serde::Deserialize;

/// The lockfiles read, in the order tried: the first one present is used.
pub const LOCKFILES: [&str; 3] = ["uv.lock", "poetry.lock", "Pipfile.lock"];

#[derive(Deserialize)]
struct TomlLock {
    #[serde(default)]
    package: Vec<TomlPackage>,
}

#[derive(Deserialize)]
struct TomlPackage {
    name: String,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    source: Option<toml::Value>,
}

impl TomlPackage {
    /// From an index: uv's `source = { registry = … }`, or poetry's package without a `source`
    /// table (or one of type `legacy`, a private index).
    fn is_from_an_index(&self) -> bool {
        match &self.source {
            None => true,
            Some(s) => s.get("registry").is_some() || s.get("type").and_then(|t| t.as_str()) == Some("legacy"),
        }
    }
}

/// The pins of lockfile `name` (one of [`LOCKFILES`]) whose text is `text`, sorted; `Err` says
/// why it cannot be read.
pub fn pins(name: &str, text: &str) -> Result<Vec<String>, String> {
    let mut pins: Vec<String> = match name {
        "Pipfile.lock" => {
            let json: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("{name}: {e}"))?;
            ["default", "develop"]
                .iter()
                .filter_map(|section| json[section].as_object())
                .flatten()
                .filter_map(|(package, entry)| Some(format!("{package}{}", entry["version"].as_str()?)))
                .collect()
        }
        _ => {
            let lock: TomlLock = toml::from_str(text).map_err(|e| format!("{name}: {e}"))?;
            lock.package
                .iter()
                .filter(|p| p.is_from_an_index())
                .filter_map(|p| Some(format!("{}=={}", p.name, p.version.as_deref()?)))
                .collect()
        }
    };
    pins.sort();
    pins.dedup();
    Ok(pins)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_lockfile_gives_its_index_packages_pinned() {
        let uv = r#"
version = 1
[[package]]
name = "stats"
version = "0.1.0"
source = { editable = "." }
[[package]]
name = "tinyround"
version = "0.1"
source = { registry = "https://pypi.org/simple" }
"#;
        assert_eq!(pins("uv.lock", uv).unwrap(), ["tinyround==0.1"]);
        let poetry = r#"
[[package]]
name = "requests"
version = "2.32.3"
[[package]]
name = "local"
version = "1.0"
[package.source]
type = "directory"
url = "../local"
"#;
        assert_eq!(pins("poetry.lock", poetry).unwrap(), ["requests==2.32.3"]);
        let pipfile = r#"{"default": {"six": {"version": "==1.16.0"}, "mine": {"path": "."}},
                          "develop": {"pytest": {"version": "==8.3.2"}}}"#;
        assert_eq!(pins("Pipfile.lock", pipfile).unwrap(), ["pytest==8.3.2", "six==1.16.0"]);
        assert!(pins("uv.lock", "[[package]\n").unwrap_err().starts_with("uv.lock: "));
    }
}
