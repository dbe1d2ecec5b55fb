//! Versions of one text in a library: proposed from near-identical first pages, never assumed;
//! confirmed, declined or edited by the person; and each document's publication date, which
//! decides which version is current ([`crate::search::corpus::Standing`]).
//!
//! Two documents are proposed as versions when the word trigrams of their first pages mostly
//! agree (Jaccard ≥ [`SIMILAR`]): a new edition changes some numbers, dates and sentences but
//! keeps its title page, its front matter and most of its wording, while two documents that
//! share only a template or a boilerplate paragraph stay far below. Titles, where both files
//! have one, must agree as well.

use std::collections::HashMap;

use super::Library;
use crate::pdf::dates::PubDate;
use crate::search::corpus::{About, Corpus, DateFrom, DocumentMeta, Published};
use crate::search::lexical::terms;
use crate::store::Store;
use crate::text::fold;
use crate::{DocId, Error, Result};

/// Trigram Jaccard similarity of the first pages above which two documents are proposed as
/// versions of one text.
pub const SIMILAR: f32 = 0.6;
/// Pages read from the start of each document.
const FIRST_PAGES: u32 = 2;
/// Trigrams kept per document (the first ones): enough to tell, bounded in cost.
const TRIGRAMS: usize = 600;
/// A trigram in more documents than this is boilerplate (a licence, a template's headings):
/// it says nothing about which documents are versions of each other.
const COMMON: usize = 50;

/// Documents that look like versions of one text, for the person to confirm.
#[derive(Debug, Clone, PartialEq)]
pub struct Proposal {
    /// The documents, newest first where dated.
    pub ids: Vec<DocId>,
    /// A name for the group: the newest one's title, else its file name.
    pub name: String,
}

/// Hashes of the word trigrams of each document's first pages (of those `wanted`), in one
/// pass over the chunks (they come in document order).
fn trigrams(corpus: &Corpus, wanted: &[u32]) -> HashMap<u32, Vec<u64>> {
    use std::hash::{Hash, Hasher};
    let mut words: HashMap<u32, Vec<String>> = wanted.iter().map(|&d| (d, Vec::new())).collect();
    for c in corpus.chunks() {
        if c.chunk.page > FIRST_PAGES {
            continue;
        }
        if let Some(w) = words.get_mut(&c.doc).filter(|w| w.len() < TRIGRAMS + 2) {
            w.extend(terms(&c.chunk.text));
        }
    }
    words
        .into_iter()
        .map(|(doc, words)| {
            let mut out: Vec<u64> = words
                .windows(3)
                .take(TRIGRAMS)
                .map(|w| {
                    let mut h = rustc_hash::FxHasher::default();
                    w.hash(&mut h);
                    h.finish()
                })
                .collect();
            out.sort_unstable();
            out.dedup();
            (doc, out)
        })
        .collect()
}

/// Whether two documents' titles allow them to be versions: equal once folded, or one of them
/// has none.
fn titles_agree(a: &DocumentMeta, b: &DocumentMeta) -> bool {
    match (&a.title, &b.title) {
        (Some(x), Some(y)) => {
            let (x, y) = (fold(x), fold(y));
            x.trim().is_empty() || y.trim().is_empty() || x.trim() == y.trim()
        }
        _ => true,
    }
}

/// Groups of documents not yet in a group that look like versions of one text (none that the
/// person declined).
pub fn propose_versions(corpus: &Corpus) -> Vec<Proposal> {
    let docs = corpus.documents();
    let free: Vec<u32> = (0..docs.len() as u32)
        .filter(|&i| docs[i as usize].about.group.is_none() && !corpus.is_provisional(i))
        .collect();
    let grams = trigrams(corpus, &free);
    let mut postings: HashMap<u64, Vec<u32>> = HashMap::new();
    for (&doc, gs) in &grams {
        for &g in gs {
            postings.entry(g).or_default().push(doc);
        }
    }
    // Union-find over the documents found similar.
    let mut parent: HashMap<u32, u32> = free.iter().map(|&i| (i, i)).collect();
    fn root(parent: &mut HashMap<u32, u32>, mut i: u32) -> u32 {
        while parent[&i] != i {
            let up = parent[&parent[&i]];
            parent.insert(i, up);
            i = up;
        }
        i
    }
    for &a in &free {
        let mut shared: HashMap<u32, usize> = HashMap::new();
        for g in &grams[&a] {
            let docs_of = &postings[g];
            if docs_of.len() > COMMON {
                continue;
            }
            for &b in docs_of.iter().filter(|&&b| b > a) {
                *shared.entry(b).or_default() += 1;
            }
        }
        for (b, n) in shared {
            let union = grams[&a].len() + grams[&b].len() - n;
            let (da, db) = (&docs[a as usize], &docs[b as usize]);
            let declined = da.about.distinct.contains(&db.id) || db.about.distinct.contains(&da.id);
            if union > 0 && n as f32 / union as f32 >= SIMILAR && titles_agree(da, db) && !declined
            {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent.insert(ra.max(rb), ra.min(rb));
            }
        }
    }
    let mut groups: HashMap<u32, Vec<u32>> = HashMap::new();
    for &i in &free {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    let mut out: Vec<Proposal> = groups
        .into_values()
        .filter(|g| g.len() > 1)
        .map(|mut g| {
            g.sort_by_key(|&i| std::cmp::Reverse(docs[i as usize].about.published.map(|p| p.date)));
            let newest = &docs[g[0] as usize];
            Proposal {
                ids: g.iter().map(|&i| docs[i as usize].id.clone()).collect(),
                name: newest
                    .title
                    .clone()
                    .filter(|t| !t.trim().is_empty())
                    .unwrap_or_else(|| newest.name.clone()),
            }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

impl<S: Store> Library<S> {
    /// Changes what is known of stored documents (`change` sees each one's record): the
    /// store first, one record at a time, then the corpus, then the saved index.
    async fn change_about(
        &self,
        ids: &[DocId],
        change: impl Fn(&DocumentMeta) -> About,
    ) -> Result<()> {
        for id in ids {
            let meta = {
                let corpus = self.corpus.borrow();
                let n = corpus
                    .document_number(id)
                    .ok_or_else(|| Error::NoDocument(id.clone()))?;
                corpus.documents()[n as usize].clone()
            };
            let about = change(&meta);
            let meta = DocumentMeta {
                about: about.clone(),
                ..meta
            };
            self.store.put_meta(&meta).await?;
            self.corpus.borrow_mut().set_about(id, about);
            self.unsaved.set(true);
            self.changed();
        }
        self.save_index().await
    }

    /// Confirms `ids` as versions of one text named `name`: each supersedes the older ones once
    /// all are dated. Documents already in another group move to this one.
    pub async fn group_versions(&self, ids: &[DocId], name: &str) -> Result<()> {
        let name = name.trim();
        if ids.len() < 2 || name.is_empty() {
            return Err(Error::Group);
        }
        self.change_about(ids, |m| About {
            group: Some(name.to_string()),
            distinct: m
                .about
                .distinct
                .iter()
                .filter(|d| !ids.contains(d))
                .cloned()
                .collect(),
            ..m.about.clone()
        })
        .await
    }

    /// Says `ids` are not versions of one another: they leave their group and are never
    /// proposed together again.
    pub async fn declare_distinct(&self, ids: &[DocId]) -> Result<()> {
        self.change_about(ids, |m| {
            let mut distinct = m.about.distinct.clone();
            for id in ids {
                if *id != m.id && !distinct.contains(id) {
                    distinct.push(id.clone());
                }
            }
            About {
                group: None,
                distinct,
                ..m.about.clone()
            }
        })
        .await
    }

    /// Takes a document out of its group (its versions stay grouped).
    pub async fn leave_group(&self, id: &DocId) -> Result<()> {
        self.change_about(std::slice::from_ref(id), |m| About {
            group: None,
            ..m.about.clone()
        })
        .await
    }

    /// Sets a document's publication date (`None`: back to the one chosen from the file).
    pub async fn set_published(&self, id: &DocId, date: Option<PubDate>) -> Result<()> {
        self.change_about(std::slice::from_ref(id), |m| About {
            published: match date {
                Some(date) => Some(Published {
                    date,
                    from: DateFrom::Given,
                }),
                None => crate::ingest::published::choose(&m.about.found),
            },
            ..m.about.clone()
        })
        .await
    }
}
