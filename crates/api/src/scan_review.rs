//! The scan's model review (semantic pass) for library versions and for staged folders: the
//! static scan first, then one review per skill by the provider and model the user picked.

use crate::errors::Result;
use crate::runtime;
use skillscope_library::package::StagedSkill;
use skillscope_library::scans;
use skillscope_runs::security_review;
use skillscope_scan::ScanReport;
use skillscope_store::Workspace;

/// Scans a library version afresh, reviews it with `model` of `provider` and stores the result
/// (a review that failed is stored too, as "not reviewed").
pub fn review_version(ws: &Workspace, version_id: i64, provider: &str, model: &str) -> Result<ScanReport> {
    let mut report = scans::scan_version(ws, version_id)?;
    let (dir_name, files) = scans::version_files(ws, version_id)?;
    let rt = runtime::current_thread("the model review")?;
    rt.block_on(security_review::review(
        ws,
        provider,
        model,
        &dir_name,
        &files,
        &mut report.security,
        scans::risky_below(ws),
    ))?;
    scans::store(ws, version_id, &report)?;
    Ok(report)
}

/// Reviews each of `staged` (not stored) and adds the outcome to its report in `reports`.
pub fn review_staged(
    ws: &Workspace,
    staged: &[StagedSkill],
    reports: &mut [ScanReport],
    provider: &str,
    model: &str,
) -> Result<()> {
    let rt = runtime::current_thread("the model review")?;
    let risky_below = scans::risky_below(ws);
    for (s, report) in staged.iter().zip(reports.iter_mut()) {
        let files = scans::staged_files(s);
        rt.block_on(security_review::review(
            ws,
            provider,
            model,
            &s.dir_name,
            &files,
            &mut report.security,
            risky_below,
        ))?;
    }
    Ok(())
}
