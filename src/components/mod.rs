//! The page's parts.

pub mod ask;
pub mod drop_zone;
pub mod errors;
pub mod libraries;
pub mod library;
pub mod search;
pub mod settings;
pub mod share;
pub mod source;
pub mod versions;
pub mod words;
