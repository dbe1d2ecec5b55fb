//! Where a document's text came from. A bundle carries text and vectors that nobody here read
//! from the PDF, under the PDF's SHA-256: a forged bundle could plant text under a real
//! paper's id. So a document imported from a bundle is recorded as from it (the store's
//! `LibraryMeta::from_bundles`), shown as such, and is not a duplicate of the real PDF: a
//! dropped file with its id is read here and replaces that copy, which then leaves the list.

use std::collections::BTreeMap;

use super::Library;
use crate::store::Store;
use crate::DocId;
use crate::Result;

impl<S: Store> Library<S> {
    /// The title of the bundle a document's text came from; `None` when it was read here.
    pub fn from_bundle(&self, id: &str) -> Option<String> {
        self.from_bundles.borrow().get(id).cloned()
    }

    /// Every document whose text came from a bundle, with the bundle's title.
    pub fn from_bundles(&self) -> BTreeMap<DocId, String> {
        self.from_bundles.borrow().clone()
    }

    /// Records where documents' text came from: `Some(bundle title)`, or `None` for text read
    /// here from the PDF. Written before it is kept in memory, so the two never disagree.
    pub(crate) async fn set_provenance(&self, changes: Vec<(DocId, Option<String>)>) -> Result<()> {
        let mut all = self.from_bundles();
        for (id, from) in changes {
            match from {
                Some(title) => all.insert(id, title),
                None => all.remove(&id),
            };
        }
        if all == *self.from_bundles.borrow() {
            return Ok(());
        }
        let Some(mut meta) = self.store.meta().await? else {
            return Ok(());
        };
        meta.from_bundles = all.clone();
        self.store.set_meta(&meta).await?;
        *self.from_bundles.borrow_mut() = all;
        Ok(())
    }
}
