//! One file through the queue, in two steps: read and chunked by the platform's reader (and
//! searchable by its text at once), then embedded a slice at a time (each vector searchable as
//! it comes) and stored in one step; and how a file that does not get there is reported.

use crate::ingest::Prepared;
use crate::library::{Library, Provisional};
use crate::pdf::{RejectReason, Report};
use crate::store::{Store, StoredDocument};
use crate::Error;

use std::collections::VecDeque;

use super::{IngestEvent, Job, Queue, Services, Stop, HEAD};

/// A file read and chunked, waiting to be embedded; searchable by its text meanwhile (while
/// `provisional` lives).
pub(super) struct ReadFile<'l, S: Store> {
    pub(super) job: Job,
    prepared: Prepared,
    provisional: Option<Provisional<'l, S>>,
    /// The vectors of its first chunks, embedded so far.
    vectors: Vec<Vec<f32>>,
    /// Chunks in the last slice embedded (reported with the next progress event).
    last_slice: usize,
}

impl<S: Store> ReadFile<'_, S> {
    /// Chunks still without their vector.
    pub(super) fn chunks_left(&self) -> usize {
        self.prepared.chunks.len() - self.vectors.len()
    }
}

impl Queue {
    /// Reads and chunks one file; `None` when it was rejected (reported here).
    pub(super) async fn read_one<'l, S: Store, X: Services>(
        &self,
        library: &'l Library<S>,
        services: &X,
        job: Job,
        on: &dyn Fn(IngestEvent<X::Error>),
    ) -> Result<Option<ReadFile<'l, S>>, Stop<X::Error>> {
        let key = job.key;
        on(IngestEvent::Reading { key });
        services.pause().await;
        let params = library.info().chunk_params;
        let read = services
            .read(&job.name, &job.bytes, job.password.as_deref(), params)
            .await
            .map_err(Stop::Failed)?;
        let prepared = match read {
            Ok(p) if !p.is_rejected() => p,
            Ok(p) => {
                self.reject(library, job, p.meta.report, on)
                    .await
                    .map_err(Stop::Failed)?;
                return Ok(None);
            }
            Err(report) => {
                self.reject(library, job, report, on)
                    .await
                    .map_err(Stop::Failed)?;
                return Ok(None);
            }
        };
        // Searchable by its text from now on; out of the search again on any way out before
        // it is stored (the guard's drop).
        let provisional = library.begin(&prepared.meta, &prepared.chunks);
        on(IngestEvent::Read {
            key,
            pages: prepared.meta.pages,
            chunks: prepared.chunks.len(),
            searchable: provisional.is_some(),
        });
        Ok(Some(ReadFile {
            job,
            prepared,
            provisional,
            vectors: Vec::new(),
            last_slice: 0,
        }))
    }

    /// Embeds a read file's chunks up to `upto` (all of them with `usize::MAX`), a slice at a
    /// time, each vector searchable as it comes, or until `yield_to()` says another file
    /// should go first. False when the queue was cancelled first (the caller reports it).
    pub(super) async fn embed_until<S: Store, X: Services>(
        &self,
        services: &X,
        file: &mut ReadFile<'_, S>,
        upto: usize,
        on: &dyn Fn(IngestEvent<X::Error>),
        yield_to: &dyn Fn() -> bool,
    ) -> Result<bool, Stop<X::Error>> {
        let key = file.job.key;
        let total = file.prepared.chunks.len();
        let upto = upto.min(total);
        while file.vectors.len() < upto {
            if self.cancel.get() {
                return Ok(false);
            }
            if yield_to() {
                return Ok(true);
            }
            let start = file.vectors.len();
            on(IngestEvent::Embedding {
                key,
                done: start,
                total,
                embedded: std::mem::take(&mut file.last_slice),
                bytes: file.job.bytes.len(),
            });
            let end = (start + services.slice().max(1)).min(upto);
            let texts: Vec<&str> = file.prepared.chunks[start..end]
                .iter()
                .map(|c| c.text.as_str())
                .collect();
            let batch = services.embed(&texts).await.map_err(Stop::Failed)?;
            if batch.len() != texts.len() {
                let why = format!("{} vectors for {} passages", batch.len(), texts.len());
                return Err(Stop::Failed(Error::Model(why).into()));
            }
            file.last_slice = batch.len();
            if let Some(p) = &file.provisional {
                p.embedded(start, &batch)
                    .map_err(|e| Stop::Failed(e.into()))?;
            }
            file.vectors.extend(batch);
            services.pause().await;
        }
        Ok(true)
    }

    /// Embeds the first [`HEAD`] chunks of every read file (in order) that has not had them;
    /// a file that fails is reported and leaves `read`. Stops at a cancel.
    pub(super) async fn embed_heads<'l, S: Store, X: Services>(
        &self,
        library: &'l Library<S>,
        services: &X,
        read: &mut VecDeque<ReadFile<'l, S>>,
        on: &dyn Fn(IngestEvent<X::Error>),
    ) {
        let mut i = 0;
        while i < read.len() && !self.cancel.get() {
            match self
                .embed_until(services, &mut read[i], HEAD, on, &|| false)
                .await
            {
                Ok(_) => i += 1,
                Err(stop) => {
                    let Some(file) = read.remove(i) else { return };
                    let (key, bytes) = (file.job.key, file.job.bytes.len());
                    let job = file.job.clone();
                    // Out of the search before it is reported.
                    drop(file);
                    self.ended(library, &job, Err(stop), on).await;
                    on(IngestEvent::Left { key, bytes });
                }
            }
        }
    }

    /// Stores a file whose every chunk is embedded.
    pub(super) async fn store<S: Store, E: From<Error>>(
        &self,
        library: &Library<S>,
        file: ReadFile<'_, S>,
        on: &dyn Fn(IngestEvent<E>),
    ) -> Result<(), Stop<E>> {
        let ReadFile {
            job,
            prepared,
            provisional,
            vectors,
            ..
        } = file;
        let key = job.key;
        let id = job.id.clone();
        let report = prepared.meta.report.clone();
        let mut meta = prepared.meta;
        if let Some(old) = &job.about {
            meta.about = old.carried_into(std::mem::take(&mut meta.about));
        }
        let doc = StoredDocument {
            meta,
            pdf: job.bytes.to_vec(),
            chunks: prepared.chunks,
            vectors,
            pages: prepared.pages,
        };
        // One transaction: when it fails (a full quota) nothing of the document was written.
        match library.add(doc).await {
            Ok(()) => {}
            Err(Error::StoreFull(_)) => return Err(Stop::Full),
            Err(e) => return Err(Stop::Failed(e.into())),
        }
        drop(provisional);
        // Its text is now read here: no longer a bundle's. Should this write fail the mark
        // stays, which errs on the side of caution.
        if library.from_bundle(&id).is_some() {
            let _ = library.set_provenance(vec![(id, None)]).await;
        }
        on(IngestEvent::Stored { key, report });
        Ok(())
    }

    /// Reports how one file's ingestion ended when it did not end well.
    pub(super) async fn ended<S: Store, E: From<Error>>(
        &self,
        library: &Library<S>,
        job: &Job,
        result: Result<(), Stop<E>>,
        on: &dyn Fn(IngestEvent<E>),
    ) {
        match result {
            Ok(()) => {}
            Err(Stop::Full) => {
                on(IngestEvent::StorageFull { key: job.key });
                // Reported as not stored: no orphan copy stays to be offered again.
                self.drop_pending(library, job).await;
            }
            Err(Stop::Failed(error)) => on(IngestEvent::Failed {
                key: job.key,
                error,
            }),
        }
    }

    /// Reports a file that gave no text, keeping it aside when it needs a password, and
    /// forgets its pending copy. A stored document being re-embedded stays stored as it was.
    pub(super) async fn reject<S: Store, E: From<Error>>(
        &self,
        library: &Library<S>,
        job: Job,
        report: Report,
        on: &dyn Fn(IngestEvent<E>),
    ) -> Result<(), E> {
        let locked = matches!(
            report,
            Report::Rejected {
                reason: RejectReason::NeedsPassword
            }
        ) && !job.replaces;
        let key = job.key;
        let id = job.id.clone();
        let replaces = job.replaces;
        if locked {
            self.locked.borrow_mut().push(job);
        }
        on(IngestEvent::Rejected {
            key,
            report,
            locked,
        });
        if !replaces {
            library.store().delete_pending(&id).await?;
        }
        Ok(())
    }

    /// Deletes a file's pending copy. Deleting frees space; it fails only if the store is
    /// gone, and then there is nothing left to keep clean.
    pub(super) async fn drop_pending<S: Store>(&self, library: &Library<S>, job: &Job) {
        if !job.replaces {
            let _ = library.store().delete_pending(&job.id).await;
        }
    }
}
