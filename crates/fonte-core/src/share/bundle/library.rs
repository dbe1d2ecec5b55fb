//! A library's documents into a bundle and back: [`Library::export`] and
//! [`Library::import`]. An import validates the whole bundle first ([`super::read`]) and then
//! only adds: no stored document is replaced or deleted, so a refused or interrupted import
//! leaves the library as it was (plus, when interrupted, the documents already added whole).
//! What it adds is recorded as from the bundle (`library::provenance`).

use std::collections::HashSet;

use super::{read, write, Bundle, BundleError, Meta};
use crate::library::Library;
use crate::store::{Store, StoredDocument};
use crate::DocId;
use crate::Result;

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    /// Names of the documents added.
    pub added: Vec<String>,
    /// Names of those already in the library (same SHA-256), left as they were.
    pub skipped: Vec<String>,
}

impl<S: Store> Library<S> {
    /// The bundle of the documents `ids` (every searchable document when `None`).
    pub async fn export(&self, ids: Option<&[DocId]>, meta: &Meta) -> Result<Vec<u8>> {
        let mut docs = Vec::new();
        for d in self.documents() {
            if ids.is_some_and(|ids| !ids.contains(&d.id)) {
                continue;
            }
            let Some((chunks, vectors)) = self.store().load_document(&d.id).await? else {
                continue;
            };
            let pdf = if meta.pdfs {
                self.store().pdf(&d.id).await?.unwrap_or_default()
            } else {
                Vec::new()
            };
            let pages = self.store().pages(&d.id).await?;
            docs.push(StoredDocument {
                meta: d,
                pdf,
                chunks,
                vectors,
                pages,
            });
        }
        write(meta, &self.info(), &docs)
    }

    /// Adds the documents of `bytes` (a bundle), after validating all of it and checking it
    /// was built with this library's model and chunker; `on(done, total)` after each one.
    pub async fn import(&self, bytes: &[u8], on: &mut dyn FnMut(usize, usize)) -> Result<Imported> {
        self.import_bundle(read(bytes)?, on).await
    }

    /// [`Library::import`] of a bundle already validated (a hosted one, read by ranges).
    pub async fn import_bundle(
        &self,
        bundle: Bundle,
        on: &mut dyn FnMut(usize, usize),
    ) -> Result<Imported> {
        let ours = self.info();
        if bundle.info() != ours {
            return Err(BundleError::OtherModel {
                bundle: bundle.manifest.model_id.clone(),
                library: ours.model_id,
            }
            .into());
        }
        let have: HashSet<DocId> = self.documents().into_iter().map(|d| d.id).collect();
        let total = bundle.documents.len();
        // Marked as the bundle's before any is stored (one write), so an interrupted import
        // never leaves a bundle's text looking read here; whatever PDF came with it, the text
        // is the bundle's.
        let title = &bundle.manifest.title;
        let marks = bundle
            .documents
            .iter()
            .filter(|d| !have.contains(&d.meta.id))
            .map(|d| (d.meta.id.clone(), Some(title.clone())))
            .collect();
        self.set_provenance(marks).await?;
        let mut out = Imported::default();
        for (i, doc) in bundle.documents.into_iter().enumerate() {
            if have.contains(&doc.meta.id) {
                out.skipped.push(doc.meta.name);
            } else {
                let name = doc.meta.name.clone();
                self.add(doc).await?;
                out.added.push(name);
            }
            on(i + 1, total);
        }
        self.save_index().await?;
        Ok(out)
    }
}
