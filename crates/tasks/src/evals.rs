//! A skill's `evals/evals.json` → one task per case.
//!
//! Accepted shapes:
//! - skill-creator: `{skill_name, evals: [{id: int, prompt, expected_output,
//!   files: [paths relative to the skill root], expectations: [..]}]}`;
//! - ACES / agentskills.io: the same with `id` a string, `assertions` instead
//!   of `expectations`, `files` relative to `evals/`, and optional
//!   `expected_skill`, `should_trigger`, ...;
//! - the legacy flat array `[{id, question, ground_truth, expected_behavior}]`;
//! - `evals.jsonl` (one case object per line).
//!
//! - skill-creator's trigger evals `[{query, should_trigger}]`.
//!
//! Skillscope extension: a case may carry `verify_command` (exit 0 = pass)
//! or `score_command` (prints `{"score": x}`); it then gets a deterministic
//! verifier. A case with nothing to check but `should_trigger` (or ACES's
//! `expected_skill`) is a [`TaskVerifier::Routing`] case, for activation
//! accuracy. Every other case gets [`TaskVerifier::NeedsJudge`] with its
//! assertions and expected output, for a judge to grade later.
//!
//! Case files are placed at `input/<path>` in the working directory (a
//! leading `files/` or `evals/files/` is dropped), and the instruction gets a
//! closing line listing them.

use crate::error::ImportError;
use crate::files::{check_relative, read_text};
use crate::model::*;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// ACES's generated `[agent] timeout_sec`.
pub const DEFAULT_AGENT_TIMEOUT_SECS: u64 = 300;
/// ACES's generated `[verifier] timeout_sec`.
pub const DEFAULT_VERIFIER_TIMEOUT_SECS: u64 = 180;

/// Imports `skill_dir/evals/evals.json` (or `evals.jsonl`). `skill_dir` may
/// also be the `evals` folder itself or the file.
pub fn import_skill(skill_dir: &Path) -> Result<Vec<TaskSpec>, ImportError> {
    let file = locate(skill_dir)?;
    import_file(&file)
}

fn locate(p: &Path) -> Result<PathBuf, ImportError> {
    if p.is_file() {
        return Ok(p.to_path_buf());
    }
    for dir in [p.join("evals"), p.to_path_buf()] {
        for name in ["evals.json", "evals.jsonl"] {
            if dir.join(name).is_file() {
                return Ok(dir.join(name));
            }
        }
    }
    Err(ImportError::missing(p, "evals/evals.json"))
}

/// Imports one evals file. Files named by cases are looked up first relative
/// to the file's folder (`evals/`), then relative to its parent (the skill
/// root).
pub fn import_file(path: &Path) -> Result<Vec<TaskSpec>, ImportError> {
    let text = read_text(path)?;
    let (skill_name, cases) = parse(path, &text)?;
    let evals_dir = path.parent().unwrap_or(Path::new("."));
    let skill_root = evals_dir.parent().unwrap_or(evals_dir);
    let skill_name = skill_name.unwrap_or_else(|| {
        skill_root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "skill".into())
    });
    let env_dir = evals_dir.join("environment");
    let dockerfile_context = env_dir.join("Dockerfile").is_file().then(|| env_dir.display().to_string());

    let mut ids = Vec::new();
    let mut out = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let ctx = CaseCtx { path, index: i + 1, evals_dir, skill_root };
        let mut t = case_to_task(&ctx, &skill_name, case)?;
        if ids.contains(&t.id) {
            return Err(ctx.err(format!("duplicate id `{}`", t.id)));
        }
        ids.push(t.id.clone());
        t.environment.dockerfile_context = dockerfile_context.clone();
        out.push(t);
    }
    if out.is_empty() {
        return Err(ImportError::invalid(path, "no eval cases"));
    }
    Ok(out)
}

fn parse(path: &Path, text: &str) -> Result<(Option<String>, Vec<Value>), ImportError> {
    let is_jsonl = path.extension().is_some_and(|e| e == "jsonl");
    if is_jsonl {
        let mut cases = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(line).map_err(|e| ImportError::Syntax {
                path: path.to_path_buf(),
                line: n + 1,
                column: e.column(),
                message: e.to_string(),
            })?;
            cases.push(v);
        }
        return Ok((None, cases));
    }
    let v: Value = serde_json::from_str(text).map_err(|e| ImportError::json(path, &e))?;
    match v {
        Value::Array(cases) => Ok((None, cases)),
        Value::Object(mut o) => {
            let name = match o.remove("skill_name") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s),
                Some(_) => return Err(ImportError::invalid(path, "`skill_name` is not a string")),
            };
            match o.remove("evals") {
                Some(Value::Array(cases)) => Ok((name, cases)),
                Some(_) => Err(ImportError::invalid(path, "`evals` is not an array")),
                None => Err(ImportError::missing(path, "`evals` array")),
            }
        }
        _ => Err(ImportError::invalid(path, "expected an object with `evals` or an array of cases")),
    }
}

struct CaseCtx<'a> {
    path: &'a Path,
    index: usize,
    evals_dir: &'a Path,
    skill_root: &'a Path,
}

impl CaseCtx<'_> {
    fn err(&self, what: String) -> ImportError {
        ImportError::invalid(self.path, format!("case #{}: {what}", self.index))
    }
}

fn case_to_task(ctx: &CaseCtx, skill: &str, case: &Value) -> Result<TaskSpec, ImportError> {
    let o = case.as_object().ok_or_else(|| ctx.err("is not an object".into()))?;
    let case_id = match o.get("id") {
        None | Some(Value::Null) => ctx.index.to_string(),
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(_) => return Err(ctx.err("`id` must be a non-empty string or a number".into())),
    };
    let prompt = text_field(ctx, o, &["prompt", "question", "query"])?
        .filter(|p| !p.trim().is_empty())
        .ok_or_else(|| ctx.err(format!("(id `{case_id}`) has no `prompt`")))?;
    let expected_output = text_field(ctx, o, &["expected_output", "ground_truth"])?;
    let expectations = string_list(ctx, o, &["assertions", "expectations", "expected_behavior"])?;
    let file_paths = string_list(ctx, o, &["files"])?;

    let mut warnings = Vec::new();
    let mut workspace_files = Vec::new();
    for p in &file_paths {
        workspace_files.push(load_case_file(ctx, p)?);
    }
    let mut instruction = prompt;
    if !workspace_files.is_empty() {
        let names: Vec<_> = workspace_files.iter().map(|f| f.path.as_str()).collect();
        instruction.push_str(&format!("\n\nInput files (in the working directory): {}", names.join(", ")));
    }

    let verify = text_field(ctx, o, &["verify_command"])?;
    let score_cmd = text_field(ctx, o, &["score_command"])?;
    let should_trigger = should_trigger(ctx, o, skill)?;
    let verifier = match (verify, score_cmd) {
        (Some(_), Some(_)) => return Err(ctx.err("has both `verify_command` and `score_command`".into())),
        (Some(command), None) => TaskVerifier::ExitCode { command },
        (None, Some(command)) => TaskVerifier::JsonScoreCommand { command },
        (None, None) => match should_trigger {
            // Nothing to check but where it should route: a trigger eval.
            Some(should_trigger) if expectations.is_empty() && expected_output.is_none() => {
                TaskVerifier::Routing { should_trigger }
            }
            _ => TaskVerifier::NeedsJudge {
                expectations: expectations.clone(),
                expected_output: expected_output.clone(),
            },
        },
    };
    if verifier.runs_in_container() && !expectations.is_empty() {
        warnings
            .push(format!("{} assertion(s) are not scored: the case's command verifier decides", expectations.len()));
    }
    if matches!(verifier, TaskVerifier::NeedsJudge { .. }) && expectations.is_empty() && expected_output.is_none() {
        warnings.push("no assertions and no expected output: a judge has nothing to check".into());
    }
    if should_trigger == Some(false) && !matches!(verifier, TaskVerifier::Routing { .. }) {
        warnings.push("negative case (should_trigger = false) with an outcome to check: it is scored on the outcome and does not count toward activation accuracy".into());
    }

    Ok(TaskSpec {
        id: format!("{skill}#{case_id}"),
        name: format!("{skill} #{case_id}"),
        source: TaskSource { kind: TaskSourceKind::EvalsJson, path: ctx.path.display().to_string() },
        instruction,
        environment: TaskEnvironment {
            workdir: Some(DEFAULT_WORKDIR.into()),
            workspace_files,
            ..TaskEnvironment::default()
        },
        verifier,
        agent_timeout_secs: DEFAULT_AGENT_TIMEOUT_SECS,
        verifier_timeout_secs: DEFAULT_VERIFIER_TIMEOUT_SECS,
        verifier_in_place: false,
        run_as_root: false,
        reference_solution: None,
        warnings,
    })
}

/// Whether the case says the skill should be used: `should_trigger`, else ACES's `expected_skill`
/// (null: a negative case; another skill's name: not this one); None when it says neither.
fn should_trigger(ctx: &CaseCtx, o: &Map<String, Value>, skill: &str) -> Result<Option<bool>, ImportError> {
    match (o.get("should_trigger"), o.get("expected_skill")) {
        (Some(Value::Bool(b)), _) => Ok(Some(*b)),
        (Some(Value::Null) | None, Some(Value::Null)) => Ok(Some(false)),
        (Some(Value::Null) | None, Some(Value::String(s))) => Ok(Some(s == skill)),
        (Some(Value::Null) | None, None) => Ok(None),
        (Some(_), _) => Err(ctx.err("`should_trigger` is not true or false".into())),
        (_, Some(_)) => Err(ctx.err("`expected_skill` is not a string or null".into())),
    }
}

fn text_field(ctx: &CaseCtx, o: &Map<String, Value>, keys: &[&str]) -> Result<Option<String>, ImportError> {
    for k in keys {
        match o.get(*k) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => return Ok(Some(s.clone())),
            Some(_) => return Err(ctx.err(format!("`{k}` is not a string"))),
        }
    }
    Ok(None)
}

fn string_list(ctx: &CaseCtx, o: &Map<String, Value>, keys: &[&str]) -> Result<Vec<String>, ImportError> {
    for k in keys {
        match o.get(*k) {
            None | Some(Value::Null) => continue,
            Some(Value::Array(items)) => {
                return items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| match v {
                        Value::String(s) => Ok(s.clone()),
                        // ACES allows {"text": ...} objects in some exports.
                        Value::Object(m) => match m.get("text") {
                            Some(Value::String(s)) => Ok(s.clone()),
                            _ => Err(ctx.err(format!("`{k}`[{i}] is not a string"))),
                        },
                        _ => Err(ctx.err(format!("`{k}`[{i}] is not a string"))),
                    })
                    .collect();
            }
            Some(_) => return Err(ctx.err(format!("`{k}` is not an array"))),
        }
    }
    Ok(Vec::new())
}

fn load_case_file(ctx: &CaseCtx, p: &str) -> Result<TaskFile, ImportError> {
    let rel = check_relative(p).map_err(|e| ctx.err(format!("`files`: {e}")))?;
    let candidates = [ctx.evals_dir.join(&rel), ctx.skill_root.join(&rel)];
    let Some(found) = candidates.iter().find(|c| c.is_file()) else {
        return Err(ctx.err(format!(
            "`files`: `{p}` not found in {} or {}",
            ctx.evals_dir.display(),
            ctx.skill_root.display()
        )));
    };
    let bytes = std::fs::read(found).map_err(|e| ImportError::io(found, e))?;
    let inner = rel.strip_prefix("evals/files/").or_else(|| rel.strip_prefix("files/")).unwrap_or(&rel);
    Ok(TaskFile::new(format!("input/{inner}"), bytes))
}
