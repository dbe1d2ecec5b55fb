//! IndexedDB through `indexed_db_futures`: the database schema and record access.

use indexed_db_futures::database::Database;
use indexed_db_futures::prelude::*;
use indexed_db_futures::transaction::TransactionMode;
use serde::{de::DeserializeOwned, Serialize};

use crate::AppResult;

/// Schema version; bump it with an upgrade step when the stores change.
pub const SCHEMA_VERSION: u32 = 1;

/// The object stores (see ARCHITECTURE.md, "Persist").
pub const STORES: [&str; 5] = ["documents", "chunks", "vectors", "index", "meta"];

/// An open Fonte database.
pub struct Db {
    inner: Database,
}

impl Db {
    /// Opens (creating or upgrading) the database called `name`.
    pub async fn open(name: &str) -> AppResult<Self> {
        let inner = Database::open(name)
            .with_version(SCHEMA_VERSION)
            .with_on_upgrade_needed(|_event, db| {
                for store in STORES {
                    if !db.object_store_names().any(|n| n == store) {
                        db.create_object_store(store).build()?;
                    }
                }
                Ok(())
            })
            .await?;
        Ok(Self { inner })
    }

    /// Writes `value` under `key` in `store`, in its own transaction.
    pub async fn put<T: Serialize>(&self, store: &str, key: &str, value: &T) -> AppResult<()> {
        let tx = self
            .inner
            .transaction(store)
            .with_mode(TransactionMode::Readwrite)
            .build()?;
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

    /// Closes the connection (so the database can be deleted or upgraded).
    pub fn close(self) {
        self.inner.close();
    }
}

/// Deletes the database called `name` (tests, "clear everything").
pub async fn delete(name: &str) -> AppResult<()> {
    Database::delete_by_name(name)?.await?;
    Ok(())
}
