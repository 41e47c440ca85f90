//! The project's sample skills, embedded at build time so a new workspace is never empty.

use super::{base_source, dir_name};
use crate::error::Result;
use crate::model::SourceKind;
use crate::package::{stage, RawFiles, StagedSkill};
use include_dir::{include_dir, Dir};

static SAMPLES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../fixtures/skills");

pub fn stage_all() -> Result<Vec<StagedSkill>> {
    let base = base_source(SourceKind::Sample, "fixtures/skills".into());
    SAMPLES
        .dirs()
        .map(|d| {
            let rel = d.path().to_string_lossy().to_string();
            let mut files = Vec::new();
            collect(d, d.path(), &mut files);
            stage(&dir_name(&rel, "sample"), super::source_for(&base, &rel), files, Vec::new())
        })
        .collect()
}

fn collect(dir: &Dir<'static>, root: &std::path::Path, out: &mut RawFiles) {
    for f in dir.files() {
        let rel = f.path().strip_prefix(root).expect("embedded file under its dir");
        out.push((rel.to_string_lossy().replace('\\', "/"), f.contents().to_vec()));
    }
    for d in dir.dirs() {
        collect(d, root, out);
    }
}
