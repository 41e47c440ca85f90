//! Every import path end to end against a real workspace on disk, including hostile input
//! generated here. Each refusal must leave the library exactly as it was.

use skillscope_api::import::import;
use skillscope_api::model::{ChangeKind, ImportOutcome, ImportRequest, ImportStatus, SourceKind};
use skillscope_api::{library, AppError, ErrorCode, Workspace};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use zip::write::SimpleFileOptions;

const SKILL: &str = "---\nname: {n}\ndescription: Does {n} things. Use when {n} is needed.\n---\n# {n}\n";

fn skill_md(name: &str) -> String {
    SKILL.replace("{n}", name)
}

struct Env {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    ws: Workspace,
}

fn env() -> Env {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().to_path_buf();
    let ws = Workspace::open(root.join("home")).unwrap();
    Env { _tmp: tmp, root, ws }
}

fn write(path: &Path, content: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

fn req(source: &Path) -> ImportRequest {
    ImportRequest { source: source.display().to_string(), ..Default::default() }
}

fn run(e: &Env, r: ImportRequest) -> Result<ImportOutcome, AppError> {
    Ok(import(&e.ws, &r, &mut |_| Ok(()))?)
}

fn statuses(o: &ImportOutcome) -> Vec<(String, ImportStatus)> {
    o.skills.iter().map(|s| (s.name.clone(), s.status)).collect()
}

/// Table row counts: a refused import must not change any of them.
fn snapshot(e: &Env) -> Vec<i64> {
    let c = e.ws.conn().unwrap();
    ["skills", "skill_versions", "version_files", "findings"]
        .iter()
        .map(|t| c.query_row(&format!("SELECT COUNT(*) FROM {t}"), [], |r| r.get(0)).unwrap())
        .collect()
}

fn assert_refused(e: &Env, r: ImportRequest, code: ErrorCode, needle: &str) {
    let before = snapshot(e);
    let err = run(e, r).unwrap_err();
    assert_eq!(err.code, code, "{err:?}");
    assert!(err.message.contains(needle), "{:?} lacks {needle:?}", err.message);
    assert_eq!(snapshot(e), before, "a refused import changed the database");
}

fn make_zip(path: &Path, entries: &[(&str, &[u8])]) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        z.start_file(*name, opts).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
}

#[test]
fn folder_versions_and_diff() {
    let e = env();
    let dir = e.root.join("src/pdf-tools");
    write(&dir.join("SKILL.md"), skill_md("pdf-tools"));
    write(&dir.join("scripts/run.sh"), "echo one\n");
    write(&dir.join("assets/logo.bin"), [0u8, 1, 2, 255]);
    let first = run(&e, req(&dir)).unwrap();
    assert_eq!(statuses(&first), [("pdf-tools".into(), ImportStatus::NewSkill)]);

    let again = run(&e, req(&dir)).unwrap();
    assert_eq!(again.skills[0].status, ImportStatus::Unchanged);
    assert_eq!(again.skills[0].version_id, first.skills[0].version_id);

    write(&dir.join("scripts/run.sh"), "echo two\n");
    write(&dir.join("NOTES.md"), "new\n");
    let second = run(&e, req(&dir)).unwrap();
    assert_eq!(second.skills[0].status, ImportStatus::NewVersion);
    assert_eq!(second.skills[0].version, 2);
    assert_ne!(second.skills[0].sha256, first.skills[0].sha256);

    let d = library::diff_versions(&e.ws, first.skills[0].version_id, second.skills[0].version_id).unwrap();
    let changes: Vec<_> = d.files.iter().map(|f| (f.path.as_str(), f.change)).collect();
    assert_eq!(
        changes,
        [
            ("NOTES.md", ChangeKind::Added),
            ("SKILL.md", ChangeKind::Unchanged),
            ("assets/logo.bin", ChangeKind::Unchanged),
            ("scripts/run.sh", ChangeKind::Modified)
        ]
    );
    let u = d.files[3].unified_diff.as_deref().unwrap();
    assert!(u.contains("-echo one") && u.contains("+echo two"), "{u}");

    let v = library::get_version(&e.ws, second.skills[0].version_id).unwrap();
    let bin = v.files.iter().find(|f| f.path == "assets/logo.bin").unwrap();
    assert!(bin.binary);
    assert!(v.findings.iter().any(|f| f.code == "binary_file" && f.file.as_deref() == Some("assets/logo.bin")));
    assert_eq!(library::read_file(&e.ws, v.id, "scripts/run.sh").unwrap().text.as_deref(), Some("echo two\n"));
    assert!(library::read_file(&e.ws, v.id, "assets/logo.bin").unwrap().text.is_none());
    assert!(v.body_html.contains("<h1>pdf-tools</h1>"));
}

#[test]
fn many_skills_in_a_tree_with_subpath_and_findings() {
    let e = env();
    let repo = e.root.join("collection");
    write(&repo.join("skills/alpha/SKILL.md"), skill_md("alpha"));
    write(&repo.join("skills/beta/SKILL.md"), "---\nname: Beta_Skill\ndescription: b\nglobs: x\n---\n");
    write(&repo.join("skills/beta/nested/SKILL.md"), skill_md("nested"));
    write(&repo.join("docs/README.md"), "not a skill");
    let o = run(&e, req(&repo)).unwrap();
    assert_eq!(o.skills.len(), 2, "nested SKILL.md belongs to its parent skill");
    let list = library::list_skills(&e.ws).unwrap();
    let beta = list.iter().find(|s| s.name == "Beta_Skill").unwrap();
    assert_eq!(beta.source.subpath.as_deref(), Some("skills/beta"));
    let codes: Vec<_> =
        library::get_version(&e.ws, beta.version_id).unwrap().findings.into_iter().map(|f| f.code).collect();
    for want in ["name-charset", "forbidden-field", "name-dir-mismatch"] {
        assert!(codes.iter().any(|c| c == want), "missing {want} in {codes:?}");
    }

    let o = run(&e, ImportRequest { subpath: Some("skills/alpha".into()), ..req(&repo) }).unwrap();
    assert_eq!(statuses(&o), [("alpha".into(), ImportStatus::Unchanged)], "same place, same skill");
    assert_refused(&e, ImportRequest { subpath: Some("../x".into()), ..req(&repo) }, ErrorCode::InvalidInput, "..");
}

#[test]
fn same_name_from_two_sources_both_stay() {
    let e = env();
    for place in ["a", "b"] {
        write(&e.root.join(place).join("tool/SKILL.md"), skill_md("tool"));
        run(&e, req(&e.root.join(place).join("tool"))).unwrap();
    }
    let list = library::list_skills(&e.ws).unwrap();
    assert_eq!(list.len(), 2);
    assert_ne!(list[0].source.location, list[1].source.location);
    assert_eq!(AppError::from(library::resolve(&e.ws, "tool").unwrap_err()).code, ErrorCode::Conflict);
}

#[test]
fn zip_and_skill_archives() {
    let e = env();
    let flat = e.root.join("flat-skill.skill");
    make_zip(&flat, &[("SKILL.md", skill_md("flat-skill").as_bytes()), ("ref/a.md", b"x")]);
    let o = run(&e, req(&flat)).unwrap();
    assert_eq!(statuses(&o), [("flat-skill".into(), ImportStatus::NewSkill)]);
    let s = &library::list_skills(&e.ws).unwrap()[0];
    assert_eq!(s.source.kind, SourceKind::Archive);
    assert_eq!(s.finding_count, 0, "root skill takes the archive's stem as its directory name");

    let nested = e.root.join("bundle.zip");
    make_zip(&nested, &[("one/SKILL.md", skill_md("one").as_bytes()), ("two/SKILL.md", skill_md("two").as_bytes())]);
    assert_eq!(run(&e, req(&nested)).unwrap().skills.len(), 2);
}

/// An archive's entries: path and content.
type Entries<'a> = Vec<(&'a str, &'a [u8])>;

#[test]
fn hostile_archives_are_refused_and_change_nothing() {
    let e = env();
    let good = skill_md("evil");
    let cases: Vec<(&str, Entries<'_>, ErrorCode, &str)> = vec![
        (
            "traversal",
            vec![("evil/SKILL.md", good.as_bytes()), ("evil/../../escaped.txt", b"x")],
            ErrorCode::UnsafeArchive,
            "..",
        ),
        (
            "absolute",
            vec![("evil/SKILL.md", good.as_bytes()), ("/tmp/abs.txt", b"x")],
            ErrorCode::UnsafeArchive,
            "absolute",
        ),
        ("no-skill", vec![("readme.md", b"hi"), ("x/skill.md", b"lower")], ErrorCode::InvalidSkill, "exactly SKILL.md"),
        (
            "bad-yaml",
            vec![("evil/SKILL.md", b"---\nname: evil\ndescription: [oops\n---\n")],
            ErrorCode::InvalidSkill,
            "line",
        ),
        ("not-utf8", vec![("evil/SKILL.md", b"---\nname: \xff\xfe\n---\n")], ErrorCode::InvalidSkill, "UTF-8"),
    ];
    for (name, entries, code, needle) in cases {
        let p = e.root.join(format!("{name}.zip"));
        make_zip(&p, &entries);
        assert_refused(&e, req(&p), code, needle);
    }
    assert!(!e.root.join("escaped.txt").exists() && !Path::new("/tmp/abs.txt").exists());

    // A symlink entry pointing out of the package.
    let p = e.root.join("link.zip");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&p).unwrap());
    z.start_file("evil/SKILL.md", SimpleFileOptions::default()).unwrap();
    z.write_all(good.as_bytes()).unwrap();
    z.add_symlink("evil/key", "../../../root/.ssh/id_rsa", SimpleFileOptions::default()).unwrap();
    z.finish().unwrap();
    assert_refused(&e, req(&p), ErrorCode::UnsafeArchive, "outside the skill");

    // Zip bomb: 8 MiB of zeros compresses about 1000:1.
    let zeros = vec![0u8; 8 << 20];
    let p = e.root.join("bomb.zip");
    make_zip(&p, &[("evil/SKILL.md", good.as_bytes()), ("evil/zeros.bin", &zeros)]);
    assert_refused(&e, req(&p), ErrorCode::TooLarge, "zip bomb");

    assert_refused(&e, req(&e.root.join("missing.zip")), ErrorCode::NotFound, "cannot open");
    write(&e.root.join("junk.zip"), b"not a zip at all");
    assert_refused(&e, req(&e.root.join("junk.zip")), ErrorCode::InvalidInput, "not a readable zip");
    assert_eq!(snapshot(&e), [0, 0, 0, 0]);
}

#[test]
fn configurable_size_limits() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("home/config.toml"), "[import]\nmax_file_bytes = 1000\nmax_total_bytes = 1500\n");
    let e = Env { root: tmp.path().to_path_buf(), ws: Workspace::open(tmp.path().join("home")).unwrap(), _tmp: tmp };
    let dir = e.root.join("big");
    write(&dir.join("SKILL.md"), skill_md("big"));
    write(&dir.join("data.txt"), "x".repeat(1001));
    assert_refused(&e, req(&dir), ErrorCode::TooLarge, "per file");
    write(&dir.join("data.txt"), "x".repeat(900));
    write(&dir.join("more.txt"), "x".repeat(900));
    assert_refused(&e, req(&dir), ErrorCode::TooLarge, "in total");
}

#[cfg(unix)]
#[test]
fn folder_symlinks_inside_are_kept_outside_are_refused() {
    let e = env();
    let dir = e.root.join("linky");
    write(&dir.join("SKILL.md"), skill_md("linky"));
    write(&dir.join("real.md"), "real");
    std::os::unix::fs::symlink("real.md", dir.join("alias.md")).unwrap();
    let o = run(&e, req(&dir)).unwrap();
    let v = library::read_file(&e.ws, o.skills[0].version_id, "alias.md").unwrap();
    assert_eq!(v.text.as_deref(), Some("real"));

    write(&e.root.join("secret.txt"), "s3cret");
    std::os::unix::fs::symlink(e.root.join("secret.txt"), dir.join("leak.md")).unwrap();
    assert_refused(&e, req(&dir), ErrorCode::UnsafeArchive, "outside the skill");
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn git_repository_with_ref_and_subpath() {
    let e = env();
    let repo = e.root.join("repo");
    write(&repo.join("skills/gitty/SKILL.md"), skill_md("gitty"));
    write(&repo.join("skills/other/SKILL.md"), skill_md("other"));
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-qm", "one"]);
    git(&repo, &["tag", "v1"]);
    let first_commit = git(&repo, &["rev-parse", "HEAD"]);
    write(&repo.join("skills/gitty/extra.md"), "more");
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-qm", "two"]);

    let url = format!("file://{}", repo.display());
    let r = |git_ref: Option<&str>| ImportRequest {
        source: url.clone(),
        git_ref: git_ref.map(String::from),
        subpath: Some("skills/gitty".into()),
    };
    let o = run(&e, r(Some("v1"))).unwrap();
    assert_eq!(statuses(&o), [("gitty".into(), ImportStatus::NewSkill)]);
    let s = library::resolve(&e.ws, "gitty").unwrap();
    assert_eq!(s.source.kind, SourceKind::Git);
    assert_eq!(s.source.git_commit.as_deref(), Some(first_commit.as_str()));
    assert_eq!(s.source.git_ref.as_deref(), Some("v1"));
    assert_eq!(s.source.subpath.as_deref(), Some("skills/gitty"));

    let o = run(&e, r(None)).unwrap();
    assert_eq!(o.skills[0].status, ImportStatus::NewVersion, "default branch has a newer commit");
    assert_eq!(library::resolve(&e.ws, "gitty").unwrap().source.git_ref.as_deref(), Some("main"));

    // A local path with --ref goes through git as well, and a missing ref is a specific error.
    let local = ImportRequest { source: repo.display().to_string(), git_ref: Some("main".into()), subpath: None };
    assert_eq!(run(&e, local).unwrap().skills.len(), 2);
    assert_refused(&e, r(Some("no-such-branch")), ErrorCode::Git, "no-such-branch");
    assert!(std::fs::read_dir(e.ws.home().join("staging")).unwrap().next().is_none(), "clones are cleaned up");
}
