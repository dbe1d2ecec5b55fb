//! Pages -> chunks with provenance. Within a page, breaks are preferred at headings and numbered
//! sections (`1.2.3`, `Art. 5`, `Cláusula 3`, `Section 2.1`), then paragraphs, then sentences;
//! chunks aim at a size in model tokens with an overlap. Every chunk records the page and the
//! character range of its text in that page's text, so a citation can highlight the passage.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::pdf::PageText;

/// Chunk size and overlap in model tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkParams {
    /// Target size; a chunk exceeds it only when one word does.
    pub target_tokens: usize,
    /// Tokens of the previous chunk's tail repeated at the start of the next.
    pub overlap_tokens: usize,
}

impl Default for ChunkParams {
    /// Chosen by measurement (docs/QUALITY.md, `scripts/chunk_sweep.sh`): on the Debian FAQ
    /// questions with their headings stripped, 100-token chunks without overlap gave the best
    /// recall under a 4,000-character budget for hybrid search in all three language pairs.
    fn default() -> Self {
        Self {
            target_tokens: 100,
            overlap_tokens: 0,
        }
    }
}

/// A passage of one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chunk {
    /// 1-based physical page.
    pub page: u32,
    /// Start, in characters (Unicode scalar values) of the page text.
    pub char_start: usize,
    /// End (exclusive), in characters of the page text.
    pub char_end: usize,
    /// Headings above the chunk, outermost first (carried across pages).
    pub heading_path: Vec<String>,
    /// The text: the page text's `char_start..char_end`, less any margin line numbers in it
    /// ([`crate::pdf::margin`]).
    pub text: String,
}

/// A piece of page text that is kept whole when possible.
#[derive(Debug, Clone)]
struct Unit {
    bytes: Range<usize>,
    heading: Option<usize>,
    tokens: usize,
}

/// Heading level of `line`, if it looks like a heading or a numbered section.
pub fn heading_level(line: &str) -> Option<usize> {
    let line = line.trim();
    if line.is_empty() || line.chars().count() > 120 {
        return None;
    }
    let lower = crate::text::fold(line);
    const NAMED: [(&str, usize); 12] = [
        ("capitulo ", 1),
        ("chapter ", 1),
        ("titulo ", 1),
        ("part ", 1),
        ("section ", 2),
        ("secao ", 2),
        ("seccao ", 2),
        ("art. ", 2),
        ("artigo ", 2),
        ("article ", 2),
        ("clausula ", 2),
        ("clause ", 2),
    ];
    for (word, level) in NAMED {
        if let Some(rest) = lower.strip_prefix(word) {
            if rest.trim_start().starts_with(|c: char| {
                c.is_ascii_digit() || c.is_uppercase() || "ivxlc".contains(c)
            }) {
                return Some(level);
            }
        }
    }
    // "1.2.3 Title" or "4. Title": a number path then a word starting with a letter.
    let num_end = line
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(line.len());
    let number = line[..num_end].trim_end_matches('.');
    let rest = line[num_end..].trim_start();
    // A title starts with a capital (or a letter without case); a line that goes on in lower
    // case after a number is prose wrapped after one ("20 points along the second (y)
    // dimension…", "3.5 million users"), and taken for a heading it would cut its paragraph.
    let starts_title = rest.starts_with(|c: char| c.is_alphabetic() && !c.is_lowercase());
    if number.is_empty() || !starts_title || line[num_end..].len() == rest.len() {
        return None;
    }
    let parts: Vec<&str> = number.split('.').collect();
    if parts.len() > 5 || parts.iter().any(|p| p.is_empty() || p.len() > 3) {
        return None;
    }
    // "1. Install it." is a list item, not a section: section titles rarely end with a period.
    if parts.len() == 1 && rest.ends_with('.') {
        return None;
    }
    Some(parts.len())
}

/// Splits chunks across the pages of one document, keeping the heading path across pages.
pub struct Chunker<'a> {
    params: ChunkParams,
    count: &'a dyn Fn(&str) -> usize,
    headings: Vec<(usize, String)>,
}

impl<'a> Chunker<'a> {
    /// `count` gives the model tokens of a text (without special tokens).
    pub fn new(params: ChunkParams, count: &'a dyn Fn(&str) -> usize) -> Self {
        Self {
            params,
            count,
            headings: Vec::new(),
        }
    }

    fn units(&self, text: &str, skip: &[Range<usize>]) -> Vec<Unit> {
        let mut units = Vec::new();
        let mut para: Option<Range<usize>> = None;
        let mut offset = 0;
        let flush = |para: &mut Option<Range<usize>>, units: &mut Vec<Unit>| {
            if let Some(r) = para.take() {
                units.push(Unit {
                    bytes: r,
                    heading: None,
                    tokens: 0,
                });
            }
        };
        for line in text.split_inclusive('\n') {
            let start = offset;
            offset += line.len();
            let content = line.trim_end();
            let lead = content.len() - content.trim_start().len();
            let skipped = skip
                .iter()
                .any(|s| s.start <= start + lead && start + content.len() <= s.end);
            if content.trim().is_empty() || skipped {
                flush(&mut para, &mut units);
                continue;
            }
            let r = start + lead..start + content.len();
            if let Some(level) = heading_level(content) {
                flush(&mut para, &mut units);
                units.push(Unit {
                    bytes: r,
                    heading: Some(level),
                    tokens: 0,
                });
            } else {
                para = Some(match para {
                    Some(p) => p.start..r.end,
                    None => r,
                });
            }
        }
        flush(&mut para, &mut units);
        let mut out = Vec::new();
        for mut u in units {
            u.tokens = (self.count)(&text[u.bytes.clone()]);
            if u.tokens <= self.params.target_tokens || u.heading.is_some() {
                out.push(u);
            } else {
                out.extend(self.split_long(text, u.bytes));
            }
        }
        out
    }

    /// Splits an over-long paragraph into sentences, and over-long sentences into word runs.
    fn split_long(&self, text: &str, range: Range<usize>) -> Vec<Unit> {
        let mut pieces = Vec::new();
        let para = &text[range.clone()];
        let mut start = 0;
        let bytes: Vec<(usize, char)> = para.char_indices().collect();
        for (i, &(b, c)) in bytes.iter().enumerate() {
            let next = bytes.get(i + 1).map(|x| x.1);
            if matches!(c, '.' | '!' | '?' | ';') && next.is_some_and(char::is_whitespace) {
                pieces.push(start..b + c.len_utf8());
                start = bytes.get(i + 2).map_or(para.len(), |x| x.0);
            }
        }
        if start < para.len() {
            pieces.push(start..para.len());
        }
        let mut out = Vec::new();
        for p in pieces {
            let p = trim_range(para, p);
            if p.is_empty() {
                continue;
            }
            let tokens = (self.count)(&para[p.clone()]);
            if tokens <= self.params.target_tokens {
                out.push(Unit {
                    bytes: range.start + p.start..range.start + p.end,
                    heading: None,
                    tokens,
                });
                continue;
            }
            // A "sentence" longer than a chunk (tables, lists without periods): cut at words.
            let mut run_start = p.start;
            let mut run_end = p.start;
            let mut run_tokens = 0;
            for (ws, word) in word_spans(&para[p.clone()]) {
                let (ws, we) = (p.start + ws, p.start + ws + word.len());
                let t = (self.count)(word);
                if run_tokens + t > self.params.target_tokens && run_end > run_start {
                    out.push(Unit {
                        bytes: range.start + run_start..range.start + run_end,
                        heading: None,
                        tokens: run_tokens,
                    });
                    run_start = ws;
                    run_tokens = 0;
                }
                run_end = we;
                run_tokens += t;
            }
            if run_end > run_start {
                out.push(Unit {
                    bytes: range.start + run_start..range.start + run_end,
                    heading: None,
                    tokens: run_tokens,
                });
            }
        }
        out
    }

    /// Chunks one page's text (`page` is 1-based), leaving out the lines within `skip` (char
    /// ranges of running headers and footers). A chunk's text is its range of the page less
    /// any margin line numbers ([`crate::pdf::margin`]).
    pub fn chunk_page(&mut self, page: u32, text: &str, skip: &[(usize, usize)]) -> Vec<Chunk> {
        let byte_of = |c: usize| text.char_indices().nth(c).map_or(text.len(), |(b, _)| b);
        let skip: Vec<Range<usize>> = skip.iter().map(|&(a, b)| byte_of(a)..byte_of(b)).collect();
        let units = self.units(text, &skip);
        // Margin line numbers stay inside a chunk's range but out of its text.
        let numbers = crate::pdf::margin::line_numbers(text);
        let char_of = char_index(text);
        let mut chunks = Vec::new();
        let mut current: Vec<Unit> = Vec::new();
        let mut path_at_start: Vec<String> = self.path();
        let target = self.params.target_tokens;

        let emit = |current: &[Unit], path: &[String], chunks: &mut Vec<Chunk>| {
            if let (Some(first), Some(last)) = (current.first(), current.last()) {
                let bytes = first.bytes.start..last.bytes.end;
                chunks.push(Chunk {
                    page,
                    char_start: char_of(bytes.start),
                    char_end: char_of(bytes.end),
                    heading_path: path.to_vec(),
                    text: crate::pdf::margin::without(text, bytes, &numbers),
                });
            }
        };

        for unit in units {
            let only_headings = current.iter().all(|u| u.heading.is_some());
            let used: usize = current.iter().map(|u| u.tokens).sum();
            let starts_section = unit.heading.is_some() && !only_headings;
            let overflows = used + unit.tokens > target && !current.is_empty();
            // Skipped lines between the chunk so far and this unit (a table of contents in
            // the middle of a page): a chunk's text is one slice of the page, so it ends
            // before them rather than carry them.
            let across_skip = current.last().is_some_and(|last| {
                skip.iter()
                    .any(|s| s.start >= last.bytes.end && s.end <= unit.bytes.start)
            });
            if across_skip {
                emit(&current, &path_at_start, &mut chunks);
                current = Vec::new();
                path_at_start = self.path();
            } else if starts_section || overflows {
                emit(&current, &path_at_start, &mut chunks);
                // Overlap: repeat the tail of the chunk just emitted, unless a new section begins.
                let mut carried = Vec::new();
                if !starts_section && self.params.overlap_tokens > 0 {
                    let mut t = 0;
                    for u in current.iter().rev() {
                        if u.heading.is_some() || t + u.tokens > self.params.overlap_tokens {
                            break;
                        }
                        t += u.tokens;
                        carried.insert(0, u.clone());
                    }
                    if t + unit.tokens > target {
                        carried.clear();
                    }
                }
                current = carried;
                path_at_start = self.path();
            }
            if let Some(level) = unit.heading {
                self.headings.retain(|(l, _)| *l < level);
                self.headings
                    .push((level, text[unit.bytes.clone()].trim().to_string()));
                if current.is_empty() {
                    path_at_start = self.path();
                }
            }
            current.push(unit);
        }
        emit(&current, &path_at_start, &mut chunks);
        chunks
    }

    fn path(&self) -> Vec<String> {
        self.headings.iter().map(|(_, h)| h.clone()).collect()
    }
}

/// Chunks a whole document, page by page, without its furniture (running headers and footers,
/// contents and index entries).
pub fn chunk_document(
    pages: &[PageText],
    params: ChunkParams,
    count: &dyn Fn(&str) -> usize,
) -> Vec<Chunk> {
    let mut chunker = Chunker::new(params, count);
    pages
        .iter()
        .flat_map(|p| chunker.chunk_page(p.number, &p.text, &p.furniture))
        .collect()
}

fn trim_range(s: &str, r: Range<usize>) -> Range<usize> {
    let piece = &s[r.clone()];
    let start = r.start + (piece.len() - piece.trim_start().len());
    let end = r.start + piece.trim_end().len();
    start..end.max(start)
}

fn word_spans(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - s.as_ptr() as usize, w))
}

/// Maps a byte offset of `text` (on a char boundary) to its char offset.
fn char_index(text: &str) -> impl Fn(usize) -> usize + '_ {
    let boundaries: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
    move |byte| boundaries.partition_point(|&b| b < byte)
}

/// Slices `text` by char offsets (the inverse of a chunk's provenance); the reader marks its
/// page furniture with the same offsets.
pub use crate::text::slice_chars;

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> usize {
        s.split_whitespace().count()
    }

    fn pages(texts: &[&str]) -> Vec<PageText> {
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| PageText {
                number: i as u32 + 1,
                text: t.to_string(),
                furniture: Vec::new(),
                lines: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn recognises_numbered_sections_and_legal_headings() {
        assert_eq!(heading_level("1.2.3 Scope of the licence"), Some(3));
        assert_eq!(heading_level("4 What is Debian?"), Some(1));
        assert_eq!(heading_level("Art. 5º Todos são iguais"), Some(2));
        assert_eq!(heading_level("Cláusula 3 — Do Prazo"), Some(2));
        assert_eq!(heading_level("Section 2.1 Definitions"), Some(2));
        assert_eq!(heading_level("CAPÍTULO II"), Some(1));
        assert_eq!(heading_level("1. Install the package."), None);
        assert_eq!(heading_level("3.5 million users"), None);
        assert_eq!(
            heading_level("20 points along the second (y) dimension. A negative number"),
            None
        );
        assert_eq!(heading_level("2.1 introdução"), None);
        assert_eq!(heading_level("2024"), None);
        assert_eq!(heading_level("The cat sat."), None);
    }

    #[test]
    fn every_chunk_slices_its_page_text_exactly() {
        let page = "1 Introdução\n\nA ação começa aqui. É um parágrafo com acentos e várias frases. Outra frase longa vem depois dela.\n\
                    Continua o parágrafo.\n\n1.1 Âmbito\nO âmbito é amplo. ".repeat(6);
        let chunks = chunk_document(
            &pages(&[&page]),
            ChunkParams {
                target_tokens: 30,
                overlap_tokens: 8,
            },
            &words,
        );
        assert!(chunks.len() > 5);
        for c in &chunks {
            assert_eq!(slice_chars(&page, c.char_start, c.char_end), c.text);
            assert!(
                words(&c.text) <= 30,
                "{} words: {:?}",
                words(&c.text),
                c.text
            );
        }
    }

    #[test]
    fn sections_start_chunks_and_carry_their_heading_path_across_pages() {
        let doc = pages(&[
            "2 Licensing\nIntro text.\n2.1 Scope\nScope text here.",
            "More scope text on the next page.\n2.2 Terms\nTerms text.",
        ]);
        let chunks = chunk_document(
            &doc,
            ChunkParams {
                target_tokens: 100,
                overlap_tokens: 0,
            },
            &words,
        );
        let summary: Vec<(u32, &str, Vec<String>)> = chunks
            .iter()
            .map(|c| (c.page, c.text.as_str(), c.heading_path.clone()))
            .collect();
        assert_eq!(
            summary,
            vec![
                (
                    1,
                    "2 Licensing\nIntro text.",
                    vec!["2 Licensing".to_string()]
                ),
                (
                    1,
                    "2.1 Scope\nScope text here.",
                    vec!["2 Licensing".into(), "2.1 Scope".into()]
                ),
                (
                    2,
                    "More scope text on the next page.",
                    vec!["2 Licensing".into(), "2.1 Scope".into()]
                ),
                (
                    2,
                    "2.2 Terms\nTerms text.",
                    vec!["2 Licensing".into(), "2.2 Terms".into()]
                ),
            ]
        );
    }

    #[test]
    fn long_paragraphs_split_at_sentences_with_overlap() {
        let text = "One two three four five. Six seven eight nine ten. Eleven twelve thirteen fourteen fifteen. Sixteen seventeen.";
        let chunks = chunk_document(
            &pages(&[text]),
            ChunkParams {
                target_tokens: 10,
                overlap_tokens: 5,
            },
            &words,
        );
        let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "One two three four five. Six seven eight nine ten.",
                "Six seven eight nine ten. Eleven twelve thirteen fourteen fifteen.",
                "Eleven twelve thirteen fourteen fifteen. Sixteen seventeen."
            ]
        );
    }

    #[test]
    fn a_sentence_longer_than_a_chunk_is_cut_at_words() {
        let text = "a b c d e f g h i j k l";
        let chunks = chunk_document(
            &pages(&[text]),
            ChunkParams {
                target_tokens: 5,
                overlap_tokens: 0,
            },
            &words,
        );
        let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["a b c d e", "f g h i j", "k l"]);
    }

    #[test]
    fn running_headers_are_left_out_of_chunks() {
        let text = "Chapter 1. Overview\nThe body of the page.\n12";
        let mut p = pages(&[text]);
        p[0].furniture = vec![(0, 19), (42, 44)];
        let chunks = chunk_document(&p, ChunkParams::default(), &words);
        assert_eq!(chunks.len(), 1);
        assert_eq!(chunks[0].text, "The body of the page.");
        assert_eq!(
            slice_chars(text, chunks[0].char_start, chunks[0].char_end),
            chunks[0].text
        );
    }

    #[test]
    fn empty_page_gives_no_chunks() {
        assert!(chunk_document(&pages(&["  \n\n "]), ChunkParams::default(), &words).is_empty());
    }
}
