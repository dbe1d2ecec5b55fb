//! Managing the library: delete, clear, re-index or switch the model (replacing each document
//! only once re-embedded), resume or discard files of an earlier visit.

use std::rc::Rc;

use fonte_core::search::corpus::DocumentMeta;
use fonte_core::store::Store;
use leptos::prelude::*;

use super::{Engine, ModelService};
use crate::state::{Loaded, Notice, Row, Status};
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
        self.show_empty();
        self.requeue_stale(stale).await?;
        self.resume().await
    }

    /// Deletes a stored document.
    pub async fn delete(&self, key: u64, id: &str) -> AppResult<()> {
        self.library().delete(id).await?;
        self.ui.rows.update(|rows| rows.retain(|r| r.key != key));
        self.ui.generation.update(|g| *g += 1);
        self.refresh_storage().await;
        Ok(())
    }

    /// Removes every document, pending file and the saved index.
    pub async fn clear(&self) -> AppResult<()> {
        self.session.clear().await?;
        self.ui.pending.set(Vec::new());
        self.show_empty();
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
        self.show_empty();
        self.requeue_stale(stale).await?;
        self.resume().await
    }

    /// Shows an empty, searchable library (rows of re-embedded documents join it).
    fn show_empty(&self) {
        self.ui.rows.set(Vec::new());
        self.ui.loaded.set(Loaded::Ready {
            restored: false,
            documents: 0,
            chunks: 0,
            ms: 0.0,
        });
        self.ui.generation.update(|g| *g += 1);
    }

    /// Queues stored documents made with another build, to be re-embedded from their PDFs.
    pub(super) async fn requeue_stale(self: &Rc<Self>, stale: Vec<DocumentMeta>) -> AppResult<()> {
        for meta in stale {
            // A document whose PDF is gone cannot be re-embedded; it stays stored (and
            // unsearched) rather than being deleted.
            let Some(pdf) = self.library().store().pdf(&meta.id).await? else {
                continue;
            };
            let key = self.key();
            let size = pdf.len() as f64;
            self.ui.rows.update(|rows| {
                rows.push(Row {
                    key,
                    id: Some(meta.id.clone()),
                    name: meta.name.clone(),
                    size: Some(size),
                    pages: Some(meta.pages),
                    chunks: None,
                    status: Status::Queued,
                })
            });
            self.ui.progress.update(|p| p.total_bytes += size);
            self.queue().replace(key, &meta, pdf);
        }
        self.start();
        Ok(())
    }

    /// Re-queues the unfinished files of an earlier visit.
    pub async fn resume(self: &Rc<Self>) -> AppResult<()> {
        let files = self.library().store().pending().await?;
        self.add_files(
            files
                .into_iter()
                .map(|p| (p.name, p.bytes.len() as f64, p.bytes))
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
