//! One file through the queue: read and chunked by the platform's reader, embedded a slice at
//! a time, stored in one step.

use crate::library::Library;
use crate::store::{Store, StoredDocument};
use crate::Error;

use super::{IngestEvent, Job, Queue, Services, Stop, SLICE};

impl Queue {
    /// Reads, chunks, embeds and stores one file.
    pub(super) async fn ingest<S: Store, X: Services>(
        &self,
        library: &Library<S>,
        services: &X,
        job: &Job,
        on: &dyn Fn(IngestEvent<X::Error>),
    ) -> Result<(), Stop<X::Error>> {
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
                return self
                    .reject(library, job.clone(), p.meta.report, on)
                    .await
                    .map_err(Stop::Failed)
            }
            Err(report) => {
                return self
                    .reject(library, job.clone(), report, on)
                    .await
                    .map_err(Stop::Failed)
            }
        };
        let total = prepared.chunks.len();
        on(IngestEvent::Read {
            key,
            pages: prepared.meta.pages,
            chunks: total,
        });
        let mut vectors: Vec<Vec<f32>> = Vec::with_capacity(total);
        let mut embedded = 0;
        for slice in prepared.chunks.chunks(SLICE) {
            if self.cancel.get() {
                on(IngestEvent::Cancelled { key });
                self.drop_pending(library, job).await;
                return Ok(());
            }
            on(IngestEvent::Embedding {
                key,
                done: vectors.len(),
                total,
                embedded,
                bytes: job.bytes.len(),
            });
            let texts: Vec<&str> = slice.iter().map(|c| c.text.as_str()).collect();
            let batch = services.embed(&texts).await.map_err(Stop::Failed)?;
            if batch.len() != texts.len() {
                let why = format!("{} vectors for {} passages", batch.len(), texts.len());
                return Err(Stop::Failed(Error::Model(why).into()));
            }
            embedded = batch.len();
            vectors.extend(batch);
            services.pause().await;
        }
        let report = prepared.meta.report.clone();
        let doc = StoredDocument {
            meta: prepared.meta,
            pdf: job.bytes.clone(),
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
        on(IngestEvent::Stored { key, report });
        Ok(())
    }
}
