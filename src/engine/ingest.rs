//! One file through ingestion: read and chunked in the reader worker, embedded chunk by chunk
//! (the page stays responsive, searches interleave), stored in one transaction.

use fonte_core::pdf::{RejectReason, Report};
use fonte_core::store::{Store, StoredDocument};
use leptos::prelude::*;

use super::queue::{Job, SLICE};
use super::{yield_now, Engine};
use crate::state::Status;
use crate::{AppError, AppResult};

impl Engine {
    /// Reads, chunks, embeds and stores one file, following it on its row.
    pub(super) async fn ingest(&self, job: &Job) -> AppResult<()> {
        self.set_status(job.key, |r| r.status = Status::Parsing);
        yield_now().await;
        let service = self.service();
        let reader = service.reader().await?;
        let params = self.model().info().chunk_params;
        let read = reader
            .read(
                &job.name,
                &job.bytes,
                job.password.clone(),
                params,
                &mut |_, _| {},
            )
            .await?;
        let prepared = match read {
            Ok(prepared) => prepared,
            Err(why) => {
                let report = Report::Rejected {
                    reason: RejectReason::ReaderStopped { why },
                };
                self.reject(job, &report).await?;
                return Ok(());
            }
        };
        let pages = prepared.meta.pages;
        let total = prepared.chunks.len();
        if matches!(prepared.meta.report, Report::Rejected { .. }) {
            self.reject(job, &prepared.meta.report).await?;
            return Ok(());
        }
        self.set_status(job.key, |r| {
            r.pages = Some(pages);
            r.chunks = Some(total);
        });
        drop(service.embedder().await?);
        let mut vectors = Vec::with_capacity(total);
        for (i, slice) in prepared.chunks.chunks(SLICE).enumerate() {
            if self.cancel.get() {
                self.set_status(job.key, |r| r.status = Status::Cancelled);
                self.library.store().delete_pending(&job.id).await?;
                return Ok(());
            }
            self.set_status(job.key, |r| {
                r.status = Status::Embedding {
                    done: i * SLICE,
                    total,
                }
            });
            let texts: Vec<&str> = slice.iter().map(|c| c.text.as_str()).collect();
            let mut slot = service.embedder().await?;
            let embedder = slot.as_mut().expect("loaded by embedder()");
            let result = embedder.embed_passages(&texts).await;
            drop(slot);
            vectors.extend(result?);
            let done = vectors.len();
            self.ui.progress.update(|p| {
                p.current = job.bytes.len() as f64 * done as f64 / total as f64;
                p.chunks_embedded += slice.len();
            });
            yield_now().await;
        }
        let status = Status::from_report(&prepared.meta.report);
        let doc = StoredDocument {
            meta: prepared.meta,
            pdf: job.bytes.clone(),
            chunks: prepared.chunks,
            vectors,
        };
        // One transaction: when it fails (a full quota) nothing of the document was written.
        // Stored, the same chunks and vectors then join the in-memory index (moved, not copied).
        match self.library.add(doc).await {
            Ok(()) => {}
            Err(fonte_core::Error::StoreFull(why)) => return Err(AppError::StorageFull(why)),
            Err(fonte_core::Error::Store(why)) => return Err(AppError::Storage(why)),
            Err(e) => return Err(e.into()),
        }
        self.set_status(job.key, |r| r.status = status);
        self.ui.generation.update(|g| *g += 1);
        Ok(())
    }
}
