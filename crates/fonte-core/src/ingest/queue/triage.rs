//! What the queue does with its files before embedding them: keeps each as pending in the
//! store, opens each to report what cannot be read at all, and reads the rest.

use std::collections::VecDeque;

use super::file::ReadFile;
use super::{IngestEvent, Job, Queue, Services};
use crate::library::Library;
use crate::store::{PendingFile, Store};
use crate::Error;

impl Queue {
    /// Reads every queued file (in order) into `read`; one the queue was cancelled for is
    /// dropped instead.
    pub(super) async fn read_queued<'l, S: Store, X: Services>(
        &self,
        library: &'l Library<S>,
        services: &X,
        read: &mut VecDeque<ReadFile<'l, S>>,
        on: &dyn Fn(IngestEvent<X::Error>),
    ) {
        loop {
            // A file added since the pass that kept the others (a page feeds dropped files in
            // as memory allows) is kept as pending before it is read, like every file.
            let unsaved = self
                .jobs
                .borrow()
                .front()
                .is_some_and(|j| !j.pending_saved && !j.replaces);
            if unsaved {
                self.keep_pending(library, on).await;
            }
            let job = self.jobs.borrow_mut().pop_front();
            let Some(job) = job else { return };
            let (key, bytes) = (job.key, job.bytes.len());
            if self.cancel.get() {
                on(IngestEvent::Cancelled { key });
                self.drop_pending(library, &job).await;
            } else {
                match self.read_one(library, services, job.clone(), on).await {
                    Ok(Some(file)) => {
                        read.push_back(file);
                        continue;
                    }
                    // Rejected, and reported.
                    Ok(None) => {}
                    Err(stop) => self.ended(library, &job, Err(stop), on).await,
                }
            }
            on(IngestEvent::Left { key, bytes });
        }
    }

    /// Writes every queued file not yet kept as pending, before the slow work.
    pub(super) async fn keep_pending<S: Store, E: From<Error>>(
        &self,
        library: &Library<S>,
        on: &dyn Fn(IngestEvent<E>),
    ) {
        // The bytes are shared with the job, not copied: a file is held once.
        let unsaved: Vec<(PendingFile, _)> = self
            .jobs
            .borrow_mut()
            .iter_mut()
            .filter(|j| !j.pending_saved && !j.replaces)
            .map(|j| {
                j.pending_saved = true;
                let file = PendingFile {
                    id: j.id.clone(),
                    name: j.name.clone(),
                    size: j.bytes.len() as u64,
                };
                (file, j.bytes.clone())
            })
            .collect();
        for (p, bytes) in unsaved {
            match library.store().put_pending(&p, &bytes).await {
                Ok(()) => {}
                // Its bytes alone do not fit, so the document will not either: say so now
                // rather than after minutes of embedding.
                Err(Error::StoreFull(_)) => {
                    if let Some(job) = self.take(|j| j.id == p.id) {
                        on(IngestEvent::StorageFull { key: job.key });
                        on(IngestEvent::Left {
                            key: job.key,
                            bytes: job.bytes.len(),
                        });
                    }
                }
                Err(e) => on(IngestEvent::Warning { error: e.into() }),
            }
        }
    }

    /// Opens every queued file not opened yet and rejects those that cannot be read at all.
    pub(super) async fn reject_unreadable<S: Store, X: Services>(
        &self,
        library: &Library<S>,
        services: &X,
        on: &dyn Fn(IngestEvent<X::Error>),
    ) {
        // Cloned out (the bytes are shared) so no borrow spans the reader's await.
        let untried: Vec<Job> = self
            .jobs
            .borrow_mut()
            .iter_mut()
            .filter(|j| !j.triaged)
            .map(|j| {
                j.triaged = true;
                j.clone()
            })
            .collect();
        for Job {
            key,
            name,
            bytes,
            password,
            ..
        } in untried
        {
            let report = match services.open(&name, &bytes, password.as_deref()).await {
                Ok(None) => continue,
                Ok(Some(report)) => report,
                // The reader cannot start: each file fails with this when its turn comes.
                Err(_) => return,
            };
            if let Some(job) = self.take(|j| j.key == key) {
                if let Err(error) = self.reject(library, job, report, on).await {
                    on(IngestEvent::Failed { key, error });
                }
                on(IngestEvent::Left {
                    key,
                    bytes: bytes.len(),
                });
            }
        }
    }

    fn take(&self, which: impl Fn(&Job) -> bool) -> Option<Job> {
        let mut jobs = self.jobs.borrow_mut();
        let at = jobs.iter().position(which)?;
        jobs.remove(at)
    }
}
