//! What ran in an arm, recorded when its trial runs: the effective configuration (provider, model,
//! sampling and limits, harness and version, system prompt), the image digest, the task's content
//! and the skills' trees, and the model ids the provider reported. The fairness check compares
//! these snapshots rather than configuration ids, so a configuration edited between the arms of
//! a pair is caught, and results show what ran rather than today's configuration.

use crate::harnesses::Harness;
use serde::{Deserialize, Serialize};
use skillscope_agent::AgentLimits;
use skillscope_models::ApiKind;
use ts_rs::TS;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ArmSnapshot {
    pub api: ApiKind,
    /// Scheme, host and port of the provider's base URL; never its path or credentials.
    pub provider_host: String,
    /// The model id asked for.
    pub model: String,
    /// Turns, tokens, wall time and sampling (temperature, maximum output tokens).
    pub limits: AgentLimits,
    pub harness: Harness,
    pub harness_version: String,
    /// SHA-256 of the system prompt Skillscope gives the agent, without the arm's skill listing;
    /// None for a harness that writes its own.
    pub system_prompt_sha256: Option<String>,
    pub image_digest: String,
    /// Who the agent, the set-up and the verifier ran as: `uid:gid`, or `root` for a task that
    /// asked for it.
    #[serde(default)]
    pub user: String,
    /// SHA-256 of the task as the arm ran it: the trial's specification without its skills, and
    /// the tree of the workspace folder copied in.
    pub task_sha256: String,
    pub skills: Vec<SkillSnapshot>,
    /// The model ids the provider reported answering with, each once, in order of first answer.
    pub reported_models: Vec<String>,
    /// What the container tried to reach besides the model calls through the proxy (a CLI
    /// harness's trials are watched: DNS, HTTP and TLS go to a recording sink), a line each;
    /// empty when nothing did. None when the trial was not watched.
    #[serde(default)]
    pub egress: Option<Vec<String>>,
    /// What bounded the trial's disk in every phase: the storage driver's quota (with the watch),
    /// or the watch of the writable layer alone where the driver has none. None in snapshots from
    /// before it was recorded.
    #[serde(default)]
    pub disk_limit: Option<String>,
}

impl ArmSnapshot {
    /// What ran in a few words: model, harness and its version, and the user.
    pub fn short(&self) -> String {
        format!("{} · {} {} · {}", self.model, self.harness.as_str(), self.harness_version, self.user_or_root())
    }

    /// The user the arm ran as; snapshots from before users were recorded ran as root.
    pub fn user_or_root(&self) -> &str {
        if self.user.is_empty() {
            "root"
        } else {
            &self.user
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillSnapshot {
    pub name: String,
    pub version_id: i64,
    /// The version's tree hash (`path NUL sha256 LF` over its sorted files).
    pub tree_sha256: String,
}

/// The scheme, host and port of a URL, without user info, path or query.
pub fn url_host(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if scheme.is_empty() {
        host.to_string()
    } else {
        format!("{scheme}://{host}")
    }
}

/// The model ids a built-in agent's trajectory says the provider answered with, each once.
pub fn reported_models(trajectory: &serde_json::Value) -> Vec<String> {
    let mut models: Vec<String> = Vec::new();
    let requests = trajectory["final_metrics"]["extra"]["model_requests"].as_array().cloned().unwrap_or_default();
    for m in requests.iter().filter_map(|r| r["model"].as_str()) {
        if !models.iter().any(|seen| seen == m) {
            models.push(m.to_string());
        }
    }
    models
}

/// One line per field in which the arms' snapshots differ, skills aside (they differ on purpose).
pub fn differences(without: &ArmSnapshot, with: &ArmSnapshot) -> Vec<String> {
    let fields = |s: &ArmSnapshot| match serde_json::to_value(s) {
        Ok(serde_json::Value::Object(mut map)) => {
            // What each arm saw and what its container sent are the arm's own, not its setting.
            map.remove("skills");
            map.remove("egress");
            map
        }
        _ => serde_json::Map::new(),
    };
    let (a, b) = (fields(without), fields(with));
    a.iter()
        .filter(|(k, v)| b.get(*k) != Some(v))
        .map(|(k, v)| format!("the arms ran with different {k}: {v} without the skill, {} with it", b[k]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(model: &str) -> ArmSnapshot {
        ArmSnapshot {
            api: ApiKind::OpenAiChat,
            provider_host: url_host("http://user:pw@127.0.0.1:8080/v1?x=1"),
            model: model.into(),
            limits: AgentLimits::default(),
            harness: Harness::Builtin,
            harness_version: "1".into(),
            system_prompt_sha256: Some("p".into()),
            image_digest: "sha256:i".into(),
            user: "1000:1000".into(),
            task_sha256: "t".into(),
            skills: Vec::new(),
            reported_models: vec![model.into()],
            egress: None,
            disk_limit: None,
        }
    }

    #[test]
    fn the_host_keeps_no_credentials_and_differences_name_the_field() {
        assert_eq!(snapshot("m").provider_host, "http://127.0.0.1:8080");
        let mut with = snapshot("m");
        with.skills.push(SkillSnapshot { name: "s".into(), version_id: 1, tree_sha256: "h".into() });
        with.egress = Some(vec!["DNS A leak.example".into()]);
        assert!(differences(&snapshot("m"), &with).is_empty(), "skills and egress are the arm's own");
        let diff = differences(&snapshot("a"), &snapshot("b"));
        assert_eq!(diff.len(), 2, "{diff:?}");
        assert!(diff[0].contains("model: \"a\" without the skill, \"b\" with it"), "{diff:?}");
        assert!(diff[1].contains("reported_models"), "{diff:?}");
    }
}
