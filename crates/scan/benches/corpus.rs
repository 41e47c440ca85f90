//! Corpus benchmark: detection recall on labelled risky skills, false positives on
//! benign skills, and throughput. Run: `cargo bench -p skillscope-scan --bench corpus`.
//! Corpus: $SKILLSCOPE_CORPUS or <workspace>/../shared/corpus (read-only).

use skillscope_scan::{load_dir, scan, ScanConfig, ScanReport, Severity, SkillFile};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

struct Label {
    category: String,
    severity: Option<Severity>,
}

/// Labelled finding categories (Cisco skill-scanner names) → taxonomy categories that satisfy them.
fn accepted(label: &str) -> &'static [&'static str] {
    match label {
        "prompt_injection" | "social_engineering" | "skill_discovery_abuse" => &["prompt_injection"],
        // Cisco uses it both for "disregard content policy" and for undeclared network use.
        "policy_violation" => &["prompt_injection", "unsafe_behavior"],
        "hidden_instructions" => &["prompt_injection"],
        "command_injection" | "unauthorized_tool_use" | "tool_chaining_abuse" => &["unsafe_behavior"],
        "data_exfiltration" => &["unsafe_behavior", "credential_access"],
        "hardcoded_secrets" => &["credential_access"],
        "obfuscation" => &["supply_chain", "prompt_injection"],
        "resource_abuse" | "autonomy_abuse" => &["robustness", "unsafe_behavior"],
        _ => &[],
    }
}

fn parse_labels(text: &str) -> (bool, Vec<Label>) {
    let safe = text.lines().any(|l| l.trim() == "expected_safe: True");
    let labels = text
        .lines()
        .filter_map(|l| l.strip_prefix("  - "))
        .filter_map(|l| {
            let mut parts = l.split('|').map(str::trim);
            let first = parts.next()?.to_lowercase();
            let category = if first.contains("smuggling") || first.contains("hidden") {
                "hidden_instructions".to_string()
            } else {
                first.split_whitespace().next()?.to_string()
            };
            let severity = match parts.next()?.split_whitespace().next()? {
                "CRITICAL" => Some(Severity::Critical),
                "HIGH" => Some(Severity::High),
                "MEDIUM" => Some(Severity::Medium),
                "LOW" => Some(Severity::Low),
                _ => None,
            };
            Some(Label { category, severity })
        })
        .collect();
    (safe, labels)
}

fn corpus_dir() -> Option<PathBuf> {
    let p = std::env::var_os("SKILLSCOPE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    p.is_dir().then_some(p)
}

fn subdirs(p: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(p).into_iter().flatten().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    v.sort();
    v
}

fn high(r: &ScanReport) -> Vec<String> {
    r.security
        .findings
        .iter()
        .filter(|f| f.severity >= Severity::High)
        .map(|f| format!("{} {} {}:{} {}", f.severity.as_str(), f.pattern, f.file, f.line, f.message))
        .collect()
}

/// Synthetic skills for the speed run when no corpus is present.
fn generated(i: usize) -> Vec<SkillFile> {
    let md = format!(
        "---\nname: gen-{i}\ndescription: Formats CSV files. Use when the user asks to tidy tables.\n---\n# Gen\n## Usage\n1. Run `python scripts/fmt.py in.csv`\n```bash\ncurl -fsSL https://example.org/x -o x.tar.gz\n```\n"
    );
    let py = "import csv, sys\n\ndef main(p):\n    try:\n        rows = list(csv.reader(open(p)))\n    except OSError as e:\n        raise SystemExit(e)\n    print(len(rows))\n".repeat(4);
    vec![
        SkillFile { path: "SKILL.md".into(), bytes: md.into_bytes() },
        SkillFile { path: "scripts/fmt.py".into(), bytes: py.into_bytes() },
    ]
}

fn main() {
    let cfg = ScanConfig::default();
    let mut pool: Vec<(String, Vec<SkillFile>)> = Vec::new();
    if let Some(corpus) = corpus_dir() {
        println!("corpus: {}\n", corpus.display());
        let mut per_cat: BTreeMap<String, (u32, u32, u32, u32)> = BTreeMap::new(); // any: hit,total; high: hit,total
        let mut samples_high = (0u32, 0u32);
        let mut benign_fp = Vec::new();
        let mut benign_n = 0;
        println!("| risky sample | expected (HIGH+) | detected HIGH+ categories | score |\n|---|---|---|---|");
        for dir in subdirs(&corpus.join("skills-risky")) {
            let name = dir.file_name().unwrap().to_string_lossy().to_string();
            let files: Vec<SkillFile> = load_dir(&dir)
                .unwrap()
                .into_iter()
                .filter(|f| f.path != "LABELS.txt" && f.path != "SOURCE_EXPECTED.json")
                .collect();
            let labels_text = std::fs::read_to_string(dir.join("LABELS.txt")).unwrap_or_default();
            let (safe, labels) = parse_labels(&labels_text);
            let short = name.split("__").last().unwrap_or(&name).to_string();
            let r = scan(&short, &files, &cfg);
            pool.push((short.clone(), files));
            if safe {
                benign_n += 1;
                benign_fp.extend(high(&r).into_iter().map(|h| format!("{name}: {h}")));
                continue;
            }
            let detected = |cats: &[&str], min: Severity| {
                r.security.findings.iter().any(|f| f.severity >= min && cats.contains(&f.category.as_str()))
            };
            let mut exp_high = Vec::new();
            let mut cats_seen = std::collections::BTreeSet::new();
            for l in &labels {
                let cats = accepted(&l.category);
                if !cats_seen.insert((l.category.clone(), l.severity >= Some(Severity::High))) {
                    continue;
                }
                let e = per_cat.entry(l.category.clone()).or_default();
                e.1 += 1;
                e.0 += u32::from(detected(cats, Severity::Low));
                if l.severity >= Some(Severity::High) {
                    e.3 += 1;
                    e.2 += u32::from(detected(cats, Severity::High));
                    exp_high.push(l.category.clone());
                }
            }
            exp_high.dedup();
            let ok = !exp_high.is_empty() && exp_high.iter().all(|c| detected(accepted(c), Severity::High));
            if !exp_high.is_empty() {
                samples_high.1 += 1;
                samples_high.0 += u32::from(ok);
            }
            let mut got: Vec<&str> = r
                .security
                .findings
                .iter()
                .filter(|f| f.severity >= Severity::High)
                .map(|f| f.category.as_str())
                .collect();
            got.sort();
            got.dedup();
            println!(
                "| {short} | {} | {} {} | {} |",
                exp_high.join(", "),
                got.join(", "),
                if ok || exp_high.is_empty() { "✓" } else { "✗" },
                r.security.score
            );
        }
        println!("\n| label category | recall (any severity) | recall HIGH+CRITICAL |\n|---|---|---|");
        for (cat, (a, at, h, ht)) in &per_cat {
            let hs = if *ht > 0 { format!("{h}/{ht}") } else { "–".into() };
            println!("| {cat} | {a}/{at} | {hs} |");
        }
        println!("\nsamples with every HIGH/CRITICAL label matched: {}/{}", samples_high.0, samples_high.1);
        for dir in subdirs(&corpus.join("skills-benign")) {
            let name = dir.file_name().unwrap().to_string_lossy().to_string();
            let files = load_dir(&dir).unwrap();
            let r = scan(&name, &files, &cfg);
            benign_n += 1;
            benign_fp.extend(high(&r).into_iter().map(|h| format!("{name}: {h}")));
            pool.push((name, files));
        }
        println!("benign skills: {benign_n}, HIGH/CRITICAL false positives: {}", benign_fp.len());
        for fp in &benign_fp {
            println!("  FP {fp}");
        }
    } else {
        println!("corpus not found; speed run on generated skills");
    }
    if pool.is_empty() {
        pool = (0..20).map(|i| (format!("gen-{i}"), generated(i))).collect();
    }
    let bytes: usize = pool.iter().flat_map(|(_, f)| f.iter().map(|x| x.bytes.len())).sum::<usize>() / pool.len();
    let _ = scan(&pool[0].0, &pool[0].1, &cfg); // warm regex caches
    let n = 1000;
    let run = |threads: usize| {
        let t = Instant::now();
        let findings: usize = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..threads)
                .map(|k| {
                    let (pool, cfg) = (&pool, &cfg);
                    sc.spawn(move || {
                        (k..n)
                            .step_by(threads)
                            .map(|i| {
                                scan(&pool[i % pool.len()].0, &pool[i % pool.len()].1, cfg).security.findings.len()
                            })
                            .sum::<usize>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).sum()
        });
        let secs = t.elapsed().as_secs_f64();
        println!(
            "speed ({threads} thread{}): {n} skills (avg {} KiB) in {secs:.2}s = {:.0} skills/s ({findings} findings)",
            if threads > 1 { "s" } else { "" },
            bytes / 1024,
            n as f64 / secs
        );
    };
    println!();
    run(1);
    run(std::thread::available_parallelism().map_or(1, |p| p.get()));
}
