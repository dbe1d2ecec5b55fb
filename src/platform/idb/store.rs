//! [`IdbStore`]: the library's records in the object stores of [`super::STORES`], one
//! transaction per document.

use std::rc::Rc;

use fonte_core::pdf::PageText;
use fonte_core::search::chunk::Chunk;
use fonte_core::search::corpus::DocumentMeta;
use fonte_core::store::{
    chunks_from_bytes, chunks_to_bytes, pages_from_bytes, pages_to_bytes, vectors_from_bytes,
    vectors_to_bytes, LibraryMeta, PendingFile, Store, StoredDocument,
};
use indexed_db_futures::prelude::*;
use indexed_db_futures::typed_array::Uint8ArraySlice;
use wasm_bindgen::JsValue;

use super::{Db, DbEvent, DOCUMENT_STORES, INDEX_KEY, META_KEY, STORES};

/// What a change of a document's record (not its text) writes.
const META_STORES: [&str; 2] = ["documents", "index"];
use crate::AppResult;

/// The library in IndexedDB.
pub struct IdbStore {
    pub(super) db: Db,
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

    /// Stores the PDF of a document stored without it (a hosted bundle's, fetched when one
    /// of its pages is first shown).
    pub async fn put_pdf(&self, id: &str, pdf: &[u8]) -> AppResult<()> {
        let blob = blob_of(pdf)?;
        let tx = self.db.write("pdfs")?;
        tx.object_store("pdfs")?
            .put(blob)
            .with_key(id.to_string())
            .primitive()?
            .await?;
        tx.commit().await?;
        Ok(())
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
        let pdf = blob_of(&doc.pdf)?;
        let tx = self.db.write(DOCUMENT_STORES)?;
        tx.object_store("documents")?
            .put(&doc.meta)
            .with_key(id.to_string())
            .serde()?
            .await?;
        tx.object_store("pdfs")?
            .put(pdf)
            .with_key(id.to_string())
            .primitive()?
            .await?;
        for (store, bytes) in [
            ("chunks", &chunks),
            ("vectors", &vectors),
            ("pages", &pages),
        ] {
            tx.object_store(store)?
                .put(Uint8ArraySlice::new(bytes))
                .with_key(id.to_string())
                .primitive()?
                .await?;
        }
        tx.object_store("pending")?.delete(id.to_string()).await?;
        tx.object_store("pending_bytes")?
            .delete(id.to_string())
            .await?;
        tx.object_store("index")?.delete(INDEX_KEY).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn remove_document(&self, id: &str) -> AppResult<()> {
        let tx = self.db.write(DOCUMENT_STORES)?;
        for store in DOCUMENT_STORES.iter().filter(|s| **s != "index") {
            tx.object_store(store)?.delete(id.to_string()).await?;
        }
        tx.object_store("index")?.delete(INDEX_KEY).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn write_meta(&self, meta: &DocumentMeta) -> AppResult<()> {
        let id = meta.id.to_string();
        let tx = self.db.write(META_STORES)?;
        let documents = tx.object_store("documents")?;
        // Only a stored document's record is replaced: one deleted meanwhile stays deleted.
        let known: Option<DocumentMeta> = documents.get(id.clone()).serde()?.await?;
        if known.is_some() {
            documents.put(meta).with_key(id).serde()?.await?;
            tx.object_store("index")?.delete(INDEX_KEY).await?;
        }
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

    /// A pending file's listing and its bytes, in one transaction.
    async fn keep_pending(&self, file: &PendingFile, bytes: &[u8]) -> AppResult<()> {
        let tx = self.db.write(["pending", "pending_bytes"])?;
        tx.object_store("pending")?
            .put(file)
            .with_key(file.id.to_string())
            .serde()?
            .await?;
        tx.object_store("pending_bytes")?
            .put(blob_of(bytes)?)
            .with_key(file.id.to_string())
            .primitive()?
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn forget_pending(&self, id: &str) -> AppResult<()> {
        let tx = self.db.write(["pending", "pending_bytes"])?;
        tx.object_store("pending")?.delete(id.to_string()).await?;
        tx.object_store("pending_bytes")?
            .delete(id.to_string())
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// A pending file's bytes; those of a file kept before schema 5 are in its listing.
    async fn read_pending(&self, id: &str) -> AppResult<Option<Vec<u8>>> {
        if let Some(bytes) = self.db.get_file("pending_bytes", id).await? {
            return Ok(Some(bytes));
        }
        #[derive(serde::Deserialize)]
        struct Before5 {
            #[serde(default, with = "serde_bytes")]
            bytes: Option<Vec<u8>>,
        }
        let old: Option<Before5> = self.db.get("pending", id).await?;
        Ok(old.and_then(|o| o.bytes))
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

/// `bytes` as a `Blob`: IndexedDB keeps a Blob's bytes beside the record, so a file is not
/// bound by Chromium's limit on one serialized value (about 127 MiB; a 180 MB PDF stored as
/// a typed array is refused with "The serialized keys and/or value are too large").
fn blob_of(bytes: &[u8]) -> AppResult<JsValue> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts)
        .map_err(|e| crate::AppError::Storage(crate::AppError::js_text(&e)))?;
    Ok(blob.into())
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
        self.db.get_file("pdfs", id).await.map_err(core)
    }
    async fn page(&self, id: &str, number: u32) -> fonte_core::Result<Option<PageText>> {
        let Some(bytes) = self.db.get_bytes("pages", id).await.map_err(core)? else {
            return Ok(None);
        };
        let pages = pages_from_bytes(&bytes)?;
        Ok(pages.into_iter().find(|p| p.number == number))
    }
    async fn pages(&self, id: &str) -> fonte_core::Result<Vec<PageText>> {
        match self.db.get_bytes("pages", id).await.map_err(core)? {
            Some(bytes) => pages_from_bytes(&bytes),
            None => Ok(Vec::new()),
        }
    }
    async fn put_document(&self, doc: &StoredDocument) -> fonte_core::Result<()> {
        self.write_document(doc).await.map_err(core)
    }
    async fn put_meta(&self, meta: &DocumentMeta) -> fonte_core::Result<()> {
        self.write_meta(meta).await.map_err(core)
    }
    async fn delete_document(&self, id: &str) -> fonte_core::Result<()> {
        self.remove_document(id).await.map_err(core)
    }
    async fn put_pending(&self, file: &PendingFile, bytes: &[u8]) -> fonte_core::Result<()> {
        self.keep_pending(file, bytes).await.map_err(core)
    }
    async fn pending(&self) -> fonte_core::Result<Vec<PendingFile>> {
        self.db.get_all("pending").await.map_err(core)
    }
    async fn pending_bytes(&self, id: &str) -> fonte_core::Result<Option<Vec<u8>>> {
        self.read_pending(id).await.map_err(core)
    }
    async fn delete_pending(&self, id: &str) -> fonte_core::Result<()> {
        self.forget_pending(id).await.map_err(core)
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
