//! The documents' dates and versions as the page shows them, from the library's records.

use fonte_core::library::propose_versions;
use fonte_core::search::corpus::{Corpus, Standing};

use crate::state::{DocVersion, ProposalView, Versions};

/// What the page shows of `corpus`'s dates and versions (proposals among its documents not yet
/// grouped included).
pub fn versions(corpus: &Corpus) -> Versions {
    let docs = corpus.documents();
    let standings = corpus.standings();
    let notes = corpus.version_notes();
    let proposals = propose_versions(corpus)
        .into_iter()
        .map(|p| ProposalView {
            members: p
                .ids
                .iter()
                .filter_map(|id| corpus.document_number(id))
                .map(|n| {
                    let d = &docs[n as usize];
                    (d.name.clone(), d.about.published.map(|p| p.date))
                })
                .collect(),
            ids: p.ids,
            name: p.name,
        })
        .collect();
    Versions {
        docs: docs
            .iter()
            .zip(standings.iter().zip(notes))
            .map(|(d, (standing, note))| {
                let superseded_by = match standing {
                    Standing::Superseded { by } => Some(docs[*by as usize].name.clone()),
                    _ => None,
                };
                let shown = DocVersion {
                    published: d.about.published,
                    group: d.about.group.clone(),
                    note,
                    superseded_by,
                };
                (d.id.clone(), shown)
            })
            .collect(),
        proposals,
        any_superseded: standings.iter().any(Standing::is_superseded),
    }
}
