//! The settings the app edits: the queue's concurrency, attempts and trial deadline and the scan's
//! thresholds (`config.toml`), and the model prices (`prices.toml`, also merged from a
//! LiteLLM-style JSON). Saved settings apply without a restart: the worker and the scanner read
//! them as they go, and prices are read for every trial.

use crate::errors::{AppError, Result};
use serde::{Deserialize, Serialize};
use skillscope_models::{ModelPrice, PriceTable};
use skillscope_runs::prices;
use skillscope_store::Workspace;
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Settings {
    /// Trials run at once by the queue.
    pub queue_concurrency: u32,
    /// Attempts per trial when the infrastructure fails (1 = no re-run).
    pub queue_max_attempts: u32,
    /// Wall-time limit of a trial over all its phases; null: none beyond each phase's own.
    pub trial_deadline_secs: Option<u64>,
    /// Quality score (0–100) a version must reach to pass the quality gate.
    pub scan_quality_gate: f64,
    /// Security score (0–100) below which a version is flagged risky.
    pub scan_risky_below: u32,
    pub prices: Vec<PriceRow>,
    /// True when the prices come from the workspace's `prices.toml`; false: the built-in table.
    pub prices_from_file: bool,
    /// Where the settings are written.
    pub config_path: String,
    pub prices_path: String,
}

/// A model's price in dollars per million tokens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PriceRow {
    pub model: String,
    pub input_per_mtok: f64,
    /// Cached input; null: charged as input.
    pub cached_per_mtok: Option<f64>,
    pub output_per_mtok: f64,
}

/// What a price import changed.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PriceImport {
    pub added: u32,
    pub updated: u32,
    /// Entries without a numeric input and output price per token (image, audio or embedding
    /// models, LiteLLM's `sample_spec`).
    pub skipped: Vec<String>,
    pub settings: Settings,
}

pub fn get(ws: &Workspace) -> Result<Settings> {
    let config = ws.config();
    let (table, prices_from_file) = prices::load(ws)?;
    Ok(Settings {
        queue_concurrency: config.queue.concurrency(),
        queue_max_attempts: config.queue.max_attempts(),
        trial_deadline_secs: config.queue.trial_deadline_secs,
        scan_quality_gate: config.scan.quality_gate,
        scan_risky_below: config.scan.risky_below,
        prices: table
            .models
            .into_iter()
            .map(|(model, p)| PriceRow {
                model,
                input_per_mtok: p.input_per_mtok,
                cached_per_mtok: p.cached_per_mtok,
                output_per_mtok: p.output_per_mtok,
            })
            .collect(),
        prices_from_file,
        config_path: ws.config_path().display().to_string(),
        prices_path: prices::path(ws).display().to_string(),
    })
}

/// Checks every field, then writes `config.toml` and `prices.toml`; nothing is written when a
/// field is out of range.
pub fn save(ws: &Workspace, s: Settings) -> Result<Settings> {
    let bad = |m: String| Err(AppError::invalid_input(m));
    if !(1..=64).contains(&s.queue_concurrency) {
        return bad(format!("queue concurrency must be 1 to 64, not {}", s.queue_concurrency));
    }
    if !(1..=10).contains(&s.queue_max_attempts) {
        return bad(format!("attempts per trial must be 1 to 10, not {}", s.queue_max_attempts));
    }
    if s.trial_deadline_secs == Some(0) {
        return bad("the trial deadline must be at least 1 second (or none)".into());
    }
    if !(0.0..=100.0).contains(&s.scan_quality_gate) {
        return bad(format!("the quality gate must be 0 to 100, not {}", s.scan_quality_gate));
    }
    if s.scan_risky_below > 100 {
        return bad(format!("the risky threshold must be 0 to 100, not {}", s.scan_risky_below));
    }
    let mut table = PriceTable::empty();
    for row in &s.prices {
        let model = row.model.trim();
        let valid = |x: f64| x.is_finite() && x >= 0.0;
        if model.is_empty() {
            return bad("a price row has no model name".into());
        }
        if !valid(row.input_per_mtok) || !valid(row.output_per_mtok) || !row.cached_per_mtok.is_none_or(valid) {
            return bad(format!("{model}: prices must be numbers of dollars, 0 or more"));
        }
        let price = ModelPrice {
            input_per_mtok: row.input_per_mtok,
            cached_per_mtok: row.cached_per_mtok,
            output_per_mtok: row.output_per_mtok,
        };
        if table.models.insert(model.to_string(), price).is_some() {
            return bad(format!("{model} is listed twice"));
        }
    }
    let mut config = ws.config();
    config.queue.concurrency = Some(s.queue_concurrency);
    config.queue.max_attempts = Some(s.queue_max_attempts);
    config.queue.trial_deadline_secs = s.trial_deadline_secs;
    config.scan.quality_gate = s.scan_quality_gate;
    config.scan.risky_below = s.scan_risky_below;
    ws.save_config(config)?;
    prices::save(ws, &table)?;
    get(ws)
}

/// Merges the prices of a LiteLLM-style JSON file into the table in force and writes it.
pub fn import_prices(ws: &Workspace, path: &str) -> Result<PriceImport> {
    let text = std::fs::read_to_string(path).map_err(|e| AppError::io(path, e))?;
    let (imported, skipped) = PriceTable::from_litellm_json(&text)
        .map_err(|e| AppError::invalid_input(format!("{path}: not a LiteLLM price file: {e}")))?;
    if imported.models.is_empty() {
        return Err(AppError::invalid_input(format!("{path}: no model with an input and output price per token")));
    }
    let (mut table, _) = prices::load(ws)?;
    let (mut added, mut updated) = (0, 0);
    for (model, price) in imported.models {
        match table.models.insert(model, price) {
            None => added += 1,
            Some(old) if old != price => updated += 1,
            Some(_) => {}
        }
    }
    prices::save(ws, &table)?;
    Ok(PriceImport { added, updated, skipped, settings: get(ws)? })
}
