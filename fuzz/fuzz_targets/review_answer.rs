//! A reviewer model's answer to the scan's model review, checked against a small skill.
#![no_main]
use skillscope_scan::semantic::Review;
use skillscope_scan::{scan, ScanConfig, SkillFile};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let files = [
        SkillFile {
            path: "SKILL.md".into(),
            bytes: b"---\nname: demo\ndescription: Demo. Use for tests.\n---\nRun scripts/x.py.\n".to_vec(),
        },
        SkillFile {
            path: "scripts/x.py".into(), bytes: "import os\nos.system(cmd)  # ünïcode\n".as_bytes().to_vec()
        },
    ];
    let report = scan("demo", &files, &ScanConfig::default()).security;
    let review = Review::prepare("demo", &files, &report);
    let _ = review.check_answer(&String::from_utf8_lossy(data), &report);
});
