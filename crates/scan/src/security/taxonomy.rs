//! The 25 risk patterns in 5 categories (shared/reference/security-taxonomy.md).

use crate::report::Severity::{self, *};

pub struct Pattern {
    pub id: &'static str,
    pub category: &'static str,
    pub name: &'static str,
    pub default: Severity,
}

const A: &str = "prompt_injection";
const B: &str = "credential_access";
const C: &str = "unsafe_behavior";
const D: &str = "supply_chain";
const E: &str = "robustness";

pub static PATTERNS: [Pattern; 25] = [
    Pattern { id: "A1", category: A, name: "Instruction override / jailbreak", default: High },
    Pattern { id: "A2", category: A, name: "Hidden / invisible instructions", default: High },
    Pattern { id: "A3", category: A, name: "Concealment from user", default: High },
    Pattern { id: "A4", category: A, name: "Behavior manipulation / conditional trigger", default: Medium },
    Pattern { id: "A5", category: A, name: "Discovery / trigger abuse & impersonation", default: Medium },
    Pattern { id: "A6", category: A, name: "Description-behavior mismatch", default: High },
    Pattern { id: "B1", category: B, name: "Credential-store access", default: High },
    Pattern { id: "B2", category: B, name: "Environment-variable harvesting", default: High },
    Pattern { id: "B3", category: B, name: "Hardcoded secrets", default: High },
    Pattern { id: "B4", category: B, name: "Insecure credential handling in instructions", default: High },
    Pattern { id: "C1", category: C, name: "Data exfiltration / context leakage", default: High },
    Pattern { id: "C2", category: C, name: "Dynamic code / command execution", default: High },
    Pattern { id: "C3", category: C, name: "Remote fetch-and-execute", default: Critical },
    Pattern { id: "C4", category: C, name: "Destructive action, privilege escalation, persistence", default: High },
    Pattern { id: "C5", category: C, name: "File-system scope violation", default: Medium },
    Pattern { id: "C6", category: C, name: "Excessive agency / permission mismatch", default: Medium },
    Pattern { id: "C7", category: C, name: "Untrusted-content ingestion", default: Medium },
    Pattern { id: "D1", category: D, name: "Remote / auto-updating instructions", default: High },
    Pattern { id: "D2", category: D, name: "Risky dependencies", default: Low },
    Pattern { id: "D3", category: D, name: "Obfuscated code / encoded payloads", default: High },
    Pattern { id: "D4", category: D, name: "Opaque or hidden artifacts", default: High },
    Pattern { id: "D5", category: D, name: "Manifest & provenance hygiene", default: Low },
    Pattern { id: "E1", category: E, name: "Resource exhaustion", default: Medium },
    Pattern { id: "E2", category: E, name: "Memory / persistent-context poisoning", default: High },
    Pattern { id: "E3", category: E, name: "Harmful / unsafe output", default: High },
];

pub fn pattern(id: &str) -> &'static Pattern {
    PATTERNS.iter().find(|p| p.id == id).unwrap_or_else(|| panic!("unknown pattern {id}"))
}
