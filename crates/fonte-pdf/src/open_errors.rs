//! What the `pdf` crate's errors on opening a file say: the root cause, a security handler
//! other than the password one, a password needed.

/// Why a file that does not open is unreadable: not a PDF at all when no `%PDF-` header is in
/// its first kilobyte (where readers look for it), else damaged.
pub(super) fn unreadable(bytes: &[u8]) -> crate::report::Unreadable {
    let head = &bytes[..bytes.len().min(1024)];
    if head.windows(5).any(|w| w == b"%PDF-") {
        crate::report::Unreadable::Damaged
    } else {
        crate::report::Unreadable::NotPdf
    }
}

/// The root cause of a `pdf` crate error, without its source-location breadcrumbs.
pub(super) fn root_cause(msg: &str) -> String {
    let last = msg.rsplit("caused by").next().unwrap_or(msg).trim();
    let last = match last.strip_prefix("Try at ") {
        Some(rest) => rest.split_once(": ").map_or(rest, |x| x.1),
        None => last,
    };
    let line = last
        .lines()
        .next()
        .unwrap_or(last)
        .trim()
        .trim_end_matches(':')
        .trim();
    if line.is_empty() {
        "unreadable structure".into()
    } else {
        line.chars().take(200).collect()
    }
}

/// The name of the security handler the file needs, when it is not the password one (the
/// patched `pdf` crate says "unsupported security handler NAME").
pub(super) fn other_security_handler(msg: &str) -> Option<String> {
    let rest = msg.split("unsupported security handler ").nth(1)?;
    let name: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '"' && *c != ')')
        .take(64)
        .collect();
    Some(name)
}

pub(super) fn looks_like_password_error(msg: &str) -> bool {
    let m = msg.to_lowercase();
    m.contains("password") || m.contains("decrypt") || m.contains("encrypt")
}
