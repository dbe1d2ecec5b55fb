//! From a file's bytes to stored passages: one document read and chunked ([`document`]) and
//! dated ([`published`]), the reader worker's protocol ([`reader`]), and the ingestion queue
//! that drives both and embeds ([`queue`]).

pub mod document;
pub mod published;
pub mod queue;
pub mod reader;

pub use document::{assemble, prepare, Prepared, MAX_CHUNKS};
