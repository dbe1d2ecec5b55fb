//! Thin adapters from browser services to what the core needs. Each converts types and errors
//! at the edge and holds no logic of its own.

pub mod assets;
pub mod browser_llm;
pub mod embed;
pub mod embed_pool;
pub mod embed_worker;
pub mod files;
pub mod hosted;
pub mod idb;
pub mod libraries;
pub mod llm;
pub mod offline;
pub mod pdfview;
pub mod reader;
pub mod storage;
pub mod translator;
pub mod worker;
