//! Thin adapters from browser services to what the core needs. Each converts types and errors
//! at the edge and holds no logic of its own.

pub mod assets;
pub mod embed;
pub mod idb;
pub mod llm;
pub mod pdfview;
pub mod reader;
pub mod storage;
