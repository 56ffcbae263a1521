//! The browser client: the files under `web/`, served by the server itself.
//!
//! Release builds embed them in the binary (rust-embed), so one file is the
//! whole deployment; debug builds read them from disk at each request, so the
//! page can be edited and reloaded without a rebuild.
//!
//! Every page path that is not an API route gets `index.html` (the client
//! routes by `location.pathname`: `/`, `/join/CODE`, `/match/ID`, …); its
//! assets live under `/static/{version}/…`, where `version` is a hash of all
//! the files, so they can be cached forever and a new release is fetched at
//! once. `index.html` itself is never cached.

use std::sync::OnceLock;

use axum::{
    extract::Path,
    http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri},
    response::{IntoResponse, Response},
};
use rust_embed::Embed;
use sha2::{Digest, Sha256};

use crate::refusal::{Code, Refusal};

#[derive(Embed)]
#[folder = "../web/"]
struct Files;

/// The placeholder in `index.html` replaced by the assets' version.
const VERSION_MARK: &str = "{{version}}";

/// Where pages may load from and talk to: only this server (`connect-src
/// 'self'` covers `ws:`/`wss:` to the same host, CSP level 3). No inline
/// script or style, no framing (clickjacking), no plug-ins.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   font-src 'self'; manifest-src 'self'; connect-src 'self'; base-uri 'none'; \
                   form-action 'self'; frame-ancestors 'none'";

/// The hash of every file of the client: the `{version}` of asset paths.
/// Computed once when embedded; on every call in debug builds, whose files
/// change under a running server.
pub fn version() -> String {
    fn compute() -> String {
        let mut names: Vec<_> = Files::iter().collect();
        names.sort();
        let mut h = Sha256::new();
        for name in names {
            if let Some(f) = Files::get(&name) {
                h.update(name.as_bytes());
                h.update(f.metadata.sha256_hash());
            }
        }
        hex::encode(&h.finalize()[..6])
    }
    if cfg!(debug_assertions) {
        return compute();
    }
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(compute).clone()
}

/// `GET /static/{version}/{*path}`: one file of the client.
pub async fn asset(Path((wanted, path)): Path<(String, String)>, headers: HeaderMap) -> Response {
    if path.split('/').any(|part| part.is_empty() || part == "." || part == "..") {
        return not_found();
    }
    let Some(file) = Files::get(&path) else { return not_found() };
    let etag = format!("\"{}\"", hex::encode(&file.metadata.sha256_hash()[..16]));
    let cache = cache_control(!cfg!(debug_assertions), &wanted, version);
    let mut response = if headers.get(header::IF_NONE_MATCH).is_some_and(|v| v.as_bytes() == etag.as_bytes()) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = file.data.into_owned().into_response();
        if let Ok(v) = HeaderValue::from_str(file.metadata.mimetype()) {
            r.headers_mut().insert(header::CONTENT_TYPE, v);
        }
        r
    };
    let h = response.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    response
}

/// `GET /sw.js`: the service worker of Web Push, at the root so that its
/// scope covers every page (a worker under `/static/…` would only reach
/// pages below it). Never cached: browsers look for a new worker at each
/// registration, and a stale one would outlive a release.
pub async fn service_worker() -> Response {
    let Some(file) = Files::get("sw.js") else { return not_found() };
    let mut response = file.data.into_owned().into_response();
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/javascript; charset=utf-8"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// How long a browser may keep an asset: for good when the files are
/// embedded (release builds) and the page asked for today's version. An old
/// page may ask for an older version after an upgrade: it gets today's
/// file, but not cached, so the next load fetches it again; files read from
/// disk (debug builds) change under a running server and are never cached
/// (nor is their version, a hash of every file, computed for it).
fn cache_control(embedded: bool, wanted: &str, current: impl FnOnce() -> String) -> &'static str {
    if embedded && wanted == current() {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    }
}

/// Every route no handler claims. A page path (a `GET` outside `/api/` and
/// `/static/`, with no file extension) gets the client's page; anything
/// else a `404` — as JSON with the `not_found` code under `/api/`.
pub async fn fallback(method: Method, uri: Uri) -> Response {
    let path = uri.path();
    let api = path.starts_with("/api/") || path == "/api";
    let last = path.rsplit('/').next().unwrap_or("");
    if api || path.starts_with("/static/") || last.contains('.') || !(method == Method::GET || method == Method::HEAD) {
        if api {
            return Refusal::new(Code::NotFound, format!("no API route {method} {path}")).into_response();
        }
        return not_found();
    }
    page()
}

/// `index.html`, its asset paths pointing at this version.
fn page() -> Response {
    let Some(file) = Files::get("index.html") else {
        return (StatusCode::NOT_FOUND, "this server was built without its web client").into_response();
    };
    let html = String::from_utf8_lossy(&file.data).replace(VERSION_MARK, &version());
    let mut response =
        ([(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"))], html).into_response();
    let h = response.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // Join links carry a join code; do not hand it to other sites.
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_only_this_server() {
        assert!(CSP.contains("connect-src 'self'"));
        assert!(CSP.contains("script-src 'self';"));
        assert!(!CSP.contains("unsafe"));
        assert!(CSP.starts_with("default-src 'none'"));
        assert!(CSP.contains("frame-ancestors 'none'"));
    }

    /// The release build's branch, checked in every build: the tests and CI
    /// run the debug binary, whose files are read from disk.
    #[test]
    fn only_todays_embedded_assets_are_cached_for_good() {
        let today = || "abc123".to_owned();
        assert_eq!(cache_control(true, "abc123", today), "public, max-age=31536000, immutable");
        assert_eq!(cache_control(true, "000000", today), "no-cache");
        assert_eq!(cache_control(false, "abc123", today), "no-cache");
    }
}
