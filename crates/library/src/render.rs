//! SKILL.md bodies to HTML for the skill page. Raw HTML in the Markdown is shown as text, and only
//! relative or http(s)/mailto links survive, so a skill cannot inject markup into the app.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag};

fn safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    match lower.split_once(':') {
        Some((scheme, _)) if !scheme.contains('/') => matches!(scheme, "http" | "https" | "mailto"),
        _ => true,
    }
}

pub fn markdown_to_html(md: &str) -> String {
    let parser =
        Parser::new_ext(md, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS).map(
            |ev| match ev {
                Event::Html(s) | Event::InlineHtml(s) => Event::Text(s),
                Event::Start(Tag::Link { link_type, dest_url, title, id }) if !safe_url(&dest_url) => {
                    Event::Start(Tag::Link { link_type, dest_url: CowStr::from(""), title, id })
                }
                Event::Start(Tag::Image { link_type, dest_url, title, id }) if !safe_url(&dest_url) => {
                    Event::Start(Tag::Image { link_type, dest_url: CowStr::from(""), title, id })
                }
                other => other,
            },
        );
    let mut out = String::new();
    html::push_html(&mut out, parser);
    out
}

#[cfg(test)]
mod tests {
    use super::markdown_to_html;

    #[test]
    fn escapes_raw_html_and_drops_script_urls() {
        let h = markdown_to_html("# T\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) [y](docs/a.md)");
        assert!(h.contains("<h1>T</h1>"));
        assert!(!h.contains("<script>"));
        assert!(h.contains("&lt;script&gt;"));
        assert!(!h.contains("javascript:"));
        assert!(h.contains("href=\"docs/a.md\""));
    }
}
