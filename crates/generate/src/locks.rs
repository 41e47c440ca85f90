//! Python lockfiles read as pins pip can install: `uv.lock` and `poetry.lock` (TOML, one
//! `[[package]]` per locked package) and `Pipfile.lock` (JSON, `default` and `develop`), each
//! package as `name==version`, with the environment marker under which it is needed (pip
//! evaluates it): a lock holds the packages of every platform, and one needed only on Windows
//! must not be installed on Linux. In a TOML lock the markers sit on the dependency edges: a
//! package every edge to which has a marker gets their disjunction; one with an edge without a
//! marker, or no edge in `dependencies` at all (a development or optional dependency), none.
//! Packages that are not from an index (the project itself, a folder, a Git checkout, a file) are
//! left out: pip cannot fetch them by version.

use serde::Deserialize;
use std::collections::BTreeMap;

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
    /// uv: `[{name, marker?}]`; poetry: `{name = "spec" | {version, markers?}}`.
    #[serde(default)]
    dependencies: Option<toml::Value>,
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

    /// Its dependency edges: (the dependency's normalised name, the edge's marker if any).
    fn edges(&self) -> Vec<(String, Option<String>)> {
        let marker = |v: &toml::Value, key: &str| v.get(key).and_then(|m| m.as_str()).map(String::from);
        match &self.dependencies {
            Some(toml::Value::Array(list)) => {
                list.iter().filter_map(|d| Some((normalised(d.get("name")?.as_str()?), marker(d, "marker")))).collect()
            }
            Some(toml::Value::Table(table)) => {
                table.iter().map(|(name, spec)| (normalised(name), marker(spec, "markers"))).collect()
            }
            _ => Vec::new(),
        }
    }
}

/// A package name as indexes compare them (PEP 503): lowercase, runs of `-`, `_`, `.` as one `-`.
fn normalised(name: &str) -> String {
    let lower = name.to_lowercase().replace(['_', '.'], "-");
    lower.split('-').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("-")
}

/// `pin` with `marker` when there is one, as a requirements line.
fn line(pin: String, marker: Option<&str>) -> String {
    match marker {
        Some(m) if !m.trim().is_empty() => format!("{pin} ; {m}"),
        _ => pin,
    }
}

/// The marker under which each package of a TOML lock is needed; None: always.
fn markers(lock: &TomlLock) -> BTreeMap<String, Option<String>> {
    let mut edges: BTreeMap<String, Vec<Option<String>>> = BTreeMap::new();
    for p in &lock.package {
        for (name, marker) in p.edges() {
            edges.entry(name).or_default().push(marker);
        }
    }
    edges
        .into_iter()
        .map(|(name, markers)| {
            let all: Option<Vec<String>> = markers.into_iter().collect();
            let joined = all.map(|mut m| {
                m.sort();
                m.dedup();
                match m.as_slice() {
                    [one] => one.clone(),
                    many => many.iter().map(|x| format!("({x})")).collect::<Vec<_>>().join(" or "),
                }
            });
            (name, joined)
        })
        .collect()
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
                .filter_map(|(package, entry)| {
                    let pin = format!("{package}{}", entry["version"].as_str()?);
                    Some(line(pin, entry["markers"].as_str()))
                })
                .collect()
        }
        _ => {
            let lock: TomlLock = toml::from_str(text).map_err(|e| format!("{name}: {e}"))?;
            let markers = markers(&lock);
            lock.package
                .iter()
                .filter(|p| p.is_from_an_index())
                .filter_map(|p| {
                    let pin = format!("{}=={}", p.name, p.version.as_deref()?);
                    Some(line(pin, markers.get(&normalised(&p.name)).cloned().flatten().as_deref()))
                })
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
        let pipfile = r#"{"default": {"six": {"version": "==1.16.0"}, "mine": {"path": "."},
                                      "pywin32": {"version": "==306", "markers": "sys_platform == 'win32'"}},
                          "develop": {"pytest": {"version": "==8.3.2"}}}"#;
        assert_eq!(
            pins("Pipfile.lock", pipfile).unwrap(),
            ["pytest==8.3.2", "pywin32==306 ; sys_platform == 'win32'", "six==1.16.0"]
        );
        assert!(pins("uv.lock", "[[package]\n").unwrap_err().starts_with("uv.lock: "));
    }

    /// A lock holds every platform's packages: one needed only under a marker keeps it.
    #[test]
    fn a_package_needed_only_under_markers_keeps_them() {
        let uv = r#"
[[package]]
name = "app"
version = "0.1.0"
source = { editable = "." }
dependencies = [
    { name = "colorama", marker = "sys_platform == 'win32'" },
    { name = "pywin32", marker = "sys_platform == 'win32'" },
    { name = "Click" },
]
[[package]]
name = "click"
version = "8.1.7"
source = { registry = "https://pypi.org/simple" }
dependencies = [{ name = "colorama", marker = "platform_system == 'Windows'" }]
[[package]]
name = "colorama"
version = "0.4.6"
source = { registry = "https://pypi.org/simple" }
[[package]]
name = "pywin32"
version = "306"
source = { registry = "https://pypi.org/simple" }
"#;
        assert_eq!(
            pins("uv.lock", uv).unwrap(),
            [
                "click==8.1.7",
                "colorama==0.4.6 ; (platform_system == 'Windows') or (sys_platform == 'win32')",
                "pywin32==306 ; sys_platform == 'win32'",
            ]
        );
        let poetry = r#"
[[package]]
name = "requests"
version = "2.32.3"
[package.dependencies]
win-inet-pton = {version = "*", markers = "sys_platform == 'win32'"}
idna = ">=2.5"
[[package]]
name = "win-inet-pton"
version = "1.1.0"
[[package]]
name = "idna"
version = "3.7"
"#;
        assert_eq!(
            pins("poetry.lock", poetry).unwrap(),
            ["idna==3.7", "requests==2.32.3", "win-inet-pton==1.1.0 ; sys_platform == 'win32'"]
        );
    }
}
