//! Bundles on real PDFs (`../shared/fixtures/pdfs`) with the fake encoder: a round trip keeps
//! every document, chunk, vector and page text; each hostile bundle of the issue is refused
//! with its own reason; and a mutation fuzz (byte flips, truncations, section swaps) never
//! panics and never returns a bundle that is not the one written.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fonte_core::embed::fake::FakeEncoder;
use fonte_core::ingest::prepare;
use fonte_core::ingest::reader::{Reader, Reply, Request};
use fonte_core::search::chunk::ChunkParams;
use fonte_core::search::corpus::BuildInfo;
use fonte_core::search::corpus::ChunkRecord;
use fonte_core::share::bundle::{
    limits, read, read_accepting, write, Accepted, BundleError, Meta, MAGIC, MINOR,
};
use fonte_core::store::StoredDocument;
use sha2::{Digest, Sha256};

fn pdf(rel: &str) -> Vec<u8> {
    let path = std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
        .join("fixtures/pdfs")
        .join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn info() -> BuildInfo {
    BuildInfo {
        model_id: "fake".into(),
        dim: FakeEncoder::DIM,
        chunk_params: ChunkParams::default(),
    }
}

fn document(rel: &str) -> StoredDocument {
    let bytes = pdf(rel);
    let name = rel.rsplit('/').next().unwrap();
    let p = prepare(name, &bytes, None, ChunkParams::default(), &|t| {
        t.split_whitespace().count()
    });
    let mut enc = FakeEncoder::new("fake");
    StoredDocument {
        vectors: p.chunks.iter().map(|c| enc.embed(&c.text)).collect(),
        meta: p.meta,
        pdf: bytes,
        chunks: p.chunks,
        pages: p.pages,
    }
}

fn docs() -> Vec<StoredDocument> {
    [
        "encrypted/crazyones.pdf",
        "pt/abntex2-modelo-artigo.pdf",
        "encrypted/unencrypted.pdf",
    ]
    .map(document)
    .to_vec()
}

fn meta(pdfs: bool) -> Meta {
    Meta {
        title: "Fixtures".into(),
        description: "three PDFs".into(),
        created: "2026-12-01T00:00:00Z".into(),
        pdfs,
    }
}

/// The section table's entries: (kind, doc, offset, stored length) per section.
fn table(b: &[u8]) -> Vec<(u32, u32, usize, usize)> {
    let n = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    (0..n)
        .map(|i| {
            let at = 16 + 72 * i;
            let u32_ = |o: usize| u32::from_le_bytes(b[at + o..at + o + 4].try_into().unwrap());
            let u64_ =
                |o: usize| u64::from_le_bytes(b[at + o..at + o + 8].try_into().unwrap()) as usize;
            (u32_(0), u32_(4), u64_(16), u64_(24))
        })
        .collect()
}

/// Rewrites the header checksum after a deliberate edit of the table (so the check under
/// test is the one that fires, not the header's).
fn reseal(b: &mut [u8]) {
    let n = table(b).len();
    let end = 16 + 72 * n;
    let sum = Sha256::digest(&b[..end]);
    b[end..end + 32].copy_from_slice(&sum);
}

/// Replaces section `kind`'s content by `raw` deflated (or stored), fixing its entry.
fn replace(b: &[u8], kind: u32, raw: &[u8], declared: Option<u64>) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(raw).unwrap();
    let stored = enc.finish().unwrap();
    let entries = table(b);
    let (i, &(_, _, off, len)) = entries
        .iter()
        .enumerate()
        .find(|(_, e)| e.0 == kind)
        .unwrap();
    let mut out = b[..off].to_vec();
    out.extend_from_slice(&stored);
    out.extend_from_slice(&b[off + len..]);
    let delta = stored.len() as i64 - len as i64;
    let at = 16 + 72 * i;
    out[at + 24..at + 32].copy_from_slice(&(stored.len() as u64).to_le_bytes());
    out[at + 32..at + 40].copy_from_slice(&declared.unwrap_or(raw.len() as u64).to_le_bytes());
    out[at + 40..at + 72].copy_from_slice(&Sha256::digest(&stored));
    for (j, &(_, _, o, _)) in entries.iter().enumerate() {
        if o > off {
            let a = 16 + 72 * j;
            out[a + 16..a + 24].copy_from_slice(&((o as i64 + delta) as u64).to_le_bytes());
        }
    }
    reseal(&mut out);
    out
}

fn manifest_json(b: &[u8]) -> serde_json::Value {
    serde_json::to_value(read(b).unwrap().manifest).unwrap()
}

#[test]
fn a_round_trip_keeps_everything_and_a_bundle_without_pdfs_is_smaller() {
    let docs = docs();
    let bytes = write(&meta(true), &info(), &docs).unwrap();
    let back = read(&bytes).unwrap();
    // Vectors come back as half floats (format 1.1): each within cosine 0.9999 of its own,
    // every other part exactly.
    for (b, d) in back.documents.iter().zip(&docs) {
        assert_eq!(b.vectors.len(), d.vectors.len());
        for (x, y) in b.vectors.iter().zip(&d.vectors) {
            assert!(fonte_core::embed::cosine(x, y) > 0.9999);
        }
    }
    assert_eq!(back.documents, as_written(&docs));
    assert_eq!(back.info(), info());
    assert_eq!(back.manifest.title, "Fixtures");
    assert_eq!(
        back.manifest.chunks,
        docs.iter().map(|d| d.chunks.len()).sum::<usize>()
    );
    let lean = write(&meta(false), &info(), &docs).unwrap();
    let lean_back = read(&lean).unwrap();
    assert!(lean_back.documents.iter().all(|d| d.pdf.is_empty()));
    assert_eq!(lean_back.documents[1].chunks, docs[1].chunks);
    let pdfs: usize = docs.iter().map(|d| d.pdf.len()).sum();
    assert!(lean.len() + pdfs <= bytes.len());
    // A selection: a bundle of one document holds only it.
    let one = read(&write(&meta(true), &info(), &docs[1..2]).unwrap()).unwrap();
    assert_eq!(one.documents, as_written(&docs[1..2]));
}

/// `docs` with their vectors rounded to half floats, as a bundle stores them.
fn as_written(docs: &[StoredDocument]) -> Vec<StoredDocument> {
    let mut docs = docs.to_vec();
    for d in &mut docs {
        for v in &mut d.vectors {
            for x in v.iter_mut() {
                *x = half::f16::from_f32(*x).to_f32();
            }
        }
    }
    docs
}

#[test]
fn each_hostile_bundle_is_refused_with_its_reason() {
    let good = write(&meta(true), &info(), &docs()).unwrap();
    // Truncated anywhere: header, table, a section.
    for cut in [4, 20, good.len() / 2, good.len() - 1] {
        let e = read(&good[..cut]).unwrap_err();
        assert!(
            matches!(e, BundleError::Truncated { .. } | BundleError::NotABundle),
            "{cut}: {e}"
        );
    }
    let mut wrong = good.clone();
    wrong[0] = b'X';
    assert_eq!(read(&wrong).unwrap_err(), BundleError::NotABundle);
    let mut future = good.clone();
    future[8..10].copy_from_slice(&2u16.to_le_bytes());
    assert!(matches!(
        read(&future).unwrap_err(),
        BundleError::Version { major: 2, .. }
    ));
    assert!(read(&future)
        .unwrap_err()
        .to_string()
        .contains("update Fonte"));
    // A flipped byte in each section (and in the table).
    for (kind, _, off, len) in table(&good) {
        let mut flipped = good.clone();
        flipped[off + len / 2] ^= 0x40;
        assert!(
            matches!(read(&flipped).unwrap_err(), BundleError::Checksum { .. }),
            "kind {kind}"
        );
    }
    // A section kind this reader does not know: in a bundle of a later minor version, "update
    // Fonte"; in one of this version, a broken file.
    for (minor, newer) in [(MINOR + 1, true), (MINOR, false)] {
        let mut b = good.clone();
        b[10..12].copy_from_slice(&minor.to_le_bytes());
        b[16..20].copy_from_slice(&99u32.to_le_bytes());
        reseal(&mut b);
        let e = read(&b).unwrap_err();
        assert_eq!(matches!(e, BundleError::Version { .. }), newer, "{e}");
    }
    let mut header = good.clone();
    header[16 + 72 + 20] ^= 1;
    assert_eq!(
        read(&header).unwrap_err(),
        BundleError::Checksum {
            section: "header".into()
        }
    );
    // Counts that do not agree, each through a rewritten manifest.
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut m = manifest_json(&good);
        f(&mut m);
        read(&replace(&good, 1, &serde_json::to_vec(&m).unwrap(), None)).unwrap_err()
    };
    let e = edit(&|m| m["dim"] = 32.into());
    assert!(
        matches!(&e, BundleError::Inconsistent(w) if w.contains("vector bytes")),
        "{e}"
    );
    let e = edit(&|m| {
        m["chunks"] = 1_000_000_000u64.into();
        m["documents"][0]["chunks"] = (1_000_000_000u64 - 2).into();
    });
    assert!(
        matches!(&e, BundleError::TooLarge { what, .. } if what.contains("chunks")),
        "{e}"
    );
    let e = edit(&|m| {
        let c = m["documents"][0]["chunks"].as_u64().unwrap();
        m["documents"][0]["chunks"] = (c + 1).into();
        m["documents"][1]["chunks"] = (m["documents"][1]["chunks"].as_u64().unwrap() - 1).into();
    });
    assert!(matches!(e, BundleError::Inconsistent(_)), "{e}");
    let e = edit(&|m| m["documents"][2]["pages"] = 0.into());
    assert!(
        matches!(&e, BundleError::Inconsistent(w) if w.contains("page")),
        "{e}"
    );
    let e = edit(&|m| m["documents"][1]["id"] = m["documents"][0]["id"].clone());
    assert!(
        matches!(&e, BundleError::Inconsistent(w) if w.contains("unique")),
        "{e}"
    );
    // A chunk pointing at a document that does not exist.
    let mut b = read(&good).unwrap();
    let mut chunks: Vec<fonte_core::search::corpus::ChunkRecord> = Vec::new();
    for (i, d) in b.documents.iter().enumerate() {
        chunks.extend(
            d.chunks
                .iter()
                .map(|c| fonte_core::search::corpus::ChunkRecord {
                    doc: i as u32,
                    chunk: c.clone(),
                }),
        );
    }
    chunks.last_mut().unwrap().doc = 7;
    let e = read(&replace(
        &good,
        2,
        &postcard::to_allocvec(&chunks).unwrap(),
        None,
    ))
    .unwrap_err();
    assert!(matches!(e, BundleError::Inconsistent(_)), "{e}");
    // A section that inflates past its declared length (a decompression bomb).
    let pages: Vec<_> = b
        .documents
        .iter_mut()
        .map(|d| std::mem::take(&mut d.pages))
        .collect();
    let raw = postcard::to_allocvec(&pages).unwrap();
    let e = read(&replace(&good, 4, &raw, Some(raw.len() as u64 / 2))).unwrap_err();
    assert!(matches!(e, BundleError::Inflate { .. }), "{e}");
    let e = read(&replace(&good, 4, &vec![0u8; 50 << 20], Some(1000))).unwrap_err();
    assert!(matches!(e, BundleError::Inflate { .. }), "{e}");
    // A PDF that is not the document's.
    let (_, _, off, len) = table(&good).into_iter().find(|e| e.0 == 6).unwrap();
    let mut other = good.clone();
    other[off + len - 3] ^= 1;
    let at = 16 + 72 * table(&good).iter().position(|e| e.0 == 6).unwrap();
    let sum = Sha256::digest(&other[off..off + len]);
    other[at + 40..at + 72].copy_from_slice(&sum);
    reseal(&mut other);
    let e = read(&other).unwrap_err();
    assert!(
        matches!(&e, BundleError::Inconsistent(w) if w.contains("not the file")),
        "{e}"
    );
    assert_eq!(&good[..8], MAGIC);
}

/// Section kinds of the format (docs/BUNDLE.md).
const MANIFEST: u32 = 1;
const CHUNKS: u32 = 2;
const VECTORS_F16: u32 = 7;

/// `good` with its manifest edited by `edit`.
fn with_manifest(good: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let mut m = manifest_json(good);
    edit(&mut m);
    replace(good, MANIFEST, &serde_json::to_vec(&m).unwrap(), None)
}

/// `good` with its first chunk edited by `edit`.
fn with_first_chunk(good: &[u8], edit: impl FnOnce(&mut ChunkRecord)) -> Vec<u8> {
    let mut chunks: Vec<ChunkRecord> = read(good)
        .unwrap()
        .documents
        .iter()
        .enumerate()
        .flat_map(|(i, d)| {
            d.chunks.iter().map(move |c| ChunkRecord {
                doc: i as u32,
                chunk: c.clone(),
            })
        })
        .collect();
    edit(&mut chunks[0]);
    replace(good, CHUNKS, &postcard::to_allocvec(&chunks).unwrap(), None)
}

#[test]
fn the_sharing_doors_caps_refuse_a_bundle_before_inflating_it() {
    let good = write(&meta(true), &info(), &docs()).unwrap();
    let too_large = |b: &[u8]| match read(b) {
        Err(BundleError::TooLarge { what, .. }) => what,
        other => panic!("{other:?}"),
    };
    // Sections that would decompress to more than the page can hold, refused at the table
    // (each within the per-section cap): nothing inflated.
    let declared = replace(&good, VECTORS_F16, &[0; 64], Some(limits::TOTAL));
    assert!(too_large(&declared).contains("in all"));
    // Texts past their caps.
    let title = with_manifest(&good, |m| m["title"] = "t".repeat(limits::NAME + 1).into());
    assert!(too_large(&title).contains("title"));
    let name = with_manifest(&good, |m| {
        m["documents"][0]["name"] = "n".repeat(limits::NAME + 1).into()
    });
    assert!(too_large(&name).contains("document name"));
    // A document's dates and versions (format 1.2) past their caps.
    let group = with_manifest(&good, |m| {
        m["documents"][0]["about"] = serde_json::json!({ "group": "g".repeat(limits::NAME + 1) })
    });
    assert!(too_large(&group).contains("version group"));
    let date = serde_json::json!({ "date": { "year": 2024, "month": null, "day": null }, "source": "InfoCreated" });
    let dates = with_manifest(&good, |m| {
        m["documents"][0]["about"] = serde_json::json!({ "found": vec![date; limits::DATES + 1] })
    });
    assert!(too_large(&dates).contains("dates of one document"));
    let text = with_first_chunk(&good, |c| c.chunk.text = "w ".repeat(limits::CHUNK_TEXT));
    assert!(too_large(&text).contains("chunk text"));
    // A chunk whose text is not its page's at its range (what a citation would show).
    let other = with_first_chunk(&good, |c| c.chunk.text = "zebra quokka".into());
    assert!(
        matches!(read(&other), Err(BundleError::Inconsistent(w)) if w.contains("not the text of its page"))
    );
    // A chunk whose range runs past its page's text: a citation would open nothing.
    let past = with_first_chunk(&good, |c| c.chunk.char_end = 1 << 20);
    assert!(
        matches!(read(&past), Err(BundleError::Inconsistent(w)) if w.contains("past the text"))
    );
    // Another model: refused from the manifest when the reader names the models it can use,
    // before the vectors (here a section that does not even inflate) are touched.
    let foreign = replace(
        &with_manifest(&good, |m| m["model_id"] = "some-other-model".into()),
        VECTORS_F16,
        &[0; 64],
        Some(1 << 20),
    );
    let fake = Accepted {
        model_id: "fake".into(),
        dim: FakeEncoder::DIM,
    };
    assert!(matches!(
        read_accepting(&foreign, std::slice::from_ref(&fake)),
        Err(BundleError::OtherModel { bundle, .. }) if bundle == "some-other-model"
    ));
    assert!(matches!(
        read(&foreign),
        Err(BundleError::Inflate { .. }) | Err(BundleError::Inconsistent(_))
    ));
    // The same model with another dimension is another model too.
    let wide = Accepted {
        dim: 2 * FakeEncoder::DIM,
        ..fake.clone()
    };
    assert!(matches!(
        read_accepting(&good, &[wide]),
        Err(BundleError::OtherModel { .. })
    ));
    assert!(read_accepting(&good, &[fake]).is_ok());
}

/// crazyones.pdf as a bundle of the app's default model (real text; vectors that are all one
/// direction, which no check can tell from real ones): the base of the hostile fixtures the
/// page must refuse for what they are, not for their model.
fn e5_bundle(edit: impl FnOnce(&mut StoredDocument)) -> Vec<u8> {
    const DIM: usize = 384;
    let mut doc = document("encrypted/crazyones.pdf");
    doc.vectors = vec![vec![1.0 / (DIM as f32).sqrt(); DIM]; doc.chunks.len()];
    doc.pdf = Vec::new();
    edit(&mut doc);
    let info = BuildInfo {
        model_id: "multilingual-e5-small-enpt-int8".into(),
        dim: DIM,
        chunk_params: ChunkParams::default(),
    };
    let meta = Meta {
        title: "Forged".into(),
        description: "A hostile fixture (tests/fixtures/bundles/README.md).".into(),
        created: "2026-12-07T00:00:00Z".into(),
        pdfs: false,
    };
    write(&meta, &info, &[doc]).unwrap()
}

/// Other text under crazyones.pdf's SHA-256, without the PDF (forged page texts, chunks that
/// are those texts): valid as a bundle, consistent within itself, hostile by what it claims.
/// The browser test imports it and then drops the real PDF (tests/e2e/share.test.mjs).
fn forged_text_bundle() -> Vec<u8> {
    const FORGED: &str = "zebra quokka marmalade: a forged passage";
    e5_bundle(|doc| {
        for p in &mut doc.pages {
            p.text = FORGED.into();
            p.lines.clear();
        }
        for c in &mut doc.chunks {
            c.text = FORGED.into();
            c.char_start = 0;
            c.char_end = FORGED.chars().count();
        }
    })
}

/// Each committed hostile fixture: its file name and bytes. The browser test imports each
/// and expects it refused with its reason (or, for the forged text, marked).
fn hostile_fixtures() -> Vec<(&'static str, Vec<u8>)> {
    let good = e5_bundle(|_| {});
    vec![
        ("forged-text.fonte", forged_text_bundle()),
        // One section declaring more than a section may hold (2 GiB).
        (
            "section-2gib.fonte",
            replace(&good, VECTORS_F16, &[0; 64], Some((2 << 30) + 1)),
        ),
        // Vectors declared as 262,144 x 4,096 f32 (the 4 GiB vector bomb of issue 46),
        // refused from the table before any inflating.
        (
            "vector-bomb.fonte",
            replace(&good, VECTORS_F16, &[0; 64], Some(1 << 32)),
        ),
        (
            "huge-title.fonte",
            with_manifest(&good, |m| m["title"] = "t".repeat(100_000).into()),
        ),
        // A model this app does not have, its vectors declared huge: refused from the manifest.
        (
            "foreign-model.fonte",
            replace(
                &with_manifest(&good, |m| m["model_id"] = "some-other-model".into()),
                VECTORS_F16,
                &[0; 64],
                Some(900 << 20),
            ),
        ),
        ("truncated.fonte", good[..good.len() / 2].to_vec()),
        (
            "range-past-page.fonte",
            with_first_chunk(&good, |c| c.chunk.char_end = 1 << 20),
        ),
    ]
}

#[test]
fn the_hostile_bundle_fixtures_are_what_their_generator_writes() {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/bundles/hostile");
    for (name, bytes) in hostile_fixtures() {
        let path = dir.join(name);
        if std::env::var_os("FONTE_UPDATE_FIXTURES").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        let committed = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (FONTE_UPDATE_FIXTURES=1 writes it)",
                path.display()
            )
        });
        assert!(
            committed == bytes,
            "{name} differs from what the generator writes"
        );
        // Each refused with its own reason, as the page's reader worker reads it (its
        // installed models accepted); the forged text alone reads.
        let e5 = Accepted {
            model_id: "multilingual-e5-small-enpt-int8".into(),
            dim: 384,
        };
        let got = read_accepting(&bytes, std::slice::from_ref(&e5));
        let ok = match name {
            "forged-text.fonte" => got.is_ok(),
            "section-2gib.fonte" => matches!(got, Err(BundleError::TooLarge { .. })),
            "vector-bomb.fonte" => matches!(got, Err(BundleError::TooLarge { .. })),
            "huge-title.fonte" => {
                matches!(got, Err(BundleError::TooLarge { ref what, .. }) if what.contains("title"))
            }
            "foreign-model.fonte" => matches!(got, Err(BundleError::OtherModel { .. })),
            "truncated.fonte" => matches!(got, Err(BundleError::Truncated { .. })),
            "range-past-page.fonte" => matches!(got, Err(BundleError::Inconsistent(_))),
            _ => false,
        };
        assert!(ok, "{name}: {got:?}");
    }
    // Valid as a bundle: what makes it hostile is only that its text is not the PDF's.
    let forged = read(&forged_text_bundle()).unwrap();
    assert_eq!(
        forged.documents[0].meta.id,
        document("encrypted/crazyones.pdf").meta.id
    );
    assert!(forged.documents[0].pdf.is_empty());
}

#[test]
fn mutated_bundles_never_panic() {
    let good = write(&meta(true), &info(), &docs()[..1]).unwrap();
    let original = read(&good).unwrap();
    let mut reader = Reader::new();
    let secs: u64 = std::env::var("FONTE_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let until = Instant::now() + Duration::from_secs(secs);
    // A small xorshift: reproducible without a dependency.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut tried = 0;
    while Instant::now() < until {
        let mut b = good.clone();
        match next() % 3 {
            0 => {
                for _ in 0..1 + next() % 4 {
                    let i = (next() as usize) % b.len();
                    b[i] ^= 1 << (next() % 8);
                }
            }
            1 => b.truncate((next() as usize) % b.len()),
            _ => {
                // Swap two sections' table entries (offsets and all), resealed.
                let n = table(&b).len();
                let (x, y) = ((next() as usize) % n, (next() as usize) % n);
                for k in 0..72 {
                    b.swap(16 + 72 * x + k, 16 + 72 * y + k);
                }
                reseal(&mut b);
            }
        }
        let direct = read(&b);
        if let Ok(back) = &direct {
            // Only a change the format cannot see (a swap of equal entries) may pass.
            assert_eq!(*back, original, "a mutated bundle read as something else");
        }
        // The reader worker's path (what the page runs) answers the same.
        let accept = Vec::new();
        let through_worker = match reader.handle(Request::ReadBundle { accept }, &b, &mut |_| {}) {
            Reply::Bundle(r) => r.map(|b| *b),
            other => panic!("{other:?}"),
        };
        assert_eq!(through_worker, direct);
        tried += 1;
    }
    eprintln!("{tried} mutations in {secs} s");
}

#[test]
fn the_format_fixtures_still_read() {
    // Each written by `fonte bundle` when its format was current (tests/fixtures/bundles/
    // README.md); never regenerated: a reader that cannot read one has broken the format.
    for version in ["1.0", "1.1"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(
            "../../tests/fixtures/bundles/format-{version}.fonte"
        ));
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(format!("{}.{}", bytes[8], bytes[10]), version);
        let b = read(&bytes).unwrap();
        assert_eq!(
            b.manifest.title,
            format!("Compatibility fixture, format {version}")
        );
        assert_eq!(b.manifest.model_id, "all-MiniLM-L6-v2-int8");
        assert_eq!(
            (b.manifest.dim, b.manifest.chunks, b.documents.len()),
            (384, 3, 1)
        );
        let d = &b.documents[0];
        assert_eq!(d.meta.name, "crazyones.pdf");
        assert_eq!(d.pdf, pdf("encrypted/crazyones.pdf"));
        assert!(
            d.chunks[0].text.contains("crazy ones"),
            "{}",
            d.chunks[0].text
        );
        assert!(d.pages[0].lines.len() > 5);
        assert!(d.vectors.iter().all(|v| {
            let n: f32 = v.iter().map(|x| x * x).sum();
            (n - 1.0).abs() < 1e-3
        }));
    }
}

#[test]
fn a_bundle_of_format_1_2_carries_dates_and_versions_into_the_library() {
    use fonte_core::library::Library;
    use fonte_core::pdf::dates::PubDate;
    use fonte_core::search::corpus::{DateFrom, Standing};
    use fonte_core::store::MemStore;
    // Two editions of one generated document (tests/fixtures/versions), grouped, the older one
    // dated by `--date` (tests/fixtures/bundles/README.md).
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/bundles/format-1.2.fonte");
    let bytes = std::fs::read(path).unwrap();
    assert_eq!((bytes[8], bytes[10]), (1, 2));
    let b = read(&bytes).unwrap();
    let about = |name: &str| {
        b.documents
            .iter()
            .find(|d| d.meta.name == name)
            .unwrap()
            .meta
            .about
            .clone()
    };
    let old = about("house-rules-2023.pdf");
    assert_eq!(
        old.published.map(|p| (p.date, p.from)),
        Some((
            PubDate {
                year: 2023,
                month: Some(3),
                day: Some(6)
            },
            DateFrom::Given
        ))
    );
    assert_eq!(old.group, about("house-rules-2025.pdf").group);
    assert!(
        old.group.is_some() && old.added.is_none(),
        "when added is the importer's"
    );
    // Imported, the older edition is superseded in the importing library too.
    let info = BuildInfo {
        model_id: "all-MiniLM-L6-v2-int8".into(),
        dim: 384,
        chunk_params: b.manifest.chunk_params,
    };
    let (lib, _) = run(Library::open(MemStore::default(), &info)).unwrap();
    run(lib.import(&bytes, &mut |_, _| {})).unwrap();
    let corpus = lib.corpus();
    let n = |name: &str| {
        corpus
            .documents()
            .iter()
            .position(|d| d.name == name)
            .unwrap()
    };
    let standings = corpus.standings();
    assert_eq!(
        standings[n("house-rules-2023.pdf")],
        Standing::Superseded {
            by: n("house-rules-2025.pdf") as u32
        }
    );
    assert!(corpus.documents().iter().all(|d| d.about.added.is_some()));
    // The older formats have nothing of it: every document alone.
    for version in ["1.0", "1.1"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(
            "../../tests/fixtures/bundles/format-{version}.fonte"
        ));
        let b = read(&std::fs::read(path).unwrap()).unwrap();
        assert!(b
            .documents
            .iter()
            .all(|d| d.meta.about == Default::default()));
    }
}

fn run<T>(f: impl std::future::Future<Output = T>) -> T {
    pollster::block_on(f)
}

#[test]
fn export_clear_import_gives_the_same_search_and_a_bad_bundle_changes_nothing() {
    use fonte_core::library::Library;
    use fonte_core::search::retrieve::Search;
    use fonte_core::share::bundle::Imported;
    use fonte_core::store::MemStore;
    let (lib, _) = run(Library::open(MemStore::default(), &info())).unwrap();
    for d in docs() {
        run(lib.add(d)).unwrap();
    }
    // 20 queries, as the round trip asks.
    let queries = [
        "the crazy ones",
        "margens do documento",
        "password",
        "artigo científico",
        "rebels",
        "the misfits and the troublemakers",
        "round pegs in square holes",
        "they change things",
        "push the human race forward",
        "encryption test",
        "resumo e palavras-chave",
        "referências bibliográficas",
        "introdução",
        "citações no texto",
        "tabelas e figuras",
        "conclusão",
        "modelo de artigo abnTeX2",
        "título e autores",
        "seções do documento",
        "normas da ABNT",
    ];
    let mut enc = FakeEncoder::new("fake");
    let search =
        |lib: &Library<MemStore>, enc: &mut FakeEncoder| -> Vec<Vec<(fonte_core::DocId, u32)>> {
            queries
                .iter()
                .map(|q| {
                    let v = enc.embed(q);
                    let c = lib.corpus();
                    c.search(&Search::new(q, Some(&v)))
                        .into_iter()
                        .take(5)
                        .map(|h| {
                            let r = &c.chunks()[h.chunk as usize];
                            (
                                c.documents()[r.doc as usize].id.clone(),
                                r.chunk.char_start as u32,
                            )
                        })
                        .collect()
                })
                .collect()
        };
    let before = search(&lib, &mut enc);
    let bytes = run(lib.export(None, &meta(true))).unwrap();
    let ids = [lib.documents()[1].id.clone()];
    let selection = read(&run(lib.export(Some(&ids), &meta(false))).unwrap()).unwrap();
    assert_eq!(selection.documents.len(), 1);
    assert_eq!(selection.documents[0].meta.id, ids[0]);
    run(lib.clear()).unwrap();
    let mut progress = Vec::new();
    let got = run(lib.import(&bytes, &mut |d, t| progress.push((d, t)))).unwrap();
    assert_eq!(got.added.len(), 3);
    assert_eq!(progress.last(), Some(&(3, 3)));
    assert_eq!(search(&lib, &mut enc), before);
    // Again: everything is already there.
    let again: Imported = run(lib.import(&bytes, &mut |_, _| {})).unwrap();
    assert_eq!((again.added.len(), again.skipped.len()), (0, 3));
    // A damaged bundle, and one of another model, change nothing.
    let mut bad = bytes.clone();
    let n = bad.len();
    bad[n - 10] ^= 1;
    assert!(run(lib.import(&bad, &mut |_, _| {})).is_err());
    let other = BuildInfo {
        model_id: "other".into(),
        ..info()
    };
    let foreign = write(&meta(false), &other, &docs()[..1]).unwrap();
    let e = run(lib.import(&foreign, &mut |_, _| {})).unwrap_err();
    assert!(
        e.to_string()
            .contains("built with other, this library with fake"),
        "{e}"
    );
    assert_eq!(lib.documents().len(), 3);
    assert_eq!(search(&lib, &mut enc), before);
}

#[test]
fn a_hosted_bundle_reads_from_its_header_and_index_range_and_each_pdf_alone() {
    use fonte_core::share::bundle::{head_len, Layout};
    let docs = docs();
    let good = write(&meta(true), &info(), &docs).unwrap();
    // What a reader of a hosted bundle fetches: the first 16 bytes say how long the header
    // is; the header says where the index lies; each PDF is fetched when first shown.
    let head = &good[..head_len(&good[..16]).unwrap() as usize];
    let layout = Layout::parse(head, good.len() as u64).unwrap();
    let r = layout.index_range();
    assert!(
        r.end < good.len() as u64 / 2,
        "the index is a small part of the file"
    );
    let bundle = layout
        .assemble(r.start, &good[r.start as usize..r.end as usize], &[])
        .unwrap();
    let whole = read(&good).unwrap();
    assert_eq!(bundle.manifest, whole.manifest);
    for (i, (d, w)) in bundle.documents.iter().zip(&whole.documents).enumerate() {
        assert!(
            d.pdf.is_empty(),
            "PDFs outside the window are left to fetch"
        );
        assert_eq!(
            (&d.chunks, &d.vectors, &d.pages),
            (&w.chunks, &w.vectors, &w.pages)
        );
        let p = layout.pdf_range(i).unwrap();
        let slice = &good[p.start as usize..p.end as usize];
        assert_eq!(
            layout
                .open_pdf(&bundle.manifest.documents[i], i, slice)
                .unwrap(),
            w.pdf
        );
        // A damaged PDF range is refused, never stored.
        let mut bad = slice.to_vec();
        let mid = bad.len() / 2;
        bad[mid] ^= 1;
        assert!(matches!(
            layout.open_pdf(&bundle.manifest.documents[i], i, &bad),
            Err(BundleError::Checksum { .. })
        ));
    }
    // A header alone is refused for what it lacks, not read as a whole bundle.
    assert!(matches!(read(head), Err(BundleError::Truncated { .. })));
    // A window that misses part of the index is refused.
    assert!(matches!(
        layout.assemble(
            r.start + 1,
            &good[r.start as usize + 1..r.end as usize],
            &[]
        ),
        Err(BundleError::Truncated { .. })
    ));
}

#[test]
fn the_reader_worker_validates_a_bundle_and_says_why_it_refuses_one() {
    use fonte_core::ingest::reader::{decode, encode};
    // The page hands a dropped or picked bundle to the reader worker, which answers with the
    // validated bundle through the worker's message encoding, or the reason.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/bundles/format-1.1.fonte");
    let bytes = std::fs::read(path).unwrap();
    let mut reader = Reader::new();
    let reply = reader.handle(
        Request::ReadBundle { accept: Vec::new() },
        &bytes,
        &mut |_| {},
    );
    let reply: Reply = decode(&encode(&reply).unwrap()).unwrap();
    match reply {
        Reply::Bundle(Ok(bundle)) => assert_eq!(*bundle, read(&bytes).unwrap()),
        other => panic!("{other:?}"),
    }
    let mut damaged = bytes.clone();
    let at = damaged.len() / 2;
    damaged[at] ^= 0xff;
    let refused = reader.handle(
        Request::ReadBundle { accept: Vec::new() },
        &damaged,
        &mut |_| {},
    );
    assert_eq!(refused, Reply::Bundle(Err(read(&damaged).unwrap_err())));
    assert!(matches!(
        reader.handle(
            Request::ReadBundle { accept: Vec::new() },
            b"not a bundle",
            &mut |_| {}
        ),
        Reply::Bundle(Err(BundleError::NotABundle | BundleError::Truncated { .. }))
    ));
}
