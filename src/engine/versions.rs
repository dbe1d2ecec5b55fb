//! Dates and versions from the page: a proposed group confirmed or declined, a document's date
//! edited, a document taken out of its group. Each goes through the core library (the store
//! first), then the searches and answers on screen are run again, since the evidence changed.

use fonte_core::pdf::dates::PubDate;
use fonte_core::DocId;
use leptos::prelude::*;

use super::rows::versions::versions;
use super::Engine;
use crate::AppResult;

impl Engine {
    /// Shows the documents' dates and versions as the library now records them.
    pub fn refresh_versions(&self) {
        let shown = versions(&self.library().corpus());
        self.ui.versions.set(shown);
    }

    /// Confirms `ids` as versions of one text named `name` (the newest becomes current).
    pub async fn group_versions(&self, ids: &[DocId], name: &str) -> AppResult<()> {
        let done = self.library().group_versions(ids, name).await;
        self.changed();
        Ok(done?)
    }

    /// Says `ids` are not versions of one another (never proposed together again).
    pub async fn declare_distinct(&self, ids: &[DocId]) -> AppResult<()> {
        let done = self.library().declare_distinct(ids).await;
        self.changed();
        Ok(done?)
    }

    /// Takes a document out of its group of versions.
    pub async fn leave_group(&self, id: &DocId) -> AppResult<()> {
        let done = self.library().leave_group(id).await;
        self.changed();
        Ok(done?)
    }

    /// Sets a document's publication date (`None`: the one read from its file).
    pub async fn set_published(&self, id: &DocId, date: Option<PubDate>) -> AppResult<()> {
        let done = self.library().set_published(id, date).await;
        self.changed();
        Ok(done?)
    }

    // What is searched changed (even part way through a failed change): searches re-run and
    // the versions shown are read again.
    fn changed(&self) {
        self.ui.generation.update(|g| *g += 1);
    }
}
