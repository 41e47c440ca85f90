//! Regex detectors as data. Three sets, chosen by what kind of text is scanned:
//! agent-facing prose, shell command text, and code/config artifacts.

use super::finder::RuleFinder;
use crate::report::Severity::{self, *};
use std::sync::OnceLock;

pub(super) struct TextRule {
    pub pattern: &'static str,
    pub severity: Severity,
    pub confidence: f64,
    pub regex: &'static str,
    pub message: &'static str,
    /// Skip matches preceded on the same line by a negation ("never", "do not" …).
    pub negatable: bool,
    /// Never capped by context (a setup section, a reference document): remote code run
    /// unverified, reverse shells and secrets sent to the network are what they are anywhere.
    pub pinned: bool,
}

const fn r(
    pattern: &'static str,
    severity: Severity,
    confidence: f64,
    regex: &'static str,
    message: &'static str,
    negatable: bool,
) -> TextRule {
    TextRule { pattern, severity, confidence, regex, message, negatable, pinned: false }
}

const fn pinned(rule: TextRule) -> TextRule {
    TextRule { pinned: true, ..rule }
}

/// Instructions addressed to the agent (Markdown prose, plain text, decoded hidden text).
pub(super) static PROSE: &[TextRule] = &[
    r(
        "A1",
        High,
        0.9,
        r"(?i)\b(ignore|disregard|forget|override|bypass|abandon)\s+(all\s+|any\s+|every\s+)?(of\s+)?(the\s+|your\s+|my\s+)?(previous|prior|above|earlier|preceding|former|original|system|existing|initial)\s+(instructions?|prompts?|rules|guidelines|directives|guidance|constraints|messages?)",
        "asks the agent to discard its prior instructions",
        false,
    ),
    r(
        "A1",
        High,
        0.85,
        r"(?i)\b(unrestricted|unfiltered|jailbr[eo]ak(en)?|developer|god|DAN)\s+mode\b|\bsystem\s+override\b|\byou\s+are\s+now\s+(in\s+)?(an?\s+)?(unrestricted|unfiltered|jailbroken|uncensored)",
        "switches the agent into an 'unrestricted' persona",
        false,
    ),
    r(
        "A1",
        High,
        0.85,
        r"(?i)\b(disregard|ignore|bypass|override|circumvent|disable)\s+(all\s+|any\s+|the\s+|your\s+)?(content|safety|ethical|security|moderation)\s+(policy|policies|guidelines|filters?|restrictions|rules|guardrails)",
        "tells the agent to bypass safety policy",
        false,
    ),
    r(
        "A1",
        High,
        0.75,
        r"(?i)\b(never|do\s+not|don'?t)\s+refuse\b|\bwithout\s+(any\s+)?(refusals?|disclaimers|moralizing)|\b(regardless|irrespective)\s+of\s+(any\s+|all\s+)?(restrictions|policies|safety|ethics|guidelines)",
        "forbids refusals or safety caveats",
        false,
    ),
    r(
        "A1",
        High,
        0.7,
        r"(?i)\b(reveal|disclose|print|output|leak|repeat)\b[^.\n]{0,30}\bsystem\s+prompt|\bsystem\s+prompt\b[^.\n]{0,40}\b(reveal|disclose|leak)",
        "asks the agent to leak its system prompt",
        false,
    ),
    r(
        "A3",
        High,
        0.8,
        r"(?i)\b(do\s+not|don'?t|never)\s+(tell|inform|mention|reveal|disclose|notify|alert|let)\b[^.\n]{0,60}\b(the\s+)?(user|human|operator|owner)s?\b",
        "hides actions from the user",
        false,
    ),
    r(
        "A3",
        High,
        0.8,
        r"(?i)\b(keep|remain|stay)\s+(this|these|it|the\s+\w+|your\s+\w+)(\s+\w+)?\s+(hidden|secret|invisible|undisclosed)\b|\bhide\s+(this|these|the|all|your|any)\s+(\w+\s+)?(actions?|behaviou?rs?|steps|activity|changes|requests?|commands?)\b",
        "asks the agent to keep its behaviour hidden",
        false,
    ),
    r(
        "A3",
        High,
        0.8,
        r"(?i)\b(silently|secretly|covertly|stealthily|discreetly|quietly)\s+(send|upload|post|run|execute|delete|install|copy|forward|transmit|exfiltrate|collect|read|modify)",
        "directs a covert action",
        false,
    ),
    r(
        "A3",
        High,
        0.7,
        r"(?i)\bwithout\s+(the\s+)?user'?s?\s+(knowledge|knowing|noticing|consent|awareness)",
        "acts without the user's knowledge",
        true,
    ),
    r(
        "A4",
        Medium,
        0.6,
        r"(?i)\b(magic|secret|trigger|activation|hidden)\s+(word|phrase|string|keyword|passphrase)\b",
        "behaviour tied to a secret trigger phrase",
        false,
    ),
    r(
        "A4",
        Medium,
        0.6,
        r#"(?i)\b(when|if|whenever)\s+(the\s+)?(user'?s?\s+)?(user|input|message|prompt|request)\s+(says|contains|includes|types|mentions)\s+["'“`][^"'”`\n]{2,40}["'”`][^.\n]{0,60}\b(ignore|enable|activate|unlock|execute|bypass|disable|switch)"#,
        "conditional behaviour switch on a specific phrase",
        false,
    ),
    r(
        "A5",
        Medium,
        0.6,
        r"(?i)\bofficial(ly)?\s+(anthropic|openai|claude|google|microsoft|github)\b|\b(endorsed|approved|certified|verified)\s+by\s+(anthropic|openai|google|microsoft|github)",
        "claims an official affiliation",
        false,
    ),
    r(
        "A5",
        Medium,
        0.6,
        r"(?i)\b(always|must)\s+(use|invoke|call|load|trigger|prefer)\s+this\s+skill\b|\buse\s+this\s+skill\s+(for|on)\s+(all|every|any)\s+(tasks?|requests?|questions?|messages?|prompts?)|\b(instead\s+of|replaces?|supersedes?|takes?\s+precedence\s+over)\s+(any\s+|all\s+|the\s+)?(other|built-?in|default|existing)\s+(skills?|tools?)",
        "over-broad trigger or shadowing of other skills",
        true,
    ),
    r(
        "B1",
        High,
        0.8,
        r"(?i)\b(read|cat|open|copy|cp|upload|send|collect|grab|dump|print|include|attach|exfiltrate|harvest|extract|access|scp|steal)\b[^.\n]{0,60}(~/\.ssh|\.ssh/|\bid_rsa\b|\bid_ed25519\b|\.aws/credentials|\.kube/config|\.docker/config\.json|\.netrc\b|\.git-credentials|\.gnupg|\bkeychain\b|/etc/shadow|wallet\.dat|browser\s+(cookies|passwords|profiles?))",
        "tells the agent to read a credential store",
        true,
    ),
    r(
        "B2",
        High,
        0.7,
        r"(?i)\b(collect|dump|send|gather|harvest|export|upload|capture|exfiltrate)\s+(all\s+)?(of\s+)?(the\s+)?(environment\s+variables|env\s+vars|process\.env|os\.environ)",
        "tells the agent to harvest environment variables",
        true,
    ),
    r(
        "B4",
        High,
        0.7,
        r"(?i)\b(ask|prompt|request|tell|instruct)\s+(the\s+)?users?\s+(to\s+)?(for|to\s+(paste|enter|provide|share|type|send|give))\s+([^.\n]{0,25})\b(passwords?|api[\s_-]?keys?|tokens?|secrets?|credentials?|private\s+keys?|seed\s+phrases?|recovery\s+phrases?|2fa\s+codes?|one[-\s]time\s+codes?)\b",
        "asks the user to paste a secret into the chat",
        true,
    ),
    r(
        "B4",
        High,
        0.7,
        r"(?i)\b(print|echo|display|show|output|log|include|embed|reveal|paste|write)\s+(out\s+)?(the\s+|their\s+|your\s+|all\s+|any\s+)?([\w-]+\s+){0,2}(api[\s_-]?keys?|access\s+tokens?|passwords?|secrets?|credentials?|private\s+keys?)\b[^.\n]{0,40}\b(in|into|to)\s+(the\s+)?(response|output|chat|conversation|reply|answer|logs?|url|query\s+string|commit)",
        "tells the agent to expose a secret in output",
        true,
    ),
    r(
        "C1",
        High,
        0.75,
        r"(?i)\b(send|upload|post|transmit|forward|exfiltrate|leak|copy)\b[^.\n]{0,60}\b(conversation|chat\s+history|context\s+window|system\s+prompt|credentials?|secrets?|api\s+keys?|tokens?|passwords?|environment\s+variables|ssh\s+keys?|personal\s+data)\b[^.\n]{0,60}\b(to|at)\b[^.\n]{0,30}(server|endpoint|webhook|url|host|collector|https?://)",
        "tells the agent to send sensitive data to an external endpoint",
        true,
    ),
    r(
        "C1",
        High,
        0.8,
        r"(?i)\b(include|add|append|attach|embed|insert|put|paste|copy|send|forward|e-?mail|mail|post|share|cc|leak|submit|encode)\b[^.\n]{0,60}?(\b(api[\s_-]?keys?|access[\s_-]?tokens?|auth(entication)?[\s_-]?tokens?|bearer\s+tokens?|tokens?|secrets?|credentials?|passwords?|private\s+keys?|ssh\s+keys?|env(ironment)?\s+(variables|vars|file))\b|\.env\b|\b[A-Z][A-Z0-9]*_(API_KEY|KEY|TOKEN|SECRET|PASSWORD)\b)[^.\n]{0,80}?(\b(to|cc|at|for)\s+[^.\n]{0,30}?[\w.+-]+@[\w-]+(\.[\w-]+)+|\b(as|in|into|inside|within)\s+(the\s+|your\s+|an?\s+|each\s+|every\s+)?(final\s+|next\s+)?(report|summary|message|e-?mail|issue|comment|ticket|note|pull\s+request|pr\s+description|commit\s+message|changelog|url|query\s+(string|parameter)|subdomain|dns\s+(name|query|lookup))\b[^.\n]{0,60}?\b(to|for|at|of)\b[^.\n]{0,40}?([\w.+-]+@[\w-]+(\.[\w-]+)+|https?://|external|third[-\s]party|outside))",
        "tells the agent to hand a secret to a third party (an address, a URL, a report sent out)",
        true,
    ),
    r(
        "C1",
        Medium,
        0.5,
        r"(?i)\b(send|upload|post|transmit|forward|report|sync)\b[^.\n]{0,60}\b(to|at)\s+(our|an?\s+external|a\s+remote|the\s+remote|my)\s+([\w-]+\s+)?(server|endpoint|webhook|collector|host)\b",
        "sends data to an external server",
        true,
    ),
    r(
        "C1",
        Medium,
        0.5,
        r"(?i)\b(send|upload|post|transmit|forward|exfiltrate)\b[^.\n]{0,60}\bto\s+https?://",
        "sends data to a URL",
        true,
    ),
    r(
        "C2",
        High,
        0.75,
        r"(?i)\b(execute|run|eval(uate)?)\b[^.\n]{0,50}\bwithout\s+(any\s+)?(verification|review|confirmation|asking|checking|inspection|validation)",
        "tells the agent to execute code without review",
        true,
    ),
    r(
        "C3",
        Critical,
        0.8,
        r"(?i)\b(download|fetch|get)\b[^.\n]{0,60}\b(and|then)\s+(run|execute|launch|open|install)\b[^.\n]{0,40}\.(exe|sh|bin|dmg|pkg|msi|app|bat|ps1|scr)\b|\b(must|need\s+to|required\s+to|have\s+to)\s+(run|execute|launch|install)\s+[\w.-]+\.(exe|bat|ps1|scr|msi|dmg|pkg)\b",
        "download-and-run of a binary",
        true,
    ),
    r(
        "C3",
        High,
        0.6,
        r"(?i)\bpassword[-\s]protected\s+(zip|archive|rar|7z)",
        "password-protected archive (evades scanning)",
        false,
    ),
    r(
        "C4",
        High,
        0.7,
        r"(?i)\b(delete|wipe|erase|destroy)\s+(all|every|the\s+entire|the\s+whole)\s+[^.\n]{0,30}\b(files|data|database|repository|repo|directory|disk|home|backups?)\b",
        "mass deletion instruction",
        true,
    ),
    r(
        "C4",
        Critical,
        0.7,
        r"(?i)\bencrypt\s+(all|every|the\s+user'?s?)\s+[^.\n]{0,20}\bfiles\b|\b(add|append)\b[^.\n]{0,30}\b(to\s+)?(sudoers|authorized_keys)\b|\bdisable\s+(the\s+)?(firewall|antivirus|defender|selinux|gatekeeper)",
        "ransomware, backdoor account or disabled protection",
        true,
    ),
    r(
        "C6",
        Medium,
        0.5,
        r"(?i)\b(automatically|autonomously|without\s+(asking|confirmation|approval))\b[^.\n]{0,60}\b(purchase|buy|pay|payments?|transfer\s+(funds|money)|publish|deploy\s+to\s+production|send\s+(emails?|messages?)\s+to\s+(all|every)|force[-\s]push|push\s+to\s+main)",
        "autonomous high-impact action",
        true,
    ),
    r(
        "C7",
        Medium,
        0.5,
        r"(?i)\b(fetch|browse|scrape|read|download|open)\b[^.\n]{0,40}\b(web\s*pages?|websites?|urls?|emails?|inbox|tweets?|issues|comments)\b[^.\n]{0,60}\b(follow|obey|execute|carry\s+out)\s+(any\s+|the\s+)?(instructions|commands|directions)",
        "follows instructions found in fetched content",
        true,
    ),
    r(
        "D1",
        High,
        0.75,
        r"(?i)\b(fetch|download|load|read|get|pull|retrieve|curl)\b[^.\n]{0,60}\b(instructions|rules|prompts?|directives|system\s+prompt|commands|tasks)\b[^.\n]{0,30}\bfrom\s+(https?://|the\s+(remote|url|server|endpoint)|a\s+(remote|url|server)|this\s+url)|\bfollow\s+(the\s+|any\s+)?(instructions|directions|commands)\s+(at|from|on)\s+(https?://|the\s+(url|remote))",
        "loads its instructions from a remote URL at run time",
        true,
    ),
    r(
        "E1",
        Medium,
        0.5,
        r"(?i)\b(retry|repeat|loop|keep\s+(trying|retrying|running|calling|polling))\b[^.\n]{0,30}\b(forever|indefinitely|endlessly|infinitely|without\s+(stopping|limit|end))",
        "unbounded retry/loop",
        true,
    ),
    r(
        "E2",
        High,
        0.7,
        r"(?i)\b(write|append|add|insert|modify|update|edit|overwrite|inject|save)\b[^.\n]{0,60}(\bCLAUDE\.md|\bAGENTS\.md|\bMEMORY\.md|\bGEMINI\.md|\.cursorrules|copilot-instructions\.md|\.claude/settings|long[-\s]term\s+memory|persistent\s+memory)",
        "modifies the agent's persistent memory or settings",
        true,
    ),
    r(
        "E3",
        High,
        0.7,
        r"(?i)\b(generate|write|create|produce|provide)\b[^.\n]{0,40}\b(malware|ransomware|keyloggers?|phishing\s+(emails?|pages?|kits?)|credential\s+stealers?|botnets?|(instructions|recipes?)\s+for\s+(making\s+)?(bombs?|explosives|nerve\s+agents?))",
        "asks for harmful output",
        true,
    ),
];

/// Shell command text: shell scripts, shell code blocks, strings run by code, decoded payloads.
pub(super) static SHELL: &[TextRule] = &[
    pinned(r(
        "C3",
        Critical,
        0.9,
        r"(?i)\b(curl|wget|iwr|invoke-webrequest|irm|invoke-restmethod)\b[^|\n;]*\|\s*(sudo\s+(-\S+\s+)*)?(bash|sh|zsh|ksh|dash|python[0-9.]*|perl|ruby|node|iex|invoke-expression|source)\b",
        "pipes downloaded content into an interpreter",
        false,
    )),
    pinned(r(
        "C3",
        Critical,
        0.9,
        r#"(?i)\b(bash|sh|zsh|eval|source|python[0-9.]*)\s+(-c\s+)?["']?(\$\(|<\(|`)\s*(curl|wget)\b"#,
        "executes the output of a download",
        false,
    )),
    pinned(r(
        "C3",
        Critical,
        0.8,
        r"(?i)\b(curl|wget)\b[^\n]*(-o|-O|--output)\s*\S+[^\n]*(&&|;)\s*(chmod\s+\+x|\./)",
        "downloads a file and makes it executable",
        false,
    )),
    pinned(r(
        "C2",
        Critical,
        0.9,
        r"/dev/tcp/[\w.\-]+/\d+|\b(nc|ncat|netcat)\b[^\n]*\s-[ec]\s|\bsocat\b[^\n]*exec:|\bmkfifo\b[^\n]*\|\s*(nc|ncat)\b",
        "reverse shell",
        false,
    )),
    pinned(r(
        "C1",
        Critical,
        0.9,
        r#"(?i)\b(cat|base64|tar|gzip|zip|xxd|gpg|head|tail)\b[^|\n]*((~|\$HOME|\$\{HOME\})?/?\.(ssh/|aws/credentials|netrc\b|git-credentials|docker/config\.json|kube/config|pypirc|npmrc)|\bid_(rsa|ed25519|ecdsa|dsa)\b|/etc/shadow|(^|\s)\.env\b)[^\n]*\|[^\n]*\b(curl|wget|nc|ncat|netcat|socat|openssl\s+s_client|ssh)\b|\b(curl|wget)\b[^\n]*\s(-d|--data(-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|--post-file)[\s=]*["']?[\w=]*@?["']?((~|\$HOME|\$\{HOME\})?/?\.(ssh/|aws/credentials|netrc\b|git-credentials|docker/config\.json|kube/config|pypirc|npmrc|env\b)|\S*\bid_(rsa|ed25519|ecdsa|dsa)\b|/etc/shadow)"#,
        "sends a credential file to the network",
        false,
    )),
    pinned(r(
        "D3",
        Critical,
        0.9,
        r#"(?i)\b(base64\s+(-d|--decode|-D)|xxd\s+(-r|-p\s+-r|-rp)|openssl\s+(enc\s+)?(-d\s+)?-?(base64|a)\s+-d)\b[^\n]*\|\s*(sudo\s+(-\S+\s+)*)?(bash|sh|zsh|ksh|dash|python[0-9.]*|perl|ruby|node)\b|\b(bash|sh|zsh|eval|source)\s+[^\n]*(\$\(|<\(|`)\s*(echo|printf)\b[^)`]*\|\s*(base64\s+(-d|--decode|-D)|xxd\s+-r)"#,
        "decodes a hidden payload and runs it",
        false,
    )),
    r("C2", High, 0.6, r#"(?i)(^|[;&|]\s*)eval\s+["']?\$[\w{(]"#, "shell eval of a variable", false),
    r(
        "C4",
        High,
        0.85,
        r#"(?i)\brm\s+(-[a-z]*r[a-z]*f[a-z]*|-[a-z]*f[a-z]*r[a-z]*|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)\s+(--no-preserve-root\s+)?["']?(/|~/?|\$HOME/?|\$\{HOME\}/?|/\*|~/\*|/(etc|usr|var|bin|boot|lib|home|root|opt)/?)(\*)?["']?(\s|$|;|&)"#,
        "recursive delete of root, home or system directories",
        false,
    ),
    r(
        "C4",
        High,
        0.85,
        r#"(?i)\brm\s+(-[a-z]*r[a-z]*|--recursive)\b[^\n;&|]*\s["']?(~|\$HOME|\$\{HOME\})/\.(ssh|aws|gnupg|kube|docker|config|git-credentials|netrc)\b"#,
        "deletes the user's keys or credential folders",
        false,
    ),
    r(
        "C4",
        High,
        0.85,
        r"(?i)\bmkfs(\.\w+)?\s+/dev/|\bdd\s+[^\n]*of=/dev/(sd|nvme|hd|disk|xvd|mmcblk)|\bshred\b[^\n]*/dev/",
        "overwrites a disk device",
        false,
    ),
    r(
        "C4",
        Critical,
        0.8,
        r#"(?i)(>>?|tee\s+(-a\s+)?)\s*["']?(~|\$HOME|\$\{HOME\})/\.(bashrc|zshrc|bash_profile|profile|zprofile|ssh/authorized_keys)|\|\s*crontab\b|\bcrontab\s+(-e\b|-r\b|[\w./~$"'])|/etc/cron(\.d|tab)|/var/spool/cron|\bsystemctl\s+(--user\s+)?enable\b|/etc/systemd/system/|\.config/systemd/user/|Library/Launch(Agents|Daemons)|\blaunchctl\s+(load|bootstrap)|/etc/rc\.local|\bschtasks\s+/create|CurrentVersion\\+Run"#,
        "installs persistence (shell profile, cron, service, launch agent)",
        false,
    ),
    r(
        "C4",
        High,
        0.7,
        r"(?i)\bchmod\s+(-R\s+)?(777|a\+rwx)\s+/|\bchmod\s+[ug]?\+s\b|\bchmod\s+[4-7][0-7]{3}\b|NOPASSWD|/etc/sudoers|\bsetenforce\s+0|\bufw\s+disable|\biptables\s+-F|DisableRealtimeMonitoring|\bspctl\s+--master-disable|\bcsrutil\s+disable",
        "privilege escalation or disabled protection",
        false,
    ),
    r("E1", Critical, 0.9, r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:", "fork bomb", false),
    r(
        "C1",
        Medium,
        0.6,
        r#"(?i)\bcurl\b[^\n]*\s(-d|--data(-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file)\s*["']?[\w=]*@"#,
        "uploads a local file with curl",
        false,
    ),
    pinned(r(
        "C1",
        High,
        0.8,
        r"(?i)\b(nc|ncat|netcat)\s+[\w.\-]+\s+\d+\s*<|\b(curl|wget)\b[^\n]*\$\(\s*(env|printenv|cat\s+\S*(ssh|aws|\.env|credentials))|\b(dig|nslookup|host)\s+[^\n]*\$\(",
        "sends local data (files, env, DNS) to a remote host",
        false,
    )),
    pinned(r(
        "C1",
        High,
        0.8,
        r"(?i)\b(curl|wget)\b[^\n]*(\s(-d|--data(-binary|-raw|-urlencode)?|--post-data|-F|--form)[\s=]*|[?&][\w-]+=)[\x22']?[^\s\x22']*\$\{?[A-Z0-9_]*(SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL)[A-Z0-9_]*",
        "sends a secret from the environment in a request's data or URL",
        false,
    )),
    pinned(r(
        "B2",
        High,
        0.8,
        r"(?i)\b(env|printenv|export\s+-p)\s*\|[^\n]*\b(curl|wget|nc|ncat|base64|ssh)\b",
        "dumps the whole environment to a network or encoder",
        false,
    )),
    r(
        "D2",
        Medium,
        0.5,
        r"(?i)\bpip3?\s+install\b[^\n]*(--extra-index-url|--trusted-host)\b",
        "installs from an extra/untrusted package index",
        false,
    ),
    r(
        "D2",
        Low,
        0.4,
        r"(?i)\bpip3?\s+install\b[^\n]*\b(git\+https?|https?)://\S+|\bnpm\s+(i|install)\b[^\n]*https?://\S+\.tgz",
        "installs a package from a raw URL",
        false,
    ),
];

/// Code and configuration: secrets, credential paths, suspicious endpoints.
pub(super) static ARTIFACT: &[TextRule] = &[
    r(
        "B3",
        Critical,
        0.95,
        r"-----BEGIN (RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY( BLOCK)?-----",
        "embedded private key",
        false,
    ),
    r(
        "B3",
        Critical,
        0.9,
        r"\b(AKIA|ASIA)[0-9A-Z]{16}\b|\b[sr]k_live_[0-9a-zA-Z]{20,}",
        "live cloud/payment key",
        false,
    ),
    r(
        "B3",
        High,
        0.85,
        r"\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{50,}|\bxox[baprs]-[A-Za-z0-9-]{10,}|\bsk-ant-(api|admin)\d{2}-[A-Za-z0-9_\-]{20,}|\bsk-(proj-)?[A-Za-z0-9]{32,}\b|\bAIza[0-9A-Za-z_\-]{35}\b|https://hooks\.slack\.com/services/T\w+/B\w+/\w+|discord(app)?\.com/api/webhooks/\d+/[\w-]{20,}",
        "hard-coded API token or webhook",
        false,
    ),
    r(
        "B3",
        High,
        0.6,
        r#"(?i)\b(api[_-]?key|secret[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|password|passwd)\b["']?\s*[:=]\s*["']([A-Za-z0-9_\-+/=]{16,})["']"#,
        "hard-coded credential assignment",
        false,
    ),
    r(
        "B3",
        High,
        0.6,
        r"(?i)\b(postgres(ql)?|mysql|mongodb(\+srv)?|redis|amqp)://[^\s:/@]+:[^\s@/]{3,}@[\w.-]+",
        "connection string with embedded password",
        false,
    ),
    r(
        "B1",
        High,
        0.8,
        r#"(?i)(~|\$HOME|\$\{HOME\}|%USERPROFILE%)?/?\.(ssh/(id_\w+|authorized_keys|config|known_hosts)|aws/(credentials|config)|kube/config|docker/config\.json|netrc|git-credentials|pypirc|npmrc|gnupg|password-store)\b|\bid_(rsa|dsa|ecdsa|ed25519)\b|/etc/shadow\b|Library/Keychains|login\.keychain|\bsecurity\s+(find|dump)-(generic-password|internet-password|keychain)|\bLogin Data\b|\bwallet\.dat\b|Chrome/User Data|\.mozilla/firefox|expanduser\(\s*["']~/\.ssh"#,
        "accesses a credential store",
        false,
    ),
    r(
        "C1",
        High,
        0.8,
        r"(?i)\b[\w-]+\.(ngrok(-free)?\.(io|app|dev)|trycloudflare\.com|loca\.lt|localtunnel\.me|serveo\.net|pagekite\.me|requestbin\.(com|net)|pipedream\.net|burpcollaborator\.net|oast\.(fun|me|pro|live|site|online)|interact\.sh|beeceptor\.com|hookbin\.com)\b|\b(webhook\.site|pastebin\.com/api|transfer\.sh|paste\.ee)\b",
        "tunnel, paste or request-catcher endpoint (typical exfiltration sink)",
        false,
    ),
];

/// Values that mark a matched secret as a placeholder, not a real credential.
pub(super) fn is_placeholder(s: &str) -> bool {
    let l = s.to_lowercase();
    const WORDS: [&str; 17] = [
        "example",
        "your",
        "xxxx",
        "placeholder",
        "dummy",
        "sample",
        "test",
        "fake",
        "changeme",
        "<",
        "...",
        "***",
        "redacted",
        "insert",
        "replace",
        "${",
        "password@",
    ];
    WORDS.iter().any(|w| l.contains(w))
}

/// ASCII word boundaries keep the fast DFA engines usable on non-ASCII text.
pub(crate) fn ascii_boundaries(p: &str) -> String {
    p.replace(r"\b", r"(?-u:\b)")
}

fn compile(tables: &[&[TextRule]]) -> RuleFinder {
    let patterns: Vec<String> = tables.iter().flat_map(|t| t.iter().map(|r| ascii_boundaries(r.regex))).collect();
    RuleFinder::new(&patterns)
}

/// Where a table's rules are compiled: which finder (0 prose, 1 commands and artifacts), the
/// finder, and the index of the table's first rule in it. SHELL and ARTIFACT share one, since a
/// text is almost always searched for both; PROSE, whose literals are common words, has its own.
pub(super) fn compiled(rules: &'static [TextRule]) -> (usize, &'static RuleFinder, usize) {
    static PROSE_C: OnceLock<RuleFinder> = OnceLock::new();
    static COMMANDS_C: OnceLock<RuleFinder> = OnceLock::new();
    if std::ptr::eq(rules, PROSE) {
        (0, PROSE_C.get_or_init(|| compile(&[PROSE])), 0)
    } else {
        let c = COMMANDS_C.get_or_init(|| compile(&[SHELL, ARTIFACT]));
        (1, c, if std::ptr::eq(rules, SHELL) { 0 } else { SHELL.len() })
    }
}
