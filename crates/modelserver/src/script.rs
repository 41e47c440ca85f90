//! The script: which reply the server gives to a request, chosen statelessly
//! from the request itself (branch by prompt content, step by the number of
//! tool results already in the conversation).

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// Names of shell-like tools that a `bash` step may be mapped onto, in order
/// of preference.
pub const SHELL_TOOLS: &[&str] = &["bash", "Bash", "exec_command", "shell_command", "shell", "run_shell_command"];

/// A whole script: default steps plus branches chosen by prompt content.
///
/// Deserializes from `{"default": [...], "branches": [...]}` or from a bare
/// list of steps (taken as `default`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "ScriptRepr")]
pub struct Script {
    pub default: Vec<Step>,
    pub branches: Vec<Branch>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ScriptRepr {
    Steps(Vec<Step>),
    Full {
        #[serde(default)]
        default: Vec<Step>,
        #[serde(default)]
        branches: Vec<Branch>,
    },
}

impl From<ScriptRepr> for Script {
    fn from(r: ScriptRepr) -> Self {
        match r {
            ScriptRepr::Steps(default) => Script { default, branches: Vec::new() },
            ScriptRepr::Full { default, branches } => Script { default, branches },
        }
    }
}

/// Steps played when `if_prompt_contains` appears anywhere in the request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Branch {
    pub if_prompt_contains: String,
    pub steps: Vec<Step>,
}

/// One scripted model turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Step {
    /// Call tool `tool` with `args`.
    Tool {
        tool: String,
        #[serde(default = "empty_object")]
        args: Value,
    },
    /// Run a shell command through whichever shell tool the client offers.
    Shell { shell: String },
    /// Answer with plain text (ends the agent's turn).
    Text { text: String },
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

impl Step {
    pub fn tool(name: &str, args: Value) -> Step {
        Step::Tool { tool: name.to_string(), args }
    }
    pub fn text(text: &str) -> Step {
        Step::Text { text: text.to_string() }
    }
}

impl Script {
    /// A script whose steps run `echo hi > out.txt` and then say they did.
    pub fn demo() -> Script {
        Script {
            default: vec![
                Step::tool("bash", json!({"command": "echo hi > out.txt"})),
                Step::text("Done: created out.txt."),
            ],
            branches: Vec::new(),
        }
    }

    /// The steps that apply to a request whose text content is `haystack`.
    pub fn steps_for(&self, haystack: &str) -> &[Step] {
        self.branch_for(haystack).map(|b| b.steps.as_slice()).unwrap_or(&self.default)
    }

    fn branch_for(&self, haystack: &str) -> Option<&Branch> {
        self.branches.iter().find(|b| !b.if_prompt_contains.is_empty() && haystack.contains(&b.if_prompt_contains))
    }

    /// Decide the reply to a request.
    pub fn plan(&self, conv: &Conversation) -> Reply {
        if conv.tools.is_empty() {
            // A tool-less request is a one-shot question (a credential check, a review): a
            // branch chosen by the prompt answers with its first text; anything else gets "OK".
            let answer = self.branch_for(&conv.haystack).and_then(|b| {
                b.steps.iter().find_map(|s| match s {
                    Step::Text { text } => Some(text.clone()),
                    _ => None,
                })
            });
            return Reply::Text(answer.unwrap_or_else(|| "OK".to_string()));
        }
        let steps = self.steps_for(&conv.haystack);
        let n = conv.tool_results;
        let step = match steps.get(n) {
            Some(s) => s,
            None => {
                let last_text = steps.iter().rev().find_map(|s| match s {
                    Step::Text { text } => Some(text.clone()),
                    _ => None,
                });
                return Reply::Text(last_text.unwrap_or_else(|| "Done.".to_string()));
            }
        };
        match step {
            Step::Text { text } => Reply::Text(text.clone()),
            Step::Shell { shell } => shell_call(conv, "bash", &json!({ "command": shell }), n),
            Step::Tool { tool, args } => {
                if let Some(t) = conv.tools.iter().find(|t| t.name == *tool) {
                    return tool_call(&t.name, args.clone(), n);
                }
                if tool.eq_ignore_ascii_case("bash") || tool == "shell" {
                    return shell_call(conv, tool, args, n);
                }
                let name = conv
                    .tools
                    .iter()
                    .find(|t| t.name.eq_ignore_ascii_case(tool))
                    .map(|t| t.name.clone())
                    .unwrap_or_else(|| tool.clone());
                tool_call(&name, args.clone(), n)
            }
        }
    }
}

/// A tool offered by the request, with its JSON schema (parameters).
#[derive(Debug, Clone, PartialEq)]
pub struct OfferedTool {
    pub name: String,
    pub schema: Value,
}

/// What the script needs to know about a request, whichever API it used.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Conversation {
    pub tools: Vec<OfferedTool>,
    /// Number of tool results already in the conversation.
    pub tool_results: usize,
    /// All text of the request (every string value), for branch matching.
    pub haystack: String,
    /// Characters of the whole prompt (for usage estimates).
    pub prompt_chars: usize,
    /// Characters of the prompt before its last message (taken as cached).
    pub prefix_chars: usize,
    pub model: String,
    pub stream: bool,
}

impl Conversation {
    /// Builds the API-independent parts from a request body.
    pub fn from_body(body: &Value) -> Conversation {
        let mut haystack = String::new();
        collect_strings(body, &mut haystack);
        Conversation {
            prompt_chars: haystack.chars().count(),
            haystack,
            model: body.get("model").and_then(Value::as_str).unwrap_or_default().to_string(),
            stream: body.get("stream").and_then(Value::as_bool).unwrap_or(false),
            ..Conversation::default()
        }
    }

    /// Sets `prefix_chars` from the list of messages/input items: everything
    /// but the last item counts as a cached prefix once a tool result exists.
    pub fn set_prefix_from(&mut self, items: Option<&Value>) {
        let Some(items) = items.and_then(Value::as_array) else {
            return;
        };
        if self.tool_results == 0 || items.is_empty() {
            return;
        }
        let mut last = String::new();
        collect_strings(&items[items.len() - 1], &mut last);
        self.prefix_chars = self.prompt_chars.saturating_sub(last.chars().count());
    }
}

/// Appends every string value (and object key-free text) in `v` to `out`.
pub fn collect_strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

/// The reply chosen by the script.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Text(String),
    ToolCall {
        /// Step index; the wire-level call id is derived from it.
        index: usize,
        name: String,
        args: Value,
    },
}

impl Reply {
    /// The text the reply outputs (text or JSON arguments), for usage.
    pub fn output_chars(&self) -> usize {
        match self {
            Reply::Text(t) => t.chars().count(),
            Reply::ToolCall { name, args, .. } => name.len() + args.to_string().chars().count(),
        }
    }
}

fn tool_call(name: &str, args: Value, index: usize) -> Reply {
    Reply::ToolCall { index, name: name.to_string(), args }
}

/// Maps a shell step onto the shell-like tool the request offers, filling
/// its arguments from that tool's schema.
fn shell_call(conv: &Conversation, requested: &str, args: &Value, index: usize) -> Reply {
    let target = conv
        .tools
        .iter()
        .find(|t| t.name == requested)
        .or_else(|| SHELL_TOOLS.iter().find_map(|s| conv.tools.iter().find(|t| t.name == *s)));
    let Some(target) = target else {
        return tool_call(requested, args.clone(), index);
    };
    tool_call(&target.name, shell_args(&target.schema, args), index)
}

fn command_string(args: &Value) -> String {
    let c = args.get("command").or_else(|| args.get("cmd"));
    match c {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => {
            let parts: Vec<&str> = a.iter().filter_map(Value::as_str).collect();
            match parts.as_slice() {
                [sh, flag, cmd] if sh.ends_with("sh") && flag.starts_with('-') => cmd.to_string(),
                _ => parts.join(" "),
            }
        }
        _ => String::new(),
    }
}

/// Arguments for a shell tool with JSON schema `schema`, running the command
/// found in `args` (`command` string/argv or `cmd`).
pub fn shell_args(schema: &Value, args: &Value) -> Value {
    let command = command_string(args);
    let props = schema.get("properties").and_then(Value::as_object);
    let mut out = Map::new();
    match props {
        Some(p) if p.contains_key("cmd") && !p.contains_key("command") => {
            out.insert("cmd".into(), Value::String(command));
        }
        Some(p) if is_array_prop(p.get("command")) => {
            out.insert("command".into(), json!(["bash", "-lc", command]));
        }
        _ => {
            out.insert("command".into(), Value::String(command));
        }
    }
    if let Some(p) = props {
        if p.contains_key("description") {
            out.insert("description".into(), json!("run scripted command"));
        }
        if let Some(extra) = args.as_object() {
            for (k, v) in extra {
                if k != "command" && k != "cmd" && p.contains_key(k) {
                    out.insert(k.clone(), v.clone());
                }
            }
        }
    }
    Value::Object(out)
}

fn is_array_prop(p: Option<&Value>) -> bool {
    match p.and_then(|p| p.get("type")) {
        Some(Value::String(t)) => t == "array",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "array"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(tools: &[(&str, Value)], n: usize, hay: &str) -> Conversation {
        Conversation {
            tools: tools.iter().map(|(n, s)| OfferedTool { name: n.to_string(), schema: s.clone() }).collect(),
            tool_results: n,
            haystack: hay.to_string(),
            ..Conversation::default()
        }
    }

    fn script() -> Script {
        serde_json::from_value(json!({
            "default": [{"tool": "bash", "args": {"command": "ls"}}, {"text": "Done."}],
            "branches": [{"if_prompt_contains": "csv-insights", "steps": [
                {"tool": "read_file", "args": {"path": "/skills/csv-insights/SKILL.md"}},
                {"text": "Done with the skill."}
            ]}]
        }))
        .unwrap()
    }

    #[test]
    fn steps_follow_tool_result_count_and_repeat_last_text() {
        let s = script();
        let bash = ("bash", json!({"properties": {"command": {"type": "string"}}}));
        let r = s.plan(&conv(std::slice::from_ref(&bash), 0, "hello"));
        assert_eq!(r, Reply::ToolCall { index: 0, name: "bash".into(), args: json!({"command": "ls"}) });
        assert_eq!(s.plan(&conv(std::slice::from_ref(&bash), 1, "")), Reply::Text("Done.".into()));
        assert_eq!(s.plan(&conv(&[bash], 7, "")), Reply::Text("Done.".into()));
    }

    #[test]
    fn branch_selected_by_prompt_content() {
        let s = script();
        let t = [("read_file", json!({}))];
        match s.plan(&conv(&t, 0, "skills: csv-insights here")) {
            Reply::ToolCall { name, .. } => assert_eq!(name, "read_file"),
            r => panic!("{r:?}"),
        }
        assert_eq!(s.plan(&conv(&t, 1, "csv-insights")), Reply::Text("Done with the skill.".into()));
    }

    #[test]
    fn no_tools_means_ok_unless_a_branch_answers() {
        assert_eq!(script().plan(&conv(&[], 0, "x")), Reply::Text("OK".into()));
        assert_eq!(script().plan(&conv(&[], 0, "about csv-insights")), Reply::Text("Done with the skill.".into()));
    }

    #[test]
    fn bash_maps_onto_offered_shell_tools() {
        let s = script();
        let cases = [
            ("exec_command", json!({"properties": {"cmd": {"type": "string"}}}), json!({"cmd": "ls"})),
            (
                "Bash",
                json!({"properties": {"command": {"type": "string"}, "description": {"type": "string"}}}),
                json!({"command": "ls", "description": "run scripted command"}),
            ),
            (
                "shell",
                json!({"properties": {"command": {"type": "array", "items": {"type": "string"}}}}),
                json!({"command": ["bash", "-lc", "ls"]}),
            ),
        ];
        for (name, schema, want) in cases {
            let r = s.plan(&conv(&[("other", json!({})), (name, schema)], 0, ""));
            assert_eq!(r, Reply::ToolCall { index: 0, name: name.into(), args: want }, "{name}");
        }
    }

    #[test]
    fn bare_step_list_and_shell_steps_parse() {
        let s: Script = serde_json::from_str(r#"[{"shell": "echo hi > out.txt"}, {"text": "ok"}]"#).unwrap();
        assert_eq!(s.default.len(), 2);
        let r = s.plan(&conv(&[("exec_command", json!({"properties": {"cmd": {}}}))], 0, ""));
        assert_eq!(
            r,
            Reply::ToolCall { index: 0, name: "exec_command".into(), args: json!({"cmd": "echo hi > out.txt"}) }
        );
    }
}
