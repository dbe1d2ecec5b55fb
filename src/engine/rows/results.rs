//! Search hits as the page's result rows.

use fonte_core::search::corpus::Corpus;
use fonte_core::search::lexical::highlight;
use fonte_core::search::retrieve::Hit;

use super::Rows;
use crate::state::ResultRow;

impl Rows {
    /// The result rows of `hits` for `query` in `corpus` (its words marked in each passage).
    pub fn results(&self, corpus: &Corpus, hits: Vec<Hit>, query: &str) -> Vec<ResultRow> {
        let notes = corpus.version_notes();
        hits.into_iter()
            .map(|h| {
                let c = &corpus.chunks()[h.chunk as usize];
                let doc = &corpus.documents()[c.doc as usize];
                ResultRow {
                    chunk: h.chunk,
                    doc_id: doc.id.clone(),
                    doc_name: doc.name.clone(),
                    page: c.chunk.page,
                    score: h.score,
                    heading: c.chunk.heading_path.join(" › "),
                    char_start: c.chunk.char_start,
                    char_end: c.chunk.char_end,
                    runs: highlight(&c.chunk.text, query),
                    lexical_only: !corpus.has_vector(h.chunk),
                    version: notes[c.doc as usize].clone(),
                }
            })
            .collect()
    }
}
