//! One PDF's bytes to a document and its chunks: the part of ingestion shared by `fonte index`
//! and the browser app (which then embed the chunks their own way).

use super::published::choose;
use crate::pdf::{extract, Extracted, Limits, PageText, PartialReason, RejectReason, Report};
use crate::search::chunk::{chunk_document, Chunk, ChunkParams};
use crate::search::corpus::{About, DocumentMeta};

/// Chunks one document may have; the pages of the rest are reported as not indexed
/// ([`PartialReason::TextLimit`]). Above the text cap's worth of chunks at the default size, so
/// it only bites with a chunker set far smaller; embedding 40,000 chunks already takes hours
/// in a browser.
pub const MAX_CHUNKS: usize = 40_000;

/// A PDF read and chunked.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Prepared {
    /// Id (SHA-256), name, pages and the report; a rejected file has no chunks.
    pub meta: DocumentMeta,
    /// Chunks in page order.
    pub chunks: Vec<Chunk>,
    /// The pages read (their text and lines), stored with the document so a passage can be
    /// marked on its page.
    pub pages: Vec<PageText>,
}

impl Prepared {
    /// Whether nothing of the file can be indexed.
    pub fn is_rejected(&self) -> bool {
        matches!(self.meta.report, Report::Rejected { .. })
    }
}

/// Extracts the text of `bytes` and chunks it; `count` counts model tokens.
pub fn prepare(
    name: &str,
    bytes: &[u8],
    password: Option<&[u8]>,
    params: ChunkParams,
    count: &dyn Fn(&str) -> usize,
) -> Prepared {
    let doc = extract(bytes, password, Limits::default());
    let chunks = if matches!(doc.report, Report::Rejected { .. }) {
        Vec::new()
    } else {
        chunk_document(&doc.pages, params, count)
    };
    assemble(name, doc, chunks)
}

/// A document from its extraction and the chunks made of it (by [`prepare`], or page by page
/// by a caller that yields in between): a file whose pages gave no chunk at all is rejected as
/// having no text layer.
pub fn assemble(name: &str, doc: Extracted, mut chunks: Vec<Chunk>) -> Prepared {
    let mut report = doc.report;
    if chunks.len() > MAX_CHUNKS {
        let mut pages: Vec<u32> = chunks[MAX_CHUNKS..].iter().map(|c| c.page).collect();
        pages.dedup();
        chunks.truncate(MAX_CHUNKS);
        if !matches!(report, Report::Partial { .. }) {
            report = Report::Partial {
                pages,
                reason: PartialReason::TextLimit,
            };
        }
    }
    if chunks.is_empty() && !matches!(report, Report::Rejected { .. }) {
        // Pages with only furniture or whitespace: nothing a question could find. Where glyphs
        // were lost, that is why, not a missing text layer.
        report = Report::Rejected {
            reason: match report {
                Report::Partial {
                    reason: PartialReason::Undecodable { why, shown, .. },
                    ..
                } => RejectReason::Undecodable { why, shown },
                _ => RejectReason::NoTextLayer,
            },
        };
    }
    let rejected = matches!(report, Report::Rejected { .. });
    let mut found = doc.dates;
    found.truncate(crate::share::bundle::limits::DATES);
    Prepared {
        meta: DocumentMeta {
            build: None,
            about: About {
                published: choose(&found),
                found,
                ..About::default()
            },
            id: doc.id.into(),
            name: name.to_string(),
            title: doc.title,
            pages: doc.page_count,
            report,
        },
        chunks,
        pages: if rejected { Vec::new() } else { doc.pages },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_file_is_rejected_with_a_reason_and_no_chunks() {
        let p = prepare(
            "x.pdf",
            b"%PDF-1.7 truncated",
            None,
            ChunkParams::default(),
            &|s| s.split_whitespace().count(),
        );
        assert!(p.is_rejected(), "{:?}", p.meta.report);
        assert!(p.chunks.is_empty());
        assert_eq!(p.meta.name, "x.pdf");
        assert_eq!(p.meta.id.len(), 64);
    }

    #[test]
    fn the_chunks_of_a_document_are_capped_and_the_rest_reported() {
        let doc = extract(b"not a pdf", None, Limits::default());
        let doc = Extracted {
            report: Report::Complete,
            page_count: 2,
            ..doc
        };
        let chunk = |page| Chunk {
            page,
            char_start: 0,
            char_end: 1,
            text: "x".into(),
            heading_path: Vec::new(),
        };
        let chunks: Vec<Chunk> = (0..MAX_CHUNKS + 10)
            .map(|i| chunk(if i < MAX_CHUNKS { 1 } else { 2 }))
            .collect();
        let p = assemble("x.pdf", doc, chunks);
        assert_eq!(p.chunks.len(), MAX_CHUNKS);
        assert_eq!(
            p.meta.report,
            Report::Partial {
                pages: vec![2],
                reason: PartialReason::TextLimit
            }
        );
    }
}
