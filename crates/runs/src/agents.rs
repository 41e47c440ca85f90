//! Model providers and named agent configurations, stored in SQLite. A provider's key is not part
//! of its record: it lives in the OS keyring (see `credentials`).

use crate::credentials;
use crate::error::{Result, RunsError};
use crate::harnesses::Harness;
use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};
use skillscope_agent::AgentLimits;
use skillscope_models::ProviderConfig;
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ProviderView {
    pub config: ProviderConfig,
    /// Whether the keyring holds a key for it (the key itself never leaves the keyring here).
    pub has_key: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AgentConfig {
    pub id: i64,
    pub name: String,
    pub harness: Harness,
    pub provider_id: String,
    pub model: String,
    pub limits: AgentLimits,
}

pub fn save_provider(ws: &Workspace, cfg: &ProviderConfig) -> Result<()> {
    if cfg.id.trim().is_empty() || cfg.base_url.trim().is_empty() {
        return Err(RunsError::InvalidInput("a provider needs an id and a base URL".into()));
    }
    ws.conn()?.execute(
        "INSERT INTO providers(id, config_json, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT(id) DO UPDATE SET config_json = excluded.config_json, updated_at = excluded.updated_at",
        params![cfg.id, serde_json::to_string(cfg)?, now()],
    )?;
    Ok(())
}

pub fn provider(ws: &Workspace, id: &str) -> Result<ProviderConfig> {
    let json: String = ws
        .conn()?
        .query_row("SELECT config_json FROM providers WHERE id = ?1", [id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| {
            RunsError::NotFound(format!("no provider {id:?}; add it in Settings or with `skillscope provider add`"))
        })?;
    Ok(serde_json::from_str(&json)?)
}

pub fn providers(ws: &Workspace) -> Result<Vec<ProviderView>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare("SELECT config_json FROM providers ORDER BY id")?;
    let rows: Vec<String> = st.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(|j| {
            let config: ProviderConfig = serde_json::from_str(&j)?;
            let has_key = credentials::get(&config.id).map(|k| k.is_some()).unwrap_or(false);
            Ok(ProviderView { config, has_key })
        })
        .collect()
}

/// Removes a provider and its key; refused while an agent configuration uses it.
pub fn delete_provider(ws: &Workspace, id: &str) -> Result<()> {
    let conn = ws.conn()?;
    let users: u32 = conn.query_row("SELECT COUNT(*) FROM agent_configs WHERE provider_id = ?1", [id], |r| r.get(0))?;
    if users > 0 {
        return Err(RunsError::Conflict(format!(
            "{users} agent configuration(s) use provider {id:?}; change or delete them first"
        )));
    }
    conn.execute("DELETE FROM providers WHERE id = ?1", [id])?;
    credentials::delete(id)?;
    Ok(())
}

/// Creates (id 0) or updates a configuration; returns its id.
pub fn save_agent(ws: &Workspace, a: &AgentConfig) -> Result<i64> {
    if a.name.trim().is_empty() || a.model.trim().is_empty() {
        return Err(RunsError::InvalidInput("an agent configuration needs a name and a model".into()));
    }
    let p = provider(ws, &a.provider_id)?;
    if let Some(api) = a.harness.api().filter(|&api| api != p.api) {
        return Err(RunsError::InvalidInput(format!(
            "{} speaks the {} API; provider {} uses {}",
            a.harness.as_str(),
            api.label(),
            p.id,
            p.api.label()
        )));
    }
    let conn = ws.conn()?;
    let limits = serde_json::to_string(&a.limits)?;
    if a.id == 0 {
        conn.execute(
            "INSERT INTO agent_configs(name, harness, provider_id, model, limits_json, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![a.name.trim(), a.harness.as_str(), a.provider_id, a.model, limits, now()],
        )
        .map_err(|e| unique_name(e, &a.name))?;
        return Ok(conn.last_insert_rowid());
    }
    let n = conn
        .execute(
            "UPDATE agent_configs SET name = ?1, harness = ?2, provider_id = ?3, model = ?4, limits_json = ?5, updated_at = ?6 WHERE id = ?7",
            params![a.name.trim(), a.harness.as_str(), a.provider_id, a.model, limits, now(), a.id],
        )
        .map_err(|e| unique_name(e, &a.name))?;
    if n == 0 {
        return Err(RunsError::NotFound(format!("no agent configuration with id {}", a.id)));
    }
    Ok(a.id)
}

fn unique_name(e: rusqlite::Error, name: &str) -> RunsError {
    match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
            RunsError::Conflict(format!("an agent configuration named {name:?} already exists"))
        }
        other => other.into(),
    }
}

pub fn agents(ws: &Workspace) -> Result<Vec<AgentConfig>> {
    let conn = ws.conn()?;
    let mut st =
        conn.prepare("SELECT id, name, harness, provider_id, model, limits_json FROM agent_configs ORDER BY name")?;
    let rows: Vec<(i64, String, String, String, String, String)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))?
        .collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(|(id, name, harness, provider_id, model, limits)| {
            Ok(AgentConfig {
                id,
                name,
                harness: Harness::parse(&harness)?,
                provider_id,
                model,
                limits: serde_json::from_str(&limits)?,
            })
        })
        .collect()
}

pub fn agent(ws: &Workspace, id: i64) -> Result<AgentConfig> {
    agents(ws)?
        .into_iter()
        .find(|a| a.id == id)
        .ok_or_else(|| RunsError::NotFound(format!("no agent configuration with id {id}")))
}

/// Agent configuration `id`, refused when its harness cannot run here (a CLI not installed). What
/// queues trials asks this, so that nothing is queued that would fail for want of it.
pub fn runnable(ws: &Workspace, id: i64) -> Result<AgentConfig> {
    let a = agent(ws, id)?;
    if a.harness != Harness::Builtin {
        crate::harnesses::binary(ws, a.harness)
            .map_err(|e| RunsError::NotFound(format!("agent configuration {:?} cannot run: {e}", a.name)))?;
    }
    Ok(a)
}

pub fn delete_agent(ws: &Workspace, id: i64) -> Result<()> {
    ws.conn()?.execute("DELETE FROM agent_configs WHERE id = ?1", [id])?;
    Ok(())
}

/// A cheap real call with the stored key (a one-token completion of `model`).
pub async fn test_credential(ws: &Workspace, provider_id: &str, model: &str) -> Result<()> {
    let cfg = provider(ws, provider_id)?;
    let key = credentials::get(provider_id)?;
    let client = skillscope_models::Client::new(cfg, key.map(skillscope_models::Secret::new))
        .map_err(|source| RunsError::Model { what: provider_id.to_string(), source })?;
    client.check(model).await.map_err(|source| RunsError::Model { what: provider_id.to_string(), source })
}
