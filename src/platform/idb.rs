//! IndexedDB through `indexed_db_futures`: the database schema and [`IdbStore`], the browser's
//! [`Store`].
//!
//! Bulk data (PDFs, chunks, vectors, the saved index) is stored as `Uint8Array`s: IndexedDB
//! clones a byte array in one copy, where an array of numbers or objects is walked value by
//! value. Small records (document list, meta, pending files) are serde objects.

use fonte_core::chunk::Chunk;
use fonte_core::corpus::DocumentMeta;
use fonte_core::pdf::PageText;
use fonte_core::store::{
    chunks_from_bytes, chunks_to_bytes, pages_from_bytes, pages_to_bytes, vectors_from_bytes,
    vectors_to_bytes, LibraryMeta, PendingFile, Store, StoredDocument,
};
use indexed_db_futures::database::Database;
use indexed_db_futures::database::ObjectStoreName;
use indexed_db_futures::internals::SystemRepr;
use indexed_db_futures::prelude::*;
use indexed_db_futures::transaction::{Transaction, TransactionMode};
use indexed_db_futures::typed_array::{Uint8Array, Uint8ArraySlice};
use serde::{de::DeserializeOwned, Serialize};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::AppResult;

/// Schema version; bump it with an upgrade step when the stores change. 3 added `pages`
/// (documents stored before have none: their passages are marked by matching words).
pub const SCHEMA_VERSION: u32 = 3;

/// The object stores (see ARCHITECTURE.md, "Persist").
pub const STORES: [&str; 8] = [
    "documents",
    "pdfs",
    "chunks",
    "vectors",
    "pages",
    "pending",
    "index",
    "meta",
];

/// Stores a document touches, written together in one transaction.
const DOCUMENT_STORES: [&str; 7] = [
    "documents",
    "pdfs",
    "chunks",
    "vectors",
    "pages",
    "pending",
    "index",
];

const INDEX_KEY: &str = "corpus";
const META_KEY: &str = "library";

/// An open Fonte database.
pub struct Db {
    inner: Database,
}

/// What another tab did to this tab's connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DbEvent {
    /// Opening waits: another tab holds an older schema open (it is asked to close it).
    Blocked,
    /// Another tab upgraded the schema: this connection was closed so that tab is not
    /// blocked; this page must be reloaded to use the library.
    ClosedForUpgrade,
}

impl Db {
    /// Opens (creating or upgrading) the database called `name`.
    pub async fn open(name: &str) -> AppResult<Self> {
        Self::open_with(name, Rc::new(|_| {})).await
    }

    /// [`Db::open`], telling `on_event` what other tabs do to the connection: two tabs never
    /// wait on each other forever.
    pub async fn open_with(name: &str, on_event: Rc<dyn Fn(DbEvent)>) -> AppResult<Self> {
        let blocked = on_event.clone();
        let inner = Database::open(name)
            .with_version(SCHEMA_VERSION)
            .with_on_blocked(move |_event| {
                blocked(DbEvent::Blocked);
                Ok(())
            })
            .with_on_upgrade_needed(|_event, db| {
                for store in STORES {
                    if !db.object_store_names().any(|n| n == store) {
                        db.create_object_store(store).build()?;
                    }
                }
                Ok(())
            })
            .await?;
        // A newer schema asked for by another tab: give way at once (the page says so).
        let sys: &web_sys::IdbDatabase = inner.as_sys();
        let db = sys.clone();
        let handler = Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
            db.close();
            on_event(DbEvent::ClosedForUpgrade);
        });
        sys.set_onversionchange(Some(handler.as_ref().unchecked_ref()));
        // Lives as long as the connection.
        handler.forget();
        Ok(Self { inner })
    }

    /// A read-write transaction over `stores`.
    fn write<S: ObjectStoreName>(&self, stores: S) -> AppResult<Transaction<'_>> {
        Ok(self
            .inner
            .transaction(stores)
            .with_mode(TransactionMode::Readwrite)
            .build()?)
    }

    /// Writes `value` under `key` in `store`, in its own transaction.
    pub async fn put<T: Serialize>(&self, store: &str, key: &str, value: &T) -> AppResult<()> {
        let tx = self.write(store)?;
        tx.object_store(store)?
            .put(value)
            .with_key(key.to_string())
            .serde()?
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Reads the record under `key` in `store`, if any.
    pub async fn get<T: DeserializeOwned>(&self, store: &str, key: &str) -> AppResult<Option<T>> {
        let tx = self.inner.transaction(store).build()?;
        let value = tx
            .object_store(store)?
            .get(key.to_string())
            .serde()?
            .await?;
        Ok(value)
    }

    async fn get_bytes(&self, store: &str, key: &str) -> AppResult<Option<Vec<u8>>> {
        let tx = self.inner.transaction(store).build()?;
        let value: Option<Uint8Array> = tx
            .object_store(store)?
            .get(key.to_string())
            .primitive()?
            .await?;
        Ok(value.map(|v| v.to_vec()))
    }

    /// Every record of `store` that decodes; one that does not is left out (and said on the
    /// console), so one damaged record does not make the whole store unreadable.
    async fn get_all<T: DeserializeOwned>(&self, store: &str) -> AppResult<Vec<T>> {
        let tx = self.inner.transaction(store).build()?;
        let all = tx.object_store(store)?.get_all::<T>().serde()?.await?;
        let mut out = Vec::new();
        for record in all {
            match record {
                Ok(r) => out.push(r),
                Err(e) => web_sys::console::warn_1(
                    &format!("Fonte: a record of {store} cannot be read and is skipped: {e}")
                        .into(),
                ),
            }
        }
        Ok(out)
    }

    /// Closes the connection (so the database can be deleted or upgraded).
    pub fn close(self) {
        self.inner.close();
    }
}

/// Deletes the database called `name` (tests).
pub async fn delete(name: &str) -> AppResult<()> {
    Database::delete_by_name(name)?.await?;
    Ok(())
}

/// The library in IndexedDB.
pub struct IdbStore {
    db: Db,
}

impl IdbStore {
    /// Opens the library database called `name`.
    pub async fn open(name: &str) -> AppResult<Self> {
        Ok(Self {
            db: Db::open(name).await?,
        })
    }

    /// [`IdbStore::open`], telling `on_event` what other tabs do ([`DbEvent`]).
    pub async fn open_with(name: &str, on_event: Rc<dyn Fn(DbEvent)>) -> AppResult<Self> {
        Ok(Self {
            db: Db::open_with(name, on_event).await?,
        })
    }

    /// Closes the connection.
    pub fn close(self) {
        self.db.close();
    }

    async fn write_document(&self, doc: &StoredDocument) -> AppResult<()> {
        let id = doc.meta.id.clone();
        let chunks = chunks_to_bytes(&doc.chunks)?;
        let vectors = vectors_to_bytes(&doc.vectors);
        // One record per document: a page is shown after reading its whole PDF anyway.
        let pages = pages_to_bytes(&doc.pages)?;
        let tx = self.db.write(DOCUMENT_STORES)?;
        tx.object_store("documents")?
            .put(&doc.meta)
            .with_key(id.clone())
            .serde()?
            .await?;
        for (store, bytes) in [
            ("pdfs", &doc.pdf),
            ("chunks", &chunks),
            ("vectors", &vectors),
            ("pages", &pages),
        ] {
            tx.object_store(store)?
                .put(Uint8ArraySlice::new(bytes))
                .with_key(id.clone())
                .primitive()?
                .await?;
        }
        tx.object_store("pending")?.delete(id.clone()).await?;
        tx.object_store("index")?.delete(INDEX_KEY).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn remove_document(&self, id: &str) -> AppResult<()> {
        let tx = self.db.write(DOCUMENT_STORES)?;
        for store in ["documents", "pdfs", "chunks", "vectors", "pages", "pending"] {
            tx.object_store(store)?.delete(id.to_string()).await?;
        }
        tx.object_store("index")?.delete(INDEX_KEY).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn read_document(&self, id: &str) -> AppResult<Option<(Vec<Chunk>, Vec<Vec<f32>>)>> {
        let Some(chunks) = self.db.get_bytes("chunks", id).await? else {
            return Ok(None);
        };
        let Some(vectors) = self.db.get_bytes("vectors", id).await? else {
            return Ok(None);
        };
        let chunks = chunks_from_bytes(&chunks)?;
        let vectors = if chunks.is_empty() {
            Vec::new()
        } else {
            let dim = vectors.len() / 4 / chunks.len();
            vectors_from_bytes(&vectors, dim)?
        };
        Ok(Some((chunks, vectors)))
    }

    async fn wipe(&self) -> AppResult<()> {
        let tx = self.db.write(STORES)?;
        for store in STORES {
            tx.object_store(store)?.clear()?.await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn delete_key(&self, store: &str, key: &str) -> AppResult<()> {
        let tx = self.db.write(store)?;
        tx.object_store(store)?.delete(key.to_string()).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn put_bytes(&self, store: &str, key: &str, bytes: &[u8]) -> AppResult<()> {
        let tx = self.db.write(store)?;
        tx.object_store(store)?
            .put(Uint8ArraySlice::new(bytes))
            .with_key(key.to_string())
            .primitive()?
            .await?;
        tx.commit().await?;
        Ok(())
    }
}

fn core(e: crate::AppError) -> fonte_core::Error {
    match e {
        crate::AppError::Core(e) => e,
        crate::AppError::StorageFull(why) => fonte_core::Error::StoreFull(why),
        crate::AppError::Storage(why) => fonte_core::Error::Store(why),
        other => fonte_core::Error::Store(other.to_string()),
    }
}

impl Store for IdbStore {
    async fn meta(&self) -> fonte_core::Result<Option<LibraryMeta>> {
        self.db.get("meta", META_KEY).await.map_err(core)
    }
    async fn set_meta(&self, meta: &LibraryMeta) -> fonte_core::Result<()> {
        self.db.put("meta", META_KEY, meta).await.map_err(core)
    }
    async fn documents(&self) -> fonte_core::Result<Vec<DocumentMeta>> {
        self.db.get_all("documents").await.map_err(core)
    }
    async fn load_document(
        &self,
        id: &str,
    ) -> fonte_core::Result<Option<(Vec<Chunk>, Vec<Vec<f32>>)>> {
        self.read_document(id).await.map_err(core)
    }
    async fn pdf(&self, id: &str) -> fonte_core::Result<Option<Vec<u8>>> {
        self.db.get_bytes("pdfs", id).await.map_err(core)
    }
    async fn page(&self, id: &str, number: u32) -> fonte_core::Result<Option<PageText>> {
        let Some(bytes) = self.db.get_bytes("pages", id).await.map_err(core)? else {
            return Ok(None);
        };
        let pages = pages_from_bytes(&bytes)?;
        Ok(pages.into_iter().find(|p| p.number == number))
    }
    async fn put_document(&self, doc: &StoredDocument) -> fonte_core::Result<()> {
        self.write_document(doc).await.map_err(core)
    }
    async fn delete_document(&self, id: &str) -> fonte_core::Result<()> {
        self.remove_document(id).await.map_err(core)
    }
    async fn put_pending(&self, file: &PendingFile) -> fonte_core::Result<()> {
        self.db.put("pending", &file.id, file).await.map_err(core)
    }
    async fn pending(&self) -> fonte_core::Result<Vec<PendingFile>> {
        self.db.get_all("pending").await.map_err(core)
    }
    async fn delete_pending(&self, id: &str) -> fonte_core::Result<()> {
        self.delete_key("pending", id).await.map_err(core)
    }
    async fn index(&self) -> fonte_core::Result<Option<Vec<u8>>> {
        self.db.get_bytes("index", INDEX_KEY).await.map_err(core)
    }
    async fn set_index(&self, bytes: &[u8]) -> fonte_core::Result<()> {
        self.put_bytes("index", INDEX_KEY, bytes)
            .await
            .map_err(core)
    }
    async fn clear(&self) -> fonte_core::Result<()> {
        self.wipe().await.map_err(core)
    }
}
