//! What one search asks: the question, its vector and other wordings, the rankings, the depth,
//! the documents in scope and whether older versions count.

use super::{Mode, DEPTH};

/// Another wording of a question searched with it: a translation into a language of the
/// library, from the endpoint the user configured (answering's `translate`). Its rankings join the
/// question's own in the fusion, so a passage in that language can be found by its words and
/// by the model's same-language closeness, which a question in the other language lacks.
#[derive(Debug, Clone, Copy)]
pub struct Wording<'a> {
    /// The text.
    pub text: &'a str,
    /// Its embedding (as a query); `None` adds its BM25 ranking only.
    pub vector: Option<&'a [f32]>,
}

/// One search: what to look for and how.
#[derive(Debug, Clone, Copy)]
pub struct Search<'a> {
    /// The question as typed (for BM25 and highlighting).
    pub question: &'a str,
    /// Its embedding; `None` searches lexically only.
    pub vector: Option<&'a [f32]>,
    /// Other wordings of the question, each ranked the same way and fused with it.
    pub also: &'a [Wording<'a>],
    /// Which rankings to use.
    pub mode: Mode,
    /// How many hits each ranking contributes.
    pub depth: usize,
    /// Document numbers to search (None: all).
    pub scope: Option<&'a [u32]>,
    /// Whether superseded versions are searched too ([`crate::search::corpus::Standing`]);
    /// by default only each group's current version is.
    pub all_versions: bool,
}

impl<'a> Search<'a> {
    /// Hybrid when there is a vector, lexical without; [`DEPTH`] deep; the whole corpus.
    pub fn new(question: &'a str, vector: Option<&'a [f32]>) -> Self {
        Self {
            question,
            vector,
            also: &[],
            mode: if vector.is_some() {
                Mode::Hybrid
            } else {
                Mode::Lexical
            },
            depth: DEPTH,
            scope: None,
            all_versions: false,
        }
    }

    /// With these rankings.
    pub fn mode(self, mode: Mode) -> Self {
        Self { mode, ..self }
    }

    /// With this many hits per ranking.
    pub fn depth(self, depth: usize) -> Self {
        Self { depth, ..self }
    }

    /// Within these document numbers (None: all).
    pub fn scope(self, scope: Option<&'a [u32]>) -> Self {
        Self { scope, ..self }
    }

    /// Searching superseded versions too (for "what changed?").
    pub fn all_versions(self, all_versions: bool) -> Self {
        Self {
            all_versions,
            ..self
        }
    }

    /// With these other wordings of the question.
    pub fn also(self, also: &'a [Wording<'a>]) -> Self {
        Self { also, ..self }
    }
}
