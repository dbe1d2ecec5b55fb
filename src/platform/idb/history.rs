//! The answers kept per library (object store `history`, schema 4): one record per answer,
//! keyed by when it was asked, so reading them all lists them in order.

use fonte_core::answer::ask::Answer;
use serde::{Deserialize, Serialize};

use super::IdbStore;
use crate::AppResult;

/// A kept answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    /// Its key: the time asked (ms, zero-padded) and a counter, so keys sort by time.
    pub id: String,
    /// The conversation it belongs to (the id of its first answer).
    pub conversation: String,
    /// When it was asked, ms since the epoch.
    pub at_ms: f64,
    /// The answer with its sources.
    pub answer: Answer,
}

impl Saved {
    /// A key for an answer asked at `at_ms`, the `n`th of this page.
    pub fn key(at_ms: f64, n: u64) -> String {
        format!("{:015}-{n:06}", at_ms as u64)
    }
}

const STORE: &str = "history";

impl IdbStore {
    /// Every kept answer, oldest first.
    pub async fn history(&self) -> AppResult<Vec<Saved>> {
        let mut all: Vec<Saved> = self.db.get_all(STORE).await?;
        all.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(all)
    }

    /// Keeps `saved` (replacing an answer of the same id).
    pub async fn keep(&self, saved: &Saved) -> AppResult<()> {
        self.db.put(STORE, &saved.id, saved).await
    }

    /// Deletes the answers of `conversation`, in one transaction.
    pub async fn forget_conversation(&self, conversation: &str) -> AppResult<()> {
        let ids: Vec<String> = self
            .history()
            .await?
            .into_iter()
            .filter(|s| s.conversation == conversation)
            .map(|s| s.id)
            .collect();
        let tx = self.db.write(STORE)?;
        let store = tx.object_store(STORE)?;
        for id in ids {
            store.delete(id).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
