//! Lines of a page that are not its body, found across pages: running headers and footers
//! (lines at the top or bottom that repeat, numbers aside, on most pages), and with them the
//! contents and index entries of [`super::noise`]. Marked, not removed: the page view and
//! citations keep them, the chunker skips them.

use super::{noise, PageText};

/// Lines looked at for running headers and footers, from each end of a page.
const EDGE_LINES: usize = 3;

/// A line's shape for comparing across pages: folded, digits and roman page numbers blanked.
fn line_key(line: &str) -> String {
    let w = crate::text::words(line);
    let roman = |s: &str| !s.is_empty() && s.chars().all(|c| "ivxlc".contains(c));
    w.iter()
        .map(|x| {
            if x.chars().all(|c| c.is_ascii_digit()) || roman(x) {
                "#"
            } else {
                x.as_str()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Finds lines among the first and last [`EDGE_LINES`] of each page whose shape repeats on at
/// least half the pages (and three of them), and records their char ranges.
pub(super) fn mark_furniture(pages: &mut [PageText]) {
    let with_text = pages.iter().filter(|p| !p.text.trim().is_empty()).count();
    if with_text < 3 {
        return;
    }
    let edges = |text: &str| -> Vec<(usize, usize, String)> {
        let mut lines = Vec::new();
        let mut offset = 0;
        for line in text.split('\n') {
            let start = text[..offset].chars().count();
            lines.push((start, start + line.chars().count(), line.to_string()));
            offset += line.len() + 1;
        }
        let lines: Vec<_> = lines
            .into_iter()
            .filter(|l| !l.2.trim().is_empty())
            .collect();
        let n = lines.len();
        lines
            .into_iter()
            .enumerate()
            .filter(|(i, _)| *i < EDGE_LINES || *i + EDGE_LINES >= n)
            .map(|(_, l)| l)
            .collect()
    };
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for p in pages.iter() {
        let keys: std::collections::HashSet<String> =
            edges(&p.text).into_iter().map(|l| line_key(&l.2)).collect();
        for k in keys {
            *counts.entry(k).or_default() += 1;
        }
    }
    let threshold = (with_text / 2).max(3);
    for p in pages.iter_mut() {
        p.furniture = edges(&p.text)
            .into_iter()
            .filter(|l| counts.get(&line_key(&l.2)).is_some_and(|&c| c >= threshold))
            .map(|l| (l.0, l.1))
            .collect();
    }
}

/// Marks every page's table-of-contents and index entries (with leaders, or on an index page)
/// as furniture ([`noise`]), in text order with the running headers and footers.
pub(super) fn mark_leaders(pages: &mut [PageText]) {
    for p in pages.iter_mut() {
        let mut all = std::mem::take(&mut p.furniture);
        all.extend(noise::leader_lines(&p.text));
        all.extend(noise::index_lines(&p.text));
        all.sort_unstable();
        all.dedup();
        p.furniture = all;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(number: u32, text: &str) -> PageText {
        PageText {
            number,
            text: text.into(),
            furniture: Vec::new(),
            lines: Vec::new(),
        }
    }

    #[test]
    fn running_headers_and_page_numbers_are_marked_not_removed() {
        let mut pages: Vec<PageText> = (1..=4)
            .map(|n| {
                let w = ["alpha", "beta", "gamma", "delta"][n as usize - 1];
                page(
                    n,
                    &format!("Chapter 1. Definições\nBody text {w} differs.\nMore {w}.\n{n}"),
                )
            })
            .collect();
        mark_furniture(&mut pages);
        let p = &pages[1];
        let marked: Vec<&str> = p
            .furniture
            .iter()
            .map(|&(a, b)| crate::chunk::slice_chars(&p.text, a, b))
            .collect();
        assert_eq!(marked, ["Chapter 1. Definições", "2"]);
        assert!(
            p.text.starts_with("Chapter 1. Definições"),
            "left in the text"
        );
    }
}
