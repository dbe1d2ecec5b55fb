//! The behaviour every [`Store`] must show, run against an empty store: `MemStore` in the unit
//! tests, the app's IndexedDB store under wasm-bindgen-test.

use super::*;
use crate::pdf::{Report, TextLine};
use crate::search::chunk::ChunkParams;
use crate::search::retrieve::Search;

fn info(model: &str) -> BuildInfo {
    BuildInfo {
        model_id: model.into(),
        dim: 3,
        chunk_params: ChunkParams::default(),
    }
}

fn document(id: &str, words: &[&str]) -> StoredDocument {
    let chunks: Vec<Chunk> = words
        .iter()
        .map(|w| Chunk {
            page: 1,
            char_start: 0,
            char_end: w.chars().count(),
            heading_path: vec!["Intro".into()],
            text: (*w).into(),
        })
        .collect();
    let vectors = (0..chunks.len())
        .map(|i| {
            let mut v = vec![0.0; 3];
            v[i % 3] = 1.0;
            v
        })
        .collect();
    StoredDocument {
        meta: DocumentMeta {
            build: None,
            about: Default::default(),
            id: id.into(),
            name: format!("{id}.pdf"),
            title: Some("Título".into()),
            pages: 1,
            report: Report::Complete,
        },
        pdf: format!("%PDF-1.7 {id}").into_bytes(),
        pages: vec![PageText {
            number: 1,
            text: words.join("\n"),
            furniture: Vec::new(),
            lines: words
                .iter()
                .scan(0u32, |at, w| {
                    let start = *at;
                    *at += w.chars().count() as u32 + 1;
                    Some(TextLine {
                        start,
                        end: *at - 1,
                        rect: [72.0, 700.0 - 14.0 * start as f32, 300.0, 712.0],
                    })
                })
                .collect(),
        }],
        chunks,
        vectors,
    }
}

fn check(ok: bool, what: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(what.to_string())
    }
}

/// Runs every check; the first failure is returned in words.
pub async fn run<S: Store>(store: &S) -> Result<(), String> {
    let e = |e: Error| e.to_string();
    check(
        store.meta().await.map_err(e)?.is_none(),
        "empty store has meta",
    )?;
    check(
        store.documents().await.map_err(e)?.is_empty(),
        "empty store has documents",
    )?;

    // A pending file waits until its document is stored.
    let pending = PendingFile {
        id: "a".into(),
        name: "a.pdf".into(),
        size: 4,
    };
    store
        .put_pending(&pending, &[0, 1, 2, 255])
        .await
        .map_err(e)?;
    check(
        store.pending().await.map_err(e)? == vec![pending.clone()],
        "pending listed",
    )?;
    check(
        store.pending_bytes("a").await.map_err(e)? == Some(vec![0, 1, 2, 255]),
        "pending bytes read back",
    )?;

    // Opening an empty library records its parameters.
    let Opened::Ready { corpus, .. } = open_library(store, &info("m1")).await.map_err(e)? else {
        return Err("empty library reported a mismatch".into());
    };
    check(corpus.documents().is_empty(), "empty library has documents")?;

    let a = document("a", &["alpha", "beta"]);
    let b = document("b", &["gamma"]);
    store.put_document(&a).await.map_err(e)?;
    store.put_document(&b).await.map_err(e)?;
    check(
        store.pending().await.map_err(e)?.is_empty(),
        "stored document still pending",
    )?;
    check(
        store.pending_bytes("a").await.map_err(e)?.is_none(),
        "stored document's pending bytes kept",
    )?;
    let mut listed = store.documents().await.map_err(e)?;
    listed.sort_by(|x, y| x.id.cmp(&y.id));
    check(
        listed == vec![a.meta.clone(), b.meta.clone()],
        "documents listed",
    )?;
    check(
        store.load_document("a").await.map_err(e)? == Some((a.chunks.clone(), a.vectors.clone())),
        "chunks and vectors read back",
    )?;
    check(
        store.pdf("b").await.map_err(e)? == Some(b.pdf.clone()),
        "pdf read back",
    )?;
    check(
        store.page("a", 1).await.map_err(e)?.as_ref() == a.pages.first(),
        "page text and lines read back",
    )?;
    check(
        store.page("a", 2).await.map_err(e)?.is_none()
            && store.page("z", 1).await.map_err(e)?.is_none(),
        "a page not stored is none",
    )?;
    check(
        store.pages("a").await.map_err(e)? == a.pages
            && store.pages("z").await.map_err(e)?.is_empty(),
        "all pages read back",
    )?;
    check(
        store.load_document("zz").await.map_err(e)?.is_none(),
        "unknown id found",
    )?;

    // No saved index yet: rebuilt from the documents, then saved and restored as is.
    let Opened::Ready {
        corpus, restored, ..
    } = open_library(store, &info("m1")).await.map_err(e)?
    else {
        return Err("same model reported a mismatch".into());
    };
    check(!restored, "index restored before one was saved")?;
    check(corpus.chunks().len() == 3, "rebuilt corpus has every chunk")?;
    let hit = corpus.search(&Search::new("gamma", None).depth(5));
    check(
        hit.first()
            .map(|h| &corpus.documents()[corpus.chunks()[h.chunk as usize].doc as usize].id)
            == Some(&b.meta.id),
        "search finds the second document",
    )?;
    let Opened::Ready {
        corpus, restored, ..
    } = open_library(store, &info("m1")).await.map_err(e)?
    else {
        return Err("same model reported a mismatch".into());
    };
    check(
        restored && corpus.chunks().len() == 3,
        "saved index restored",
    )?;

    // A document's record changed (its date, its versions): the saved index is stale, the
    // text stays; a record for a document not stored is not made.
    let mut dated = b.meta.clone();
    dated.about.group = Some("versions".into());
    store.put_meta(&dated).await.map_err(e)?;
    let mut stranger = b.meta.clone();
    stranger.id = "zz".into();
    store.put_meta(&stranger).await.map_err(e)?;
    let mut listed = store.documents().await.map_err(e)?;
    listed.sort_by(|x, y| x.id.cmp(&y.id));
    check(
        listed == vec![a.meta.clone(), dated.clone()],
        "changed record read back (and none made for an unknown id)",
    )?;
    check(
        store.index().await.map_err(e)?.is_none(),
        "saved index kept after a record changed",
    )?;
    check(
        store.load_document("b").await.map_err(e)? == Some((b.chunks.clone(), b.vectors.clone())),
        "chunks changed with the record",
    )?;
    store.put_meta(&b.meta).await.map_err(e)?;

    // Another model: never mixed.
    check(
        matches!(open_library(store, &info("m2")).await.map_err(e)?, Opened::Mismatch { stored } if stored.info.model_id == "m1"),
        "model mismatch detected",
    )?;

    // Deleting drops the document everywhere and makes the saved index stale.
    store.delete_document("a").await.map_err(e)?;
    check(
        store.documents().await.map_err(e)? == vec![b.meta.clone()],
        "deleted document listed",
    )?;
    check(
        store.page("a", 1).await.map_err(e)?.is_none()
            && store.pages("a").await.map_err(e)?.is_empty(),
        "deleted document's pages kept",
    )?;
    check(
        store.pdf("a").await.map_err(e)?.is_none(),
        "deleted pdf kept",
    )?;
    check(
        store.load_document("a").await.map_err(e)?.is_none(),
        "deleted chunks kept",
    )?;
    let Opened::Ready {
        corpus, restored, ..
    } = open_library(store, &info("m1")).await.map_err(e)?
    else {
        return Err("mismatch after delete".into());
    };
    check(
        !restored && corpus.chunks().len() == 1,
        "stale index not rebuilt after delete",
    )?;

    // A stale index that survived (e.g. written by an older tab) is not trusted either.
    let old = corpus.to_bytes().map_err(e)?;
    store.put_document(&a).await.map_err(e)?;
    store.set_index(&old).await.map_err(e)?;
    let Opened::Ready {
        corpus, restored, ..
    } = open_library(store, &info("m1")).await.map_err(e)?
    else {
        return Err("mismatch after re-adding".into());
    };
    check(!restored && corpus.chunks().len() == 3, "stale index used")?;

    store.put_pending(&pending, &[7]).await.map_err(e)?;
    store.delete_pending("a").await.map_err(e)?;
    check(
        store.pending().await.map_err(e)?.is_empty(),
        "pending not deleted",
    )?;
    check(
        store.pending_bytes("a").await.map_err(e)?.is_none(),
        "pending bytes not deleted",
    )?;

    // A model switch: begun, one document re-embedded, then the tab closes. Nothing is
    // lost: the moved document opens, the other waits (stale) with its PDF, and the
    // switch ends only when both are moved.
    let m2 = |doc: &StoredDocument| {
        let mut d = doc.clone();
        d.meta.build = Some(info("m2"));
        d.vectors = d
            .vectors
            .iter()
            .map(|v| v.iter().map(|x| x * 0.5).collect())
            .collect();
        d
    };
    begin_switch(store, &info("m2")).await.map_err(e)?;
    check(
        matches!(
            open_library(store, &info("m1")).await.map_err(e)?,
            Opened::Mismatch { .. }
        ),
        "the old model opens a library being moved away from it",
    )?;
    store.put_document(&m2(&a)).await.map_err(e)?;
    check(
        !finish_switch(store).await.map_err(e)?,
        "switch ended early",
    )?;
    let Opened::Ready { corpus, stale, .. } = open_library(store, &info("m2")).await.map_err(e)?
    else {
        return Err("the target model does not open a library being moved to it".into());
    };
    check(
        corpus.documents().len() == 1 && corpus.documents()[0].id == "a",
        "only moved documents are searched",
    )?;
    check(
        stale.iter().map(|d| d.id.as_str()).collect::<Vec<_>>() == ["b"],
        "the document not moved yet is listed as stale",
    )?;
    check(
        store.pdf("b").await.map_err(e)?.is_some(),
        "a stale document keeps its PDF",
    )?;
    store.put_document(&m2(&b)).await.map_err(e)?;
    check(finish_switch(store).await.map_err(e)?, "switch did not end")?;
    let meta = store.meta().await.map_err(e)?.ok_or("meta lost")?;
    check(
        meta.info == info("m2") && meta.next.is_none(),
        "library now of the new model",
    )?;
    let Opened::Ready { corpus, stale, .. } = open_library(store, &info("m2")).await.map_err(e)?
    else {
        return Err("mismatch after the switch".into());
    };
    check(
        corpus.documents().len() == 2 && stale.is_empty(),
        "both documents searched after the switch",
    )?;

    store.put_pending(&pending, &[7]).await.map_err(e)?;
    store.clear().await.map_err(e)?;
    check(
        store.meta().await.map_err(e)?.is_none(),
        "meta survives clear",
    )?;
    check(
        store.documents().await.map_err(e)?.is_empty(),
        "documents survive clear",
    )?;
    check(
        store.pending().await.map_err(e)?.is_empty(),
        "pending survives clear",
    )?;
    check(
        store.index().await.map_err(e)?.is_none(),
        "index survives clear",
    )?;
    check(
        store.pdf("b").await.map_err(e)?.is_none(),
        "pdf survives clear",
    )?;
    Ok(())
}
