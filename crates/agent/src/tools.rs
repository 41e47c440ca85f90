//! The agent's tools. Each runs inside the trial's container; a tool's own failure (missing file,
//! non-unique edit, non-zero exit) goes back to the model as an error result, while a sandbox
//! failure (engine gone, container lost) stops the trial as an infrastructure failure.

use serde_json::{json, Value};
use skillscope_models::ToolDef;
use skillscope_sandbox::{Container, ExecOptions, Owner, SandboxError};
use std::time::Duration;

pub struct ToolLimits {
    pub command_timeout: Duration,
    /// Bytes of output returned to the model; the rest is cut with a marker.
    pub output_limit: usize,
}

/// What the model gets back from one call.
pub struct ToolOutput {
    pub content: String,
    pub is_error: bool,
}

fn ok(content: impl Into<String>) -> ToolOutput {
    ToolOutput { content: content.into(), is_error: false }
}

fn err(content: impl Into<String>) -> ToolOutput {
    ToolOutput { content: content.into(), is_error: true }
}

pub fn definitions() -> Vec<ToolDef> {
    let def = |name: &str, description: &str, parameters: Value| ToolDef {
        name: name.into(),
        description: description.into(),
        parameters,
    };
    let path = json!({"type": "string", "description": "Absolute, or relative to the working directory"});
    vec![
        def(
            "bash",
            "Run a shell command in the working directory. Output (stdout and stderr) is returned with the exit code.",
            json!({"type": "object", "properties": {"command": {"type": "string"}, "timeout_secs": {"type": "integer", "minimum": 1}}, "required": ["command"]}),
        ),
        def("read_file", "Read a text file.", json!({"type": "object", "properties": {"path": path}, "required": ["path"]})),
        def(
            "write_file",
            "Create or overwrite a file with the given content.",
            json!({"type": "object", "properties": {"path": path, "content": {"type": "string"}}, "required": ["path", "content"]}),
        ),
        def(
            "edit_file",
            "Replace one exact occurrence of old_text with new_text in a file. Fails if old_text is missing or occurs more than once.",
            json!({"type": "object", "properties": {"path": path, "old_text": {"type": "string"}, "new_text": {"type": "string"}}, "required": ["path", "old_text", "new_text"]}),
        ),
        def("list_dir", "List a directory.", json!({"type": "object", "properties": {"path": path}, "required": ["path"]})),
    ]
}

/// Cuts text to `limit` bytes (on a character boundary) and says how much was left out.
pub fn truncate(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    let mut cut = limit;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}\n[... output truncated: {} more bytes ...]", &text[..cut], text.len() - cut)
}

fn resolve(workdir: &str, path: &str) -> String {
    if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{}/{}", workdir.trim_end_matches('/'), path.trim_start_matches("./"))
    }
}

fn arg<'a>(args: &'a Value, name: &str) -> Result<&'a str, ToolOutput> {
    args.get(name).and_then(Value::as_str).ok_or_else(|| err(format!("missing string argument `{name}`")))
}

pub struct Tools<'a> {
    pub container: &'a Container,
    pub workdir: String,
    pub limits: ToolLimits,
    /// Who the commands run as and who owns the files written (None: root).
    pub owner: Option<Owner>,
}

impl Tools<'_> {
    async fn sh(
        &self,
        script: &str,
        args: &[&str],
        timeout: Duration,
    ) -> Result<skillscope_sandbox::ExecResult, SandboxError> {
        let mut cmd = vec!["sh".to_string(), "-c".into(), script.into(), "sh".into()];
        cmd.extend(args.iter().map(|a| a.to_string()));
        let opts = ExecOptions {
            timeout,
            workdir: Some(self.workdir.clone()),
            env: vec![format!("HOME={}", crate::HOME)],
            user: self.owner.map(Owner::user),
            ..Default::default()
        };
        self.container.exec(&cmd, opts, &mut |_, _| {}).await
    }

    async fn read(&self, path: &str) -> Result<Result<String, String>, SandboxError> {
        let r = self.sh("cat -- \"$1\"", &[path], Duration::from_secs(30)).await?;
        Ok(if r.exit_code == Some(0) { Ok(r.stdout) } else { Err(r.stderr.trim().to_string()) })
    }

    async fn write(&self, path: &str, content: &str) -> Result<(), SandboxError> {
        let (dir, name) = path.rsplit_once('/').unwrap_or((".", path));
        let dir = if dir.is_empty() { "/" } else { dir };
        self.sh("mkdir -p -- \"$1\"", &[dir], Duration::from_secs(30)).await?;
        self.container.upload_files(&[(name.to_string(), content.as_bytes().to_vec())], dir, self.owner).await
    }

    /// Runs one tool call. Err only for infrastructure failures.
    pub async fn call(&self, name: &str, args: &Value) -> Result<ToolOutput, SandboxError> {
        let out = match name {
            "bash" => {
                let command = match arg(args, "command") {
                    Ok(c) => c,
                    Err(e) => return Ok(e),
                };
                let timeout = args
                    .get("timeout_secs")
                    .and_then(Value::as_u64)
                    .map_or(self.limits.command_timeout, |s| Duration::from_secs(s).min(self.limits.command_timeout));
                let r = self.sh(command, &[], timeout).await?;
                let mut text = r.stdout.clone();
                if !r.stderr.is_empty() {
                    text.push_str(&r.stderr);
                }
                let status = if r.timed_out {
                    format!("[killed: the command exceeded {} s]", timeout.as_secs())
                } else if r.oom_killed {
                    "[killed: the container's memory limit was reached]".to_string()
                } else {
                    format!("[exit code {}]", r.exit_code.map_or("unknown".into(), |c| c.to_string()))
                };
                let body = format!("{}\n{status}", truncate(&text, self.limits.output_limit));
                if r.exit_code == Some(0) {
                    ok(body)
                } else {
                    err(body)
                }
            }
            "read_file" => match arg(args, "path") {
                Ok(p) => match self.read(&resolve(&self.workdir, p)).await? {
                    Ok(text) => ok(truncate(&text, self.limits.output_limit)),
                    Err(e) => err(format!("cannot read {p}: {e}")),
                },
                Err(e) => e,
            },
            "write_file" => match (arg(args, "path"), arg(args, "content")) {
                (Ok(p), Ok(c)) => {
                    self.write(&resolve(&self.workdir, p), c).await?;
                    ok(format!("wrote {} bytes to {p}", c.len()))
                }
                (Err(e), _) | (_, Err(e)) => e,
            },
            "edit_file" => match (arg(args, "path"), arg(args, "old_text"), arg(args, "new_text")) {
                (Ok(p), Ok(old), Ok(new)) => {
                    let full = resolve(&self.workdir, p);
                    match self.read(&full).await? {
                        Err(e) => err(format!("cannot read {p}: {e}")),
                        Ok(text) => match text.matches(old).count() {
                            1 => {
                                self.write(&full, &text.replacen(old, new, 1)).await?;
                                ok(format!("edited {p}"))
                            }
                            0 => err(format!("old_text was not found in {p}; read the file and copy the text exactly")),
                            n => {
                                err(format!("old_text occurs {n} times in {p}; include more context to make it unique"))
                            }
                        },
                    }
                }
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => e,
            },
            "list_dir" => match arg(args, "path") {
                Ok(p) => {
                    let r = self.sh("ls -la -- \"$1\"", &[&resolve(&self.workdir, p)], Duration::from_secs(30)).await?;
                    if r.exit_code == Some(0) {
                        ok(truncate(&r.stdout, self.limits.output_limit))
                    } else {
                        err(r.stderr)
                    }
                }
                Err(e) => e,
            },
            other => {
                err(format!("unknown tool `{other}`; available: bash, read_file, write_file, edit_file, list_dir"))
            }
        };
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_marks_what_was_cut() {
        assert_eq!(truncate("short", 10), "short");
        let t = truncate("héllo world", 2);
        assert!(t.starts_with('h') && t.contains("truncated"), "{t}");
    }

    #[test]
    fn relative_paths_resolve_against_the_workdir() {
        assert_eq!(resolve("/workspace", "a/b.txt"), "/workspace/a/b.txt");
        assert_eq!(resolve("/workspace/", "./c"), "/workspace/c");
        assert_eq!(resolve("/workspace", "/etc/x"), "/etc/x");
    }

    #[test]
    fn five_tools_with_object_schemas() {
        let d = definitions();
        let names: Vec<_> = d.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["bash", "read_file", "write_file", "edit_file", "list_dir"]);
        assert!(d.iter().all(|t| t.parameters["type"] == "object"));
    }
}
