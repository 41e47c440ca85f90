//! `config/benchmark_config.yaml` of SWE-Skills-Bench: global settings and
//! one entry per skill (repository at a pinned commit, image, limits, setup
//! commands, evaluation levels). The benchmark's own file repeats the
//! `limits:` key inside `environment:`; repeated mapping keys are merged.

use crate::error::ImportError;
use crate::files::read_text;
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_yaml::{Mapping, Value};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Clone, PartialEq)]
pub struct BenchConfig {
    pub workspace_dir: String,
    pub tasks_dir: String,
    pub tests_dir: String,
    pub skills: Vec<BenchSkill>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BenchSkill {
    pub id: String,
    pub name: String,
    pub repo_url: Option<String>,
    pub repo_commit: Option<String>,
    pub base_image: Option<String>,
    /// Dockerfile path relative to the benchmark root, when given.
    pub dockerfile: Option<String>,
    pub build_context: Option<String>,
    pub cpus: Option<f64>,
    pub memory_mb: Option<u32>,
    pub total_timeout_sec: Option<u64>,
    pub env_vars: BTreeMap<String, String>,
    pub setup_commands: Vec<String>,
    pub unit_test: Option<UnitTest>,
    /// Enabled `build_check` commands (not part of the pass ratio).
    pub build_checks: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct UnitTest {
    pub test_command: String,
    pub timeout: Option<u64>,
}

impl BenchConfig {
    pub fn skill(&self, id: &str) -> Option<&BenchSkill> {
        self.skills.iter().find(|s| s.id == id)
    }
}

/// A YAML value whose repeated mapping keys are merged (mappings merge
/// recursively, anything else: the later one wins).
struct Merged(Value);

impl<'de> Deserialize<'de> for Merged {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(MergedVisitor).map(Merged)
    }
}

struct MergedVisitor;

impl<'de> Visitor<'de> for MergedVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Merged::deserialize(d).map(|m| m.0)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Merged(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Sequence(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Mapping::new();
        while let Some((Merged(k), Merged(v))) = map.next_entry()? {
            merge_into(&mut out, k, v);
        }
        Ok(Value::Mapping(out))
    }
}

fn merge_into(m: &mut Mapping, k: Value, v: Value) {
    match (m.get_mut(&k), v) {
        (Some(Value::Mapping(old)), Value::Mapping(new)) => {
            for (k2, v2) in new {
                merge_into(old, k2, v2);
            }
        }
        (_, v) => {
            m.insert(k, v);
        }
    }
}

pub fn load(path: &Path) -> Result<BenchConfig, ImportError> {
    let text = read_text(path)?;
    let Merged(root) = serde_yaml::from_str(&text).map_err(|e| ImportError::yaml(path, &e))?;
    let bad = |what: String| ImportError::invalid(path, what);
    let global = root.get("global");
    let gstr =
        |k: &str, default: &str| global.and_then(|g| g.get(k)).and_then(Value::as_str).unwrap_or(default).to_string();
    let skills_v =
        root.get("skills").and_then(Value::as_sequence).ok_or_else(|| ImportError::missing(path, "`skills` list"))?;
    let mut skills = Vec::new();
    for (i, s) in skills_v.iter().enumerate() {
        let skill = parse_skill(s).map_err(|e| bad(format!("skills[{i}]: {e}")))?;
        if skills.iter().any(|o: &BenchSkill| o.id == skill.id) {
            return Err(bad(format!("skills[{i}]: duplicate id `{}`", skill.id)));
        }
        skills.push(skill);
    }
    Ok(BenchConfig {
        workspace_dir: gstr("workspace_dir", "/workspace"),
        tasks_dir: gstr("tasks_dir", "tasks"),
        tests_dir: gstr("tests_dir", "tests"),
        skills,
    })
}

fn opt_str(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)
}

fn parse_skill(s: &Value) -> Result<BenchSkill, String> {
    let id = opt_str(s.get("id")).ok_or("no `id`")?;
    let ctx = |m: String| format!("(id `{id}`) {m}");
    let repo = s.get("repo");
    let env = s.get("environment");
    let envget = |k: &str| env.and_then(|e| e.get(k));
    let limits = envget("limits");
    let lim = |k: &str| limits.and_then(|l| l.get(k));
    let cpus = match lim("cpus") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            number(v)
                .filter(|c| *c > 0.0)
                .ok_or_else(|| ctx(format!("environment.limits.cpus `{}` is not a positive number", show(v))))?,
        ),
    };
    let memory_mb = match lim("memory") {
        None | Some(Value::Null) => None,
        Some(v) => Some(memory_mb(v).ok_or_else(|| {
            ctx(format!("environment.limits.memory `{}` is not a size like `8g` or `512m`", show(v)))
        })?),
    };
    let total_timeout_sec = lim("total_timeout_sec").and_then(number).map(|n| n.ceil() as u64);
    let env_vars = match envget("env_vars") {
        Some(Value::Mapping(m)) => m
            .iter()
            .map(|(k, v)| Ok((scalar(k).ok_or("env_vars key")?, scalar(v).ok_or("env_vars value")?)))
            .collect::<Result<_, &str>>()
            .map_err(|e| ctx(format!("environment.{e} is not a scalar")))?,
        None | Some(Value::Null) => BTreeMap::new(),
        Some(_) => return Err(ctx("environment.env_vars is not a mapping".into())),
    };
    let setup_commands = match envget("setup_commands") {
        Some(Value::Sequence(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| ctx("environment.setup_commands holds a non-string".into()))?,
        None | Some(Value::Null) => Vec::new(),
        Some(_) => return Err(ctx("environment.setup_commands is not a list".into())),
    };
    let mut unit_test = None;
    let mut build_checks = Vec::new();
    let evals = envget("evaluation").or_else(|| s.get("evaluation"));
    for e in evals.and_then(Value::as_sequence).into_iter().flatten() {
        if e.get("enabled").and_then(Value::as_bool) == Some(false) {
            continue;
        }
        let params = e.get("params");
        match e.get("method").and_then(Value::as_str) {
            Some("unit_test") => {
                let test_command = opt_str(params.and_then(|p| p.get("test_command")))
                    .ok_or_else(|| ctx("unit_test evaluation has no params.test_command".into()))?;
                let timeout = params.and_then(|p| p.get("timeout")).and_then(number).map(|n| n.ceil() as u64);
                unit_test = Some(UnitTest { test_command, timeout });
            }
            Some("build_check") => {
                if let Some(c) = opt_str(params.and_then(|p| p.get("build_command"))) {
                    build_checks.push(c);
                }
            }
            _ => {}
        }
    }
    Ok(BenchSkill {
        name: opt_str(s.get("name")).unwrap_or_else(|| id.clone()),
        repo_url: opt_str(repo.and_then(|r| r.get("url"))),
        repo_commit: opt_str(repo.and_then(|r| r.get("commit"))),
        base_image: opt_str(envget("base_image")),
        dockerfile: opt_str(envget("dockerfile")),
        build_context: opt_str(envget("build_context")),
        cpus,
        memory_mb,
        total_timeout_sec,
        env_vars,
        setup_commands,
        unit_test,
        build_checks,
        id,
    })
}

fn show(v: &Value) -> String {
    serde_yaml::to_string(v).unwrap_or_default().trim().to_string()
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .filter(|n: &f64| n.is_finite())
}

/// Docker-style sizes: `16g`, `512m`, `1024` (bytes), `2gb`.
fn memory_mb(v: &Value) -> Option<u32> {
    let s = match v {
        Value::Number(n) => return u32::try_from(n.as_u64()? / (1024 * 1024)).ok(),
        Value::String(s) => s.trim().to_ascii_lowercase(),
        _ => return None,
    };
    let s = s.strip_suffix('b').unwrap_or(&s);
    let (num, mult) = match s.chars().last()? {
        'k' => (&s[..s.len() - 1], 1.0 / 1024.0),
        'm' => (&s[..s.len() - 1], 1.0),
        'g' => (&s[..s.len() - 1], 1024.0),
        't' => (&s[..s.len() - 1], 1024.0 * 1024.0),
        _ => (s, 1.0 / (1024.0 * 1024.0)),
    };
    let mb = num.trim().parse::<f64>().ok()? * mult;
    (mb.is_finite() && mb >= 1.0 && mb <= u32::MAX as f64).then(|| mb.round() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_sizes() {
        let s = |x: &str| memory_mb(&Value::String(x.into()));
        assert_eq!(s("16g"), Some(16384));
        assert_eq!(s("512m"), Some(512));
        assert_eq!(s("2GB"), Some(2048));
        assert_eq!(s("lots"), None);
        assert_eq!(s("0m"), None);
    }

    #[test]
    fn repeated_keys_merge() {
        let y = "env:\n  limits:\n    cpus: \"4\"\n  limits:\n    total_timeout_sec: 60\n";
        let Merged(v) = serde_yaml::from_str(y).unwrap();
        let l = v.get("env").unwrap().get("limits").unwrap();
        assert_eq!(l.get("cpus").and_then(Value::as_str), Some("4"));
        assert_eq!(l.get("total_timeout_sec").and_then(Value::as_u64), Some(60));
    }

    #[test]
    fn bad_skill_entries_are_named() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("c.yaml");
        std::fs::write(&p, "skills:\n  - id: a\n    environment:\n      limits:\n        memory: lots\n").unwrap();
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("skills[0]") && e.contains("(id `a`)") && e.contains("memory"), "{e}");
        std::fs::write(&p, "skills: [\n").unwrap();
        assert!(matches!(load(&p).unwrap_err(), ImportError::Syntax { .. }));
    }
}
