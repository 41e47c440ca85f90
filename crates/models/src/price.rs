//! Model prices in USD per million tokens, and the cost of a call.
//!
//! The table is data, not code: the caller loads it from a TOML file the user can edit, and
//! falls back to [`PriceTable::default`], whose list prices were copied from the providers' price
//! pages (2025) and may be out of date.
//!
//! ```toml
//! [models."gpt-4.1"]
//! input_per_mtok = 2.0
//! cached_per_mtok = 0.5
//! output_per_mtok = 8.0
//! ```

use crate::types::Usage;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ModelPrice {
    pub input_per_mtok: f64,
    /// Price of prompt tokens read from the cache; the input price when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_per_mtok: Option<f64>,
    pub output_per_mtok: f64,
}

impl ModelPrice {
    pub const fn new(input: f64, cached: f64, output: f64) -> Self {
        ModelPrice { input_per_mtok: input, cached_per_mtok: Some(cached), output_per_mtok: output }
    }

    /// Cost in USD. Cached tokens are the part of `input_tokens` read from the cache.
    pub fn cost(&self, usage: &Usage) -> f64 {
        let cached = usage.cached_tokens.min(usage.input_tokens);
        let uncached = usage.input_tokens - cached;
        let cached_price = self.cached_per_mtok.unwrap_or(self.input_per_mtok);
        (uncached as f64 * self.input_per_mtok
            + cached as f64 * cached_price
            + usage.output_tokens as f64 * self.output_per_mtok)
            / 1_000_000.0
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PriceTable {
    #[serde(default)]
    pub models: BTreeMap<String, ModelPrice>,
}

impl Default for PriceTable {
    fn default() -> Self {
        let entries = [
            ("gpt-5", ModelPrice::new(1.25, 0.125, 10.0)),
            ("gpt-5-mini", ModelPrice::new(0.25, 0.025, 2.0)),
            ("gpt-5-nano", ModelPrice::new(0.05, 0.005, 0.40)),
            ("gpt-4.1", ModelPrice::new(2.0, 0.50, 8.0)),
            ("gpt-4.1-mini", ModelPrice::new(0.40, 0.10, 1.60)),
            ("gpt-4.1-nano", ModelPrice::new(0.10, 0.025, 0.40)),
            ("gpt-4o", ModelPrice::new(2.50, 1.25, 10.0)),
            ("gpt-4o-mini", ModelPrice::new(0.15, 0.075, 0.60)),
            ("o3", ModelPrice::new(2.0, 0.50, 8.0)),
            ("o4-mini", ModelPrice::new(1.10, 0.275, 4.40)),
            ("claude-opus-4-1", ModelPrice::new(15.0, 1.50, 75.0)),
            ("claude-opus-4", ModelPrice::new(15.0, 1.50, 75.0)),
            ("claude-sonnet-4-5", ModelPrice::new(3.0, 0.30, 15.0)),
            ("claude-sonnet-4", ModelPrice::new(3.0, 0.30, 15.0)),
            ("claude-3-7-sonnet", ModelPrice::new(3.0, 0.30, 15.0)),
            ("claude-haiku-4-5", ModelPrice::new(1.0, 0.10, 5.0)),
            ("claude-3-5-haiku", ModelPrice::new(0.80, 0.08, 4.0)),
            // Google's list prices for prompts up to 200k tokens; longer prompts cost more, which
            // this table does not model.
            ("gemini-2.5-pro", ModelPrice::new(1.25, 0.31, 10.0)),
            ("gemini-2.5-flash", ModelPrice::new(0.30, 0.075, 2.50)),
            ("gemini-2.5-flash-lite", ModelPrice::new(0.10, 0.025, 0.40)),
        ];
        PriceTable { models: entries.into_iter().map(|(name, price)| (name.to_string(), price)).collect() }
    }
}

impl PriceTable {
    /// An empty table (every cost unknown).
    pub fn empty() -> Self {
        PriceTable { models: BTreeMap::new() }
    }

    pub fn from_toml_str(s: &str) -> Result<Self, toml::de::Error> {
        toml::from_str(s)
    }

    pub fn to_toml_string(&self) -> Result<String, toml::ser::Error> {
        toml::to_string_pretty(self)
    }

    /// The price of `model`: an exact entry, else the longest entry that is a prefix of the name
    /// followed by `-` (so `claude-sonnet-4-5-20250929` is priced as `claude-sonnet-4-5`).
    /// Reads a LiteLLM-style price file (`model_prices_and_context_window.json`: a map from model
    /// name to `input_cost_per_token`, `output_cost_per_token` and optionally
    /// `cache_read_input_token_cost`, in dollars per token). Returns the prices per million tokens
    /// and the names of entries left out (no numeric input and output price, e.g. image models and
    /// LiteLLM's `sample_spec`).
    pub fn from_litellm_json(text: &str) -> Result<(Self, Vec<String>), serde_json::Error> {
        let entries: BTreeMap<String, serde_json::Value> = serde_json::from_str(text)?;
        let per_mtok = |v: &serde_json::Value, key: &str| {
            v.get(key).and_then(serde_json::Value::as_f64).filter(|x| x.is_finite() && *x >= 0.0).map(|x| x * 1e6)
        };
        let mut table = PriceTable::empty();
        let mut skipped = Vec::new();
        for (name, v) in entries {
            match (per_mtok(&v, "input_cost_per_token"), per_mtok(&v, "output_cost_per_token")) {
                (Some(input), Some(output)) if name != "sample_spec" => {
                    let cached = per_mtok(&v, "cache_read_input_token_cost");
                    table.models.insert(
                        name,
                        ModelPrice { input_per_mtok: input, cached_per_mtok: cached, output_per_mtok: output },
                    );
                }
                _ => skipped.push(name),
            }
        }
        Ok((table, skipped))
    }

    pub fn price(&self, model: &str) -> Option<&ModelPrice> {
        if let Some(p) = self.models.get(model) {
            return Some(p);
        }
        self.models
            .iter()
            .filter(|(name, _)| model.strip_prefix(name.as_str()).is_some_and(|rest| rest.starts_with('-')))
            .max_by_key(|(name, _)| name.len())
            .map(|(_, p)| p)
    }

    /// Cost in USD of `usage` on `model`, `None` when the model has no price.
    pub fn cost(&self, model: &str, usage: &Usage) -> Option<f64> {
        self.price(model).map(|p| p.cost(usage))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn cost_arithmetic_splits_cached_input() {
        let p = ModelPrice::new(2.0, 0.5, 8.0);
        let u = Usage { input_tokens: 1_000_000, cached_tokens: 400_000, output_tokens: 250_000 };
        // 600k * 2 + 400k * 0.5 + 250k * 8, per million
        assert!(close(p.cost(&u), 1.2 + 0.2 + 2.0), "{}", p.cost(&u));
        let small = Usage { input_tokens: 1234, cached_tokens: 0, output_tokens: 56 };
        assert!(close(p.cost(&small), (1234.0 * 2.0 + 56.0 * 8.0) / 1e6));
        let no_cache_price = ModelPrice { input_per_mtok: 3.0, cached_per_mtok: None, output_per_mtok: 0.0 };
        let u = Usage { input_tokens: 10, cached_tokens: 10, output_tokens: 0 };
        assert!(close(no_cache_price.cost(&u), 30.0 / 1e6));
        // more cached than input never yields a negative count
        let odd = Usage { input_tokens: 5, cached_tokens: 9, output_tokens: 0 };
        assert!(close(p.cost(&odd), 5.0 * 0.5 / 1e6));
    }

    #[test]
    fn litellm_prices_become_per_million_tokens_and_odd_entries_are_named() {
        let text = r#"{
            "sample_spec": {"input_cost_per_token": 0.0, "output_cost_per_token": 0.0},
            "gpt-4o": {"input_cost_per_token": 2.5e-06, "output_cost_per_token": 1e-05, "cache_read_input_token_cost": 1.25e-06},
            "claude-sonnet-4-5": {"input_cost_per_token": 3e-06, "output_cost_per_token": 1.5e-05},
            "dall-e-3": {"output_cost_per_image": 0.04},
            "broken": {"input_cost_per_token": "free", "output_cost_per_token": -1}
        }"#;
        let (t, skipped) = PriceTable::from_litellm_json(text).unwrap();
        let gpt = t.models["gpt-4o"];
        assert!(close(gpt.input_per_mtok, 2.5) && close(gpt.output_per_mtok, 10.0));
        assert!(close(gpt.cached_per_mtok.unwrap(), 1.25));
        assert_eq!(t.models["claude-sonnet-4-5"].cached_per_mtok, None);
        assert_eq!(skipped, ["broken", "dall-e-3", "sample_spec"]);
        assert!(PriceTable::from_litellm_json("[1, 2]").is_err(), "not a map of models");
    }

    #[test]
    fn lookup_is_exact_then_longest_dated_prefix() {
        let t = PriceTable::default();
        let u = Usage { input_tokens: 1_000_000, cached_tokens: 0, output_tokens: 1_000_000 };
        assert!(close(t.cost("gpt-4.1", &u).unwrap(), 10.0));
        assert!(close(t.cost("gpt-4.1-mini", &u).unwrap(), 2.0));
        assert!(close(t.cost("gpt-4.1-mini-2025-04-14", &u).unwrap(), 2.0));
        assert!(close(t.cost("claude-sonnet-4-5-20250929", &u).unwrap(), 18.0));
        // Gemini CLI's models: "-lite" is its own entry, not priced as gemini-2.5-flash.
        assert!(close(t.cost("gemini-2.5-flash-lite", &u).unwrap(), 0.5));
        assert!(close(t.cost("gemini-2.5-pro", &u).unwrap(), 11.25));
        assert_eq!(t.cost("gpt-4.10", &u), None);
        assert_eq!(t.cost("llama-3-8b", &u), None);
    }

    #[test]
    fn toml_round_trip_and_user_edits() {
        let t = PriceTable::from_toml_str(
            r#"
            [models."local/qwen"]
            input_per_mtok = 0.0
            output_per_mtok = 0.0

            [models."gpt-4.1"]
            input_per_mtok = 1.0
            cached_per_mtok = 0.25
            output_per_mtok = 4.0
            "#,
        )
        .unwrap();
        let u = Usage { input_tokens: 2_000_000, cached_tokens: 1_000_000, output_tokens: 0 };
        assert!(close(t.cost("gpt-4.1", &u).unwrap(), 1.25));
        assert_eq!(t.cost("local/qwen", &u), Some(0.0));
        let back = PriceTable::from_toml_str(&t.to_toml_string().unwrap()).unwrap();
        assert_eq!(back, t);
        let d = PriceTable::default();
        assert_eq!(PriceTable::from_toml_str(&d.to_toml_string().unwrap()).unwrap(), d);
    }
}
