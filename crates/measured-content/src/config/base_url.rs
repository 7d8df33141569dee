//! `base_url`: checked as the address the site is published at, and the path under it that
//! every URL a browser reads is prefixed with.

use measured_core::diag::{Diagnostic, Diagnostics};

/// `base_url` is an absolute http(s) URL whose path can prefix the site's.
pub(super) fn check_base_url(
    base_url: &str,
    err: &dyn Fn(&str, String) -> Diagnostic,
    diags: &mut Diagnostics,
) {
    if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
        diags.push(err(
            "base_url",
            format!("base_url `{base_url}` must be an absolute http(s) URL"),
        ));
    } else if let Some(problem) = base_path_problem(base_url) {
        diags.push(
            err("base_url", format!("base_url `{base_url}` {problem}")).with_hint(
                "write the address the site is published at, e.g. `https://user.github.io/blog/`",
            ),
        );
    }
}

/// The path of a `base_url` (without its trailing slash): after the host, before any `?`.
pub(super) fn base_path_of(base_url: &str) -> String {
    let after_scheme = base_url
        .split_once("://")
        .map_or(base_url, |(_, rest)| rest);
    match after_scheme.find('/') {
        Some(i) => after_scheme[i..].trim_end_matches('/').to_string(),
        None => String::new(),
    }
}

/// Why the path of `base_url` cannot prefix the site's links, if it cannot: a query or a
/// fragment (every link would carry it), or a segment a URL path may not hold as it is.
pub(super) fn base_path_problem(base_url: &str) -> Option<String> {
    if base_url.contains(['?', '#']) {
        return Some("has a query or a fragment; a base URL is a scheme, a host and a path".into());
    }
    base_path_of(base_url)
        .split('/')
        .skip(1)
        .find_map(|segment| {
            measured_core::urls::segment_problem(segment)
                .map(|why| format!("has the path segment `{segment}`, which cannot be used: {why}"))
        })
}
