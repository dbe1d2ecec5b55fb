//! Lines of a page that are not its body, found across pages: running headers and footers
//! (lines at the top or bottom that repeat, numbers aside, on most pages or on most left or
//! right pages, or that start alike with a number while their title changes by chapter), and
//! with them the contents and index entries of [`super::noise`]. Marked, not removed: the page
//! view and citations keep them, the chunker skips them.

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

/// Words a running header may have: a chapter and a section title side by side.
const HEADER_MAX_WORDS: usize = 20;

/// The first two tokens of a page's outermost line, when they are a word and a number: what a
/// running header keeps while the chapter or section title after it changes ("CHAPTER 3.
/// CHOOSING A DEBIAN … 3.1. WHICH …", "2 Capítulo 1. Introdução"). The number keeps out
/// body lines that merely start alike.
fn prefix_key(line: &str) -> Option<String> {
    let key = line_key(line);
    let tokens: Vec<&str> = key.split(' ').filter(|t| !t.is_empty()).collect();
    (tokens.len() >= 2
        && tokens.len() <= HEADER_MAX_WORDS
        && tokens[..2].iter().any(|t| *t != "#")
        && tokens[..2].contains(&"#"))
    .then(|| format!("^{} {}", tokens[0], tokens[1]))
}

/// A line near a page's top or bottom.
struct EdgeLine<'a> {
    /// Char range in the page text.
    start: usize,
    end: usize,
    text: &'a str,
    /// The page's first or last non-empty line.
    outermost: bool,
}

impl EdgeLine<'_> {
    /// Its shape, and for an outermost line how it starts ([`prefix_key`]).
    fn keys(&self) -> Vec<String> {
        let mut k = vec![line_key(self.text)];
        k.extend(self.outermost.then(|| prefix_key(self.text)).flatten());
        k
    }
}

/// A page's lines looked at: the first and last [`EDGE_LINES`] non-empty ones.
fn edge_lines(text: &str) -> Vec<EdgeLine<'_>> {
    let mut lines = Vec::new();
    let mut chars = 0;
    for line in text.split('\n') {
        let n = line.chars().count();
        if !line.trim().is_empty() {
            lines.push(EdgeLine {
                start: chars,
                end: chars + n,
                text: line,
                outermost: false,
            });
        }
        chars += n + 1;
    }
    let n = lines.len();
    lines
        .into_iter()
        .enumerate()
        .filter(|(i, _)| *i < EDGE_LINES || *i + EDGE_LINES >= n)
        .map(|(i, l)| EdgeLine {
            outermost: i == 0 || i + 1 == n,
            ..l
        })
        .collect()
}

/// Finds lines among the first and last [`EDGE_LINES`] of each page whose shape repeats on at
/// least half the pages (and three of them), or on more than half the pages of its side, and
/// outermost lines that start the same way on as many; records their char ranges.
pub(super) fn mark_furniture(pages: &mut [PageText]) {
    use std::collections::{HashMap, HashSet};
    let with_text = pages.iter().filter(|p| !p.text.trim().is_empty()).count();
    if with_text < 3 {
        return;
    }
    // Two-sided documents run different headers on left and right pages ("24 gnuplot 5.4",
    // "gnuplot 5.4 25"): each shape is on only half the pages, so pages of each parity are
    // counted on their own too.
    let mut counts: HashMap<String, [usize; 3]> = HashMap::new();
    let mut with_text_by = [0usize; 2];
    for p in pages.iter() {
        let side = (p.number % 2) as usize;
        with_text_by[side] += usize::from(!p.text.trim().is_empty());
        let page_keys: HashSet<String> = edge_lines(&p.text)
            .iter()
            .flat_map(EdgeLine::keys)
            .collect();
        for k in page_keys {
            let c = counts.entry(k).or_default();
            c[2] += 1;
            c[side] += 1;
        }
    }
    let threshold = (with_text / 2).max(3);
    // More than half of a side: a side of a short document has few pages to go by.
    let side_threshold = with_text_by.map(|n| (n / 2 + 1).max(3));
    for p in pages.iter_mut() {
        let side = (p.number % 2) as usize;
        let repeats = |k: &String| {
            counts
                .get(k)
                .is_some_and(|c| c[2] >= threshold || c[side] >= side_threshold[side])
        };
        p.furniture = edge_lines(&p.text)
            .into_iter()
            .filter(|l| l.keys().iter().any(repeats))
            .map(|l| (l.start, l.end))
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
            .map(|&(a, b)| crate::text::slice_chars(&p.text, a, b))
            .collect();
        assert_eq!(marked, ["Chapter 1. Definições", "2"]);
        assert!(
            p.text.starts_with("Chapter 1. Definições"),
            "left in the text"
        );
    }

    #[test]
    fn headers_that_alternate_between_left_and_right_pages_are_marked() {
        // Twelve pages: a title page and a chapter opening without a header, and ten pages
        // whose header puts the page number outside ("4 Manual 2.1" / "Manual 2.1 5"). Each
        // shape is on five pages, under half of the twelve.
        let mut pages: Vec<PageText> = (1..=12)
            .map(|n| {
                let head = match n {
                    1 | 2 => String::new(),
                    n if n % 2 == 0 => format!("{n} Manual 2.1\n"),
                    n => format!("Manual 2.1 {n}\n"),
                };
                let w = ["alpha", "beta", "gamma", "delta", "eta", "theta"][n as usize % 6];
                let v = ["one", "two", "three", "four"][n as usize % 4];
                page(n, &format!("{head}Body {w} says {v}.\nAnd more {v} {w}."))
            })
            .collect();
        mark_furniture(&mut pages);
        let marked = |p: &PageText| -> Vec<String> {
            p.furniture
                .iter()
                .map(|&(a, b)| crate::text::slice_chars(&p.text, a, b).to_string())
                .collect()
        };
        assert_eq!(marked(&pages[3]), ["4 Manual 2.1"]);
        assert_eq!(marked(&pages[4]), ["Manual 2.1 5"]);
        assert!(marked(&pages[0]).is_empty() && marked(&pages[1]).is_empty());
    }

    #[test]
    fn headers_whose_title_changes_by_chapter_are_marked_by_how_they_start() {
        let titles = ["ONE TOPIC", "ANOTHER TOPIC", "A THIRD"];
        let mut pages: Vec<PageText> = (1..=9)
            .map(|n| {
                let c = (n as usize - 1) / 3;
                let w = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"][n as usize];
                page(
                    n,
                    &format!(
                        "CHAPTER {}. {} {}.{n}. SECTION {w}\nWe say {w} here.\nAnd then {w} again.",
                        c + 1,
                        titles[c],
                        c + 1
                    ),
                )
            })
            .collect();
        mark_furniture(&mut pages);
        for p in &pages {
            assert_eq!(p.furniture.len(), 1, "{:?}", p.furniture);
            assert_eq!(p.furniture[0].0, 0);
        }
    }
}
