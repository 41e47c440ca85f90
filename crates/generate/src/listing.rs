//! What a model is shown of a tree of files (a repository, a skill's files besides SKILL.md): the
//! list of paths with sizes, then the text of the smaller text files, README first, as long as
//! they fit in a budget of characters. Files that do not fit are listed only.

use skillscope_tasks::TaskFile;

/// Paths listed at most.
const LISTED: usize = 500;

pub(crate) fn show(files: &[TaskFile], budget: usize) -> String {
    let mut out = String::from("Files:\n");
    for f in files.iter().take(LISTED) {
        out.push_str(&format!("- {} ({} bytes)\n", f.path, f.contents.len()));
    }
    if files.len() > LISTED {
        out.push_str(&format!("- … and {} more\n", files.len() - LISTED));
    }
    let mut order: Vec<&TaskFile> = files.iter().filter(|f| std::str::from_utf8(&f.contents).is_ok()).collect();
    order.sort_by_key(|f| (!f.path.to_lowercase().starts_with("readme"), f.contents.len()));
    for f in order {
        let block = format!("\n### {}\n\n```\n{}\n```\n", f.path, String::from_utf8_lossy(&f.contents).trim_end());
        if out.len() + block.len() <= budget {
            out.push_str(&block);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readme_and_small_text_files_come_first_and_the_rest_is_listed() {
        let files = [
            TaskFile::new("big.py", "x = 1\n".repeat(100)),
            TaskFile::new("logo.png", vec![0xff, 0xd8, 0xff]),
            TaskFile::new("README.md", "# r\n"),
            TaskFile::new("a.py", "a = 1\n"),
        ];
        let shown = show(&files, 200);
        assert!(shown.starts_with("Files:\n- big.py (600 bytes)\n- logo.png (3 bytes)\n"), "{shown}");
        let (readme, small) = (shown.find("### README.md").unwrap(), shown.find("### a.py").unwrap());
        assert!(readme < small && !shown.contains("### big.py") && !shown.contains("### logo.png"), "{shown}");
    }
}
