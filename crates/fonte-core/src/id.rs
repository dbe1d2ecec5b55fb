//! A document's id: the SHA-256 of its bytes in hex, so the same file is the same document in
//! every library, bundle and visit. A type of its own so an id is never mixed up with a name,
//! a title or a model id; it is stored and sent as the plain string it wraps.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A document's id (see the module).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DocId(String);

impl DocId {
    /// The id of a document whose bytes are `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        Self(crate::pdf::document_id(bytes))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for DocId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where an id is only read as text (a store's key, a URL part).
impl std::ops::Deref for DocId {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<String> for DocId {
    fn from(s: String) -> Self {
        Self(s)
    }
}

impl From<&str> for DocId {
    fn from(s: &str) -> Self {
        Self(s.to_string())
    }
}

impl From<DocId> for String {
    fn from(id: DocId) -> Self {
        id.0
    }
}

impl PartialEq<str> for DocId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for DocId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for DocId {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

impl PartialEq<DocId> for String {
    fn eq(&self, other: &DocId) -> bool {
        *self == other.0
    }
}

impl PartialEq<DocId> for str {
    fn eq(&self, other: &DocId) -> bool {
        self == other.0
    }
}

/// Maps and sets keyed by id are looked up by the text too.
impl std::borrow::Borrow<str> for DocId {
    fn borrow(&self) -> &str {
        &self.0
    }
}
