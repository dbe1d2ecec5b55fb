//! The bundle: a library as one file to share or publish (docs/BUNDLE.md). A header with a
//! table of sections (offset, length, SHA-256 each, so a reader can fetch one by an HTTP range
//! request), then the sections: the manifest (JSON), the chunks with their page offsets, the
//! vectors, the page texts with their line boxes, and optionally each original PDF. Sections
//! are deflate-compressed (`flate2` on `miniz_oxide`, pure Rust, so the browser reads them too),
//! except the PDFs, which are compressed already.
//!
//! [`read`] validates everything before returning anything: a caller that stores only what
//! it returns can never store half of a corrupt or hostile bundle.

mod layout;
mod library;
mod read;
mod write;

use serde::{Deserialize, Serialize};

use crate::pdf::Report;
use crate::search::chunk::ChunkParams;
use crate::search::corpus::About;
use crate::DocId;

pub use layout::{read, read_accepting, Layout};
pub use library::Imported;
pub use read::{head_len, Bundle};
pub use write::{write, Meta};

/// The first bytes of every bundle.
pub const MAGIC: &[u8; 8] = b"FONTEBDL";
/// The format's major version: a reader refuses any other (the layout changed).
pub const MAJOR: u16 = 1;
/// The minor version: additions to the same layout. 1 added half-float vectors (kind 7); 2
/// each document's [`About`] in the manifest (publication date, versions). A reader meeting
/// a section kind it does not know in a bundle of a later minor version says to update Fonte.
pub const MINOR: u16 = 2;
/// Bytes of the fixed header before the section table: magic, major, minor, section count.
const HEAD: usize = 16;
/// Bytes of one entry of the section table.
const ENTRY: usize = 72;

/// Limits a reader holds a bundle to before allocating anything it declares.
pub mod limits {
    /// Documents in one bundle.
    pub const DOCUMENTS: usize = 10_000;
    /// Chunks in one bundle (about 4 GB of text; far beyond what a browser can hold).
    pub const CHUNKS: usize = 5_000_000;
    /// Vector dimension.
    pub const DIM: usize = 4096;
    /// Decompressed bytes of one section.
    pub const SECTION: u64 = 1 << 31;
    /// Decompressed bytes of all sections together: the page holds a validated bundle while
    /// it stores it, in a 32-bit WebAssembly memory shared with the library, and the reader
    /// worker inflates it under its own budget (so a bundle near this is refused there by
    /// memory, with its reason, rather than aborting the page).
    pub const TOTAL: u64 = 1 << 30;
    /// Bytes of a bundle file read whole (dropped, picked, or served by a host without range
    /// requests): the page holds it while the reader worker validates a copy.
    pub const FILE: u64 = 512 << 20;
    /// Bytes of a short text: a document's name or title, the bundle's title, a model id,
    /// one heading.
    pub const NAME: usize = 1 << 10;
    /// Bytes of the bundle's description.
    pub const DESCRIPTION: usize = 64 << 10;
    /// Bytes of one chunk's text (chunks are a few hundred tokens; this is far past any).
    pub const CHUNK_TEXT: usize = 64 << 10;
    /// Headings above one chunk.
    pub const HEADINGS: usize = 32;
    /// Dates one document gives for itself (a PDF's information and XMP give five, its
    /// first pages a few more).
    pub const DATES: usize = 64;
}

/// A model whose vectors a reader can use: a bundle of another is refused from its manifest,
/// before any other section is inflated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accepted {
    /// The model id.
    pub model_id: String,
    /// Its vector dimension.
    pub dim: usize,
}

/// What a section holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Kind {
    /// The manifest, JSON.
    Manifest = 1,
    /// Every chunk (postcard `Vec<ChunkRecord>`), in document order.
    Chunks = 2,
    /// One vector per chunk, `dim` little-endian f32 each (format 1.0).
    Vectors = 3,
    /// Each document's page texts with their lines (postcard `Vec<Vec<PageText>>`).
    Pages = 4,
    /// Reserved for a saved search index (1.0 writes none: the reader rebuilds it).
    Index = 5,
    /// One document's PDF, the entry's `doc` says which.
    Pdf = 6,
    /// One vector per chunk, `dim` little-endian IEEE 754 half floats each (format 1.1; what
    /// 1.1 writes).
    VectorsF16 = 7,
}

impl Kind {
    fn from_u32(v: u32) -> Option<Self> {
        Some(match v {
            1 => Kind::Manifest,
            2 => Kind::Chunks,
            3 => Kind::Vectors,
            4 => Kind::Pages,
            5 => Kind::Index,
            6 => Kind::Pdf,
            7 => Kind::VectorsF16,
            _ => return None,
        })
    }

    /// Its name, in messages.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Manifest => "manifest",
            Kind::Chunks => "chunks",
            Kind::Vectors => "vectors",
            Kind::Pages => "pages",
            Kind::Index => "index",
            Kind::Pdf => "pdf",
            Kind::VectorsF16 => "vectors",
        }
    }
}

/// One document as the manifest lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestDocument {
    /// SHA-256 of its PDF, hex: its id.
    pub id: DocId,
    /// File name.
    pub name: String,
    /// Its /Title, if any.
    pub title: Option<String>,
    /// Physical pages.
    pub pages: u32,
    /// Bytes of its PDF.
    pub size: u64,
    /// How much text was read.
    pub report: Report,
    /// Its chunks (they come in document order in the chunks section).
    pub chunks: usize,
    /// Its publication date and versions (format 1.2; older bundles have none). When it was
    /// added is the importer's: not carried.
    #[serde(default)]
    pub about: About,
}

/// What the bundle holds, readable without the rest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Title, shown when it is opened.
    pub title: String,
    /// Description.
    pub description: String,
    /// When it was made (RFC 3339).
    pub created: String,
    /// The embedding model's id: a library of another model cannot take these vectors.
    pub model_id: String,
    /// Vector dimension.
    pub dim: usize,
    /// How the documents were chunked.
    pub chunk_params: ChunkParams,
    /// The documents, in the order of the chunks.
    pub documents: Vec<ManifestDocument>,
    /// Chunks in all.
    pub chunks: usize,
    /// Whether the PDFs are included (else pages show as their text only).
    pub pdfs: bool,
}

/// Why a bundle was refused. Each names what is wrong, so a refused import says it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum BundleError {
    /// Not a bundle at all.
    #[error("not a Fonte bundle (wrong magic bytes)")]
    NotABundle,
    /// A major version this reader does not know.
    #[error("bundle format {major}.{minor}: this Fonte reads {MAJOR}.0 to {MAJOR}.{MINOR}; update Fonte to open it")]
    Version {
        /// Its major version.
        major: u16,
        /// Its minor version.
        minor: u16,
    },
    /// The file ends before something it declares.
    #[error("the bundle is truncated ({what})")]
    Truncated {
        /// What was cut.
        what: String,
    },
    /// A section's bytes do not match their checksum.
    #[error("the {section} section is damaged (checksum mismatch)")]
    Checksum {
        /// Which section ("header" for the table).
        section: String,
    },
    /// A compressed section does not inflate to its declared length.
    #[error("the {section} section does not decompress to its declared {declared} bytes")]
    Inflate {
        /// Which section.
        section: String,
        /// Its declared length.
        declared: u64,
    },
    /// A declared size or count past the reader's limits.
    #[error("the bundle declares {what}, past the limit of {limit}")]
    TooLarge {
        /// What is declared.
        what: String,
        /// The limit.
        limit: u64,
    },
    /// Parts that do not agree (counts, ids, dims, references).
    #[error("the bundle is inconsistent: {0}")]
    Inconsistent(String),
    /// Built with another model or chunker than the library it is imported into (vectors of
    /// two models are never mixed).
    #[error("the bundle was built with {bundle}, this library with {library}")]
    OtherModel {
        /// The bundle's model id.
        bundle: String,
        /// The library's.
        library: String,
    },
    /// A section whose content cannot be decoded.
    #[error("the {section} section cannot be read: {detail}")]
    Malformed {
        /// Which section.
        section: String,
        /// What the decoder said.
        detail: String,
    },
}
