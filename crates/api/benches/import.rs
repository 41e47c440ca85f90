//! Import throughput. `cargo bench -p skillscope-api --bench import`
//! 1. 1,000 generated skills in one local folder, imported into a fresh workspace (target: >= 500 skills/s).
//! 2. When `../shared/corpus` exists (or $SKILLSCOPE_CORPUS), the import time of each of its collections.

use skillscope_api::import::import;
use skillscope_api::model::ImportRequest;
use skillscope_api::Workspace;
use std::path::Path;
use std::time::Instant;

const SKILLS: usize = 1000;

fn generate(root: &Path) {
    for i in 0..SKILLS {
        let dir = root.join(format!("skill-{i:04}"));
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: skill-{i:04}\ndescription: Generated skill {i} for the import benchmark. Use when measuring.\nlicense: MIT\nmetadata:\n  author: bench\n---\n# Skill {i}\n\n## Instructions\n{}\n",
                "Follow the steps carefully and report what you did.\n".repeat(20)
            ),
        )
        .unwrap();
        std::fs::write(dir.join("scripts/run.py"), format!("print({i})\n").repeat(50)).unwrap();
        std::fs::write(dir.join("reference.md"), format!("# Reference {i}\n").repeat(100)).unwrap();
    }
}

fn timed_import(ws: &Workspace, source: &Path) -> (Result<usize, String>, f64) {
    let req = ImportRequest { source: source.display().to_string(), ..Default::default() };
    let t = Instant::now();
    let r = import(ws, &req, &mut |_| Ok(())).map(|o| o.skills.len()).map_err(|e| e.to_string());
    (r, t.elapsed().as_secs_f64())
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("skills");
    generate(&src);
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let (n, secs) = timed_import(&ws, &src);
    let n = n.expect("generated skills import");
    println!("generated: {n} skills (3 files each) in {secs:.3} s = {:.0} skills/s (target >= 500)", n as f64 / secs);
    let (again, secs2) = timed_import(&ws, &src);
    println!("re-import unchanged: {} skills in {secs2:.3} s = {:.0} skills/s", again.unwrap(), n as f64 / secs2);

    let corpus = std::env::var_os("SKILLSCOPE_CORPUS")
        .map(Into::into)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    let Ok(entries) = std::fs::read_dir(&corpus) else {
        println!("corpus: {} not found, skipped", corpus.display());
        return;
    };
    let ws = Workspace::open(tmp.path().join("corpus-home")).unwrap();
    let mut dirs: Vec<_> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for d in dirs {
        let (r, secs) = timed_import(&ws, &d);
        let name = d.file_name().unwrap().to_string_lossy();
        match r {
            Ok(n) => println!("corpus/{name}: {n} skills in {secs:.3} s"),
            Err(e) => println!("corpus/{name}: refused in {secs:.3} s: {e}"),
        }
    }
}
