//! The translation worker's messages (the page's translator adapter and `src/translate_worker`),
//! as postcard bytes. The model files travel beside a [`Request::Load`] (transferred, not
//! copied into the message), three per direction in the order the request lists them: model,
//! shortlist, tokenizer.

use serde::{Deserialize, Serialize};

use super::Translation;
use crate::search::lang::Lang;
use crate::{Error, Result};

/// One direction to load: its languages and its three files' SHA-256 (from the manifest).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadDirection {
    /// From.
    pub from: Lang,
    /// Into.
    pub to: Lang,
    /// SHA-256 (hex) of the model, the shortlist and the tokenizer, in that order.
    pub sha256: [String; 3],
}

/// What the page asks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Load these directions (their files beside the message), beside any loaded before.
    Load(Vec<LoadDirection>),
    /// Translate a question into `to`.
    Translate {
        /// The question.
        question: String,
        /// Into.
        to: Lang,
    },
}

/// What the worker answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// Started.
    Ready,
    /// The models are loaded.
    Loaded,
    /// The translation, or `None` when nothing usable came out.
    Translated(Option<Translation>),
    /// Why a request failed (a file's checksum, no models loaded).
    Failed(String),
}

/// Encodes a message.
pub fn encode<T: Serialize>(message: &T) -> Result<Vec<u8>> {
    postcard::to_allocvec(message).map_err(|e| Error::Index(format!("translator message: {e}")))
}

/// Decodes a message.
pub fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T> {
    postcard::from_bytes(bytes).map_err(|e| Error::Index(format!("translator message: {e}")))
}

/// The worker's state: the models once loaded.
#[derive(Default)]
pub struct Worker {
    translator: Option<super::local::LocalTranslator>,
}

impl Worker {
    /// Answers `request`; `files` are the bytes beside a [`Request::Load`].
    pub fn handle(&mut self, request: Request, files: &[Vec<u8>]) -> Reply {
        match request {
            Request::Load(directions) => {
                if files.len() != directions.len() * 3 {
                    return Reply::Failed(format!(
                        "{} files for {} directions",
                        files.len(),
                        directions.len()
                    ));
                }
                let listed: Vec<super::local::DirectionFiles<'_>> = directions
                    .iter()
                    .zip(files.chunks(3))
                    .map(|(d, f)| super::local::DirectionFiles {
                        from: d.from,
                        to: d.to,
                        model: (&f[0], &d.sha256[0]),
                        shortlist: (&f[1], &d.sha256[1]),
                        tokenizer: (&f[2], &d.sha256[2]),
                    })
                    .collect();
                match super::local::LocalTranslator::load(&listed) {
                    Ok(loaded) => {
                        match &mut self.translator {
                            Some(t) => t.extend(loaded),
                            None => self.translator = Some(loaded),
                        }
                        Reply::Loaded
                    }
                    Err(e) => Reply::Failed(e.to_string()),
                }
            }
            Request::Translate { question, to } => match &self.translator {
                Some(t) => Reply::Translated(t.translate(&question, to)),
                None => Reply::Failed("no translation models loaded".into()),
            },
        }
    }
}
