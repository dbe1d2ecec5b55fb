//! The answers kept per library (asking itself is the core session's pipeline, which the
//! ask view drives through [`Engine::session`]).

use super::Engine;
use crate::platform::idb::Saved;
use crate::AppResult;

impl Engine {
    /// The answers kept for this library, oldest first.
    pub async fn history(&self) -> AppResult<Vec<Saved>> {
        self.library().store().history().await
    }

    /// Keeps an answer.
    pub async fn keep(&self, saved: &Saved) -> AppResult<()> {
        self.library().store().keep(saved).await
    }

    /// Forgets the answers of conversation `conversation`.
    pub async fn forget_conversation(&self, conversation: &str) -> AppResult<()> {
        self.library()
            .store()
            .forget_conversation(conversation)
            .await
    }
}
