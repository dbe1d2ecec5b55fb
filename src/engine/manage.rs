//! Managing the library: delete, clear, re-index or switch the model (replacing each document
//! only once re-embedded), resume or discard files of an earlier visit.

use std::rc::Rc;

use fonte_core::search::corpus::DocumentMeta;
use fonte_core::store::Store;
use leptos::prelude::*;

use super::queue::Waiting;
use super::{Engine, ModelService};
use crate::state::Notice;
use crate::AppResult;

impl Engine {
    /// Makes the library use the model in `dir`: every stored PDF is embedded again with it
    /// (with progress, as when added), never mixing the two models' vectors.
    pub async fn switch_model(self: &Rc<Self>, dir: &str) -> AppResult<()> {
        let Some(model) = self.models.iter().find(|m| m.dir == dir).cloned() else {
            return Err(fonte_core::Error::Manifest(format!("no installed model in {dir}")).into());
        };
        // A fresh service: the old model's reader and embedder go with the old one.
        let services = ModelService::new(model.clone(), self.ui);
        let stale = match self.session.begin_switch(&model.info(), services).await {
            Err(fonte_core::Error::Busy) => {
                self.ui.notice.set(Some(Notice::SwitchWhileBusy));
                return Ok(());
            }
            stale => stale?,
        };
        self.ui.placement.set(None);
        self.ui.model.set(model.manifest.id.clone());
        self.rows.empty();
        self.requeue_stale(stale).await?;
        self.resume().await
    }

    /// Deletes a stored document.
    pub async fn delete(&self, key: u64, id: &str) -> AppResult<()> {
        self.library().delete(id).await?;
        self.rows.deleted(key);
        self.refresh_storage().await;
        Ok(())
    }

    /// Removes every document, pending file and the saved index.
    pub async fn clear(&self) -> AppResult<()> {
        self.session.clear().await?;
        self.ui.pending.set(Vec::new());
        self.rows.empty();
        self.refresh_storage().await;
        Ok(())
    }

    /// Re-indexes a library built with another model or chunker: each stored document is
    /// embedded again from its stored PDF and replaces its old copy in one transaction, so a
    /// closed tab part way loses nothing (the next visit goes on with the rest). Unfinished
    /// files of an earlier visit join the queue as new files.
    pub async fn reindex(self: &Rc<Self>) -> AppResult<()> {
        let model = self.model();
        let services = ModelService::new(model.clone(), self.ui);
        let stale = self.session.begin_switch(&model.info(), services).await?;
        self.rows.empty();
        self.requeue_stale(stale).await?;
        self.resume().await
    }

    /// Queues stored documents made with another build, to be re-embedded from their PDFs.
    pub(super) async fn requeue_stale(self: &Rc<Self>, stale: Vec<DocumentMeta>) -> AppResult<()> {
        for meta in stale {
            // A document whose PDF is gone cannot be re-embedded; it stays stored (and
            // unsearched) rather than being deleted.
            let Some(pdf) = self.library().store().pdf(&meta.id).await? else {
                continue;
            };
            let key = self.rows.key();
            self.rows.requeued(key, &meta, pdf.len() as f64);
            self.queue().replace(key, &meta, pdf);
        }
        self.start();
        Ok(())
    }

    /// Re-queues the unfinished files of an earlier visit: listed at once, each read from the
    /// store when its turn comes (as dropped files are), so ten large files are never all
    /// held. Each stays pending in the store until its document is stored.
    pub async fn resume(self: &Rc<Self>) -> AppResult<()> {
        let files = self.library().store().pending().await?;
        self.ui.pending.set(Vec::new());
        self.add_waiting(
            files
                .into_iter()
                .map(|p| (p.name, p.size as f64, Waiting::Pending(p.id)))
                .collect(),
        );
        Ok(())
    }

    /// Forgets the unfinished files of an earlier visit.
    pub async fn discard_pending(&self) -> AppResult<()> {
        let store = self.library().store();
        for p in store.pending().await? {
            store.delete_pending(&p.id).await?;
        }
        self.ui.pending.set(Vec::new());
        Ok(())
    }
}
