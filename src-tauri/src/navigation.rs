//! The main window never leaves the app's one page. The front end opens web and mail links with the
//! opener plugin; should a navigation still start (a link the front end did not catch, a script),
//! a web or mail URL is handed to the system's browser or mail program instead and anything else
//! (a relative link, a `file:` URL) is refused. WebKitGTK itself does not start a navigation from
//! the app's `tauri:` page to an http(s) page, so on Linux only the refusal is ever seen.

use tauri::plugin::{Builder, TauriPlugin};
use tauri::{Runtime, Url};
use tauri_plugin_opener::OpenerExt;

pub(crate) fn guard<R: Runtime>() -> TauriPlugin<R> {
    Builder::new("navigation-guard")
        .on_navigation(|webview, url| {
            if is_app_page(url) {
                return true;
            }
            if opens_outside(url) {
                tracing::info!("opening {url} in the system's default program");
                if let Err(e) = webview.opener().open_url(url.as_str(), None::<&str>) {
                    tracing::warn!("could not open {url}: {e}");
                }
            } else {
                tracing::warn!("refused to navigate the window to {url}");
            }
            false
        })
        .build()
}

/// The app's own page: `tauri://localhost/` on Linux and macOS, `http(s)://tauri.localhost/` on
/// Windows; only its root document (the front end routes with the fragment).
fn is_app_page(url: &Url) -> bool {
    let own_origin = match url.scheme() {
        "tauri" => url.host_str() == Some("localhost"),
        "http" | "https" => url.host_str() == Some("tauri.localhost"),
        _ => false,
    };
    own_origin && matches!(url.path(), "" | "/" | "/index.html")
}

fn opens_outside(url: &Url) -> bool {
    matches!(url.scheme(), "http" | "https" | "mailto") && !is_app_page(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn only_the_app_page_stays_in_the_window() {
        assert!(is_app_page(&url("tauri://localhost/#/skill/3")));
        assert!(is_app_page(&url("http://tauri.localhost/index.html")));
        assert!(!is_app_page(&url("tauri://localhost/docs/a.md")));
        assert!(!is_app_page(&url("https://example.com/")));
        assert!(!is_app_page(&url("file:///etc/passwd")));
    }

    #[test]
    fn web_and_mail_links_open_outside_and_nothing_else() {
        assert!(opens_outside(&url("https://example.com/x")));
        assert!(opens_outside(&url("mailto:a@b.c")));
        assert!(!opens_outside(&url("file:///etc/passwd")));
        assert!(!opens_outside(&url("javascript:alert(1)")));
        assert!(!opens_outside(&url("tauri://localhost/docs/a.md")));
    }
}
