//! IndexedDB through `indexed_db_futures`: the database schema and [`Db`] here, and
//! [`IdbStore`], the browser's [`fonte_core::store::Store`], in [`store`].
//!
//! Bulk data (PDFs, chunks, vectors, the saved index) is stored as `Uint8Array`s: IndexedDB
//! clones a byte array in one copy, where an array of numbers or objects is walked value by
//! value. Small records (document list, meta, pending files) are serde objects.

use indexed_db_futures::database::Database;
use indexed_db_futures::database::ObjectStoreName;
use indexed_db_futures::internals::SystemRepr;
use indexed_db_futures::prelude::*;
use indexed_db_futures::transaction::{Transaction, TransactionMode};
use indexed_db_futures::typed_array::Uint8Array;
use serde::{de::DeserializeOwned, Serialize};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::AppResult;

/// Schema version; bump it with an upgrade step when the stores change. 3 added `pages`
/// (documents stored before have none: their passages are marked by matching words); 4 added
/// `history` (the answers kept); 5 added `pending_bytes` (a pending file's bytes apart from its
/// listing, so opening a library lists its pending files without reading them).
pub const SCHEMA_VERSION: u32 = 5;

/// The object stores (see ARCHITECTURE.md, "Persist").
pub const STORES: [&str; 10] = [
    "documents",
    "pdfs",
    "chunks",
    "vectors",
    "pages",
    "pending",
    "pending_bytes",
    "index",
    "meta",
    "history",
];

/// Stores a document touches, written together in one transaction.
const DOCUMENT_STORES: [&str; 8] = [
    "documents",
    "pdfs",
    "chunks",
    "vectors",
    "pages",
    "pending",
    "pending_bytes",
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

    /// A file's bytes under `key` in `store`: a `Blob` (how files are stored), or the typed
    /// array an older version stored.
    async fn get_file(&self, store: &str, key: &str) -> AppResult<Option<Vec<u8>>> {
        let tx = self.inner.transaction(store).build()?;
        let value: Option<JsValue> = tx
            .object_store(store)?
            .get(key.to_string())
            .primitive()?
            .await?;
        let Some(value) = value.filter(|v| !v.is_undefined() && !v.is_null()) else {
            return Ok(None);
        };
        match value.dyn_into::<web_sys::Blob>() {
            Ok(blob) => {
                let buffer = wasm_bindgen_futures::JsFuture::from(blob.array_buffer())
                    .await
                    .map_err(|e| crate::AppError::Storage(crate::AppError::js_text(&e)))?;
                Ok(Some(js_sys::Uint8Array::new(&buffer).to_vec()))
            }
            Err(value) => Ok(Some(js_sys::Uint8Array::new(&value).to_vec())),
        }
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

mod history;
mod store;
pub use history::Saved;
pub use store::IdbStore;
