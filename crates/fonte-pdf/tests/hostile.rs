//! Hostile and mutated PDFs: every one ends as a report (partial or rejected with its reason),
//! with zero panics (counted by a panic hook, so a panic the reader caught still fails),
//! within the browser's per-file time limit and memory budget (measured by a counting
//! allocator). docs/RELIABILITY.md lists the classes, caps and figures.
//!
//! The mutation fuzz test runs for `FONTE_FUZZ_SECS` seconds (default 10; scripts/test.sh
//! gives it 60); `FONTE_FUZZ_SEED` replays a run. Inputs that break a bound are written to
//! `$FONTE_FUZZ_OUT` (default `target/fuzz-crashers/`); add them to `tests/fixtures/fuzz/` once
//! fixed, where every run replays them.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use common::hostile;
use fonte_pdf::{extract, Extracted, Limits, PartialReason, RejectReason, Report};

/// Counts live heap bytes and their peak, so each input's memory can be bounded.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size > layout.size() {
                let grow = new_size - layout.size();
                let now = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The browser's ingestion worker stops a file after this long (src/worker).
const TIME_LIMIT: Duration = Duration::from_secs(20);
/// ... and past this much memory for one file.
const MEMORY_LIMIT: usize = 1 << 30;

static PANICS: AtomicUsize = AtomicUsize::new(0);
static HOOK: Once = Once::new();
// Tests of this file measure one input at a time (the counters are process-wide).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn count_panics() {
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            default(info);
        }));
    });
}

/// What reading one input cost.
struct Cost {
    doc: Extracted,
    panics: usize,
    time: Duration,
    peak: usize,
}

/// Reads `bytes` as the reader worker does, measuring panics, time and peak memory (chunking,
/// bounded by the text cap, is fonte-core's).
fn read(bytes: &[u8]) -> Cost {
    count_panics();
    let panics = PANICS.load(Ordering::SeqCst);
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let start = Instant::now();
    let doc = extract(bytes, None, Limits::default());
    let time = start.elapsed();
    Cost {
        doc,
        panics: PANICS.load(Ordering::SeqCst) - panics,
        time,
        peak: PEAK.load(Ordering::Relaxed).saturating_sub(before),
    }
}

/// The workspace root (the shared fixtures beside it, `target/`).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// This crate's own fixtures.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn shared_pdfs() -> PathBuf {
    std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared"))
        .join("fixtures/pdfs")
}

fn text(doc: &Extracted) -> String {
    doc.pages
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn hostile_fixtures_are_committed_as_built() {
    let dir = fixtures().join("hostile");
    let update = std::env::var_os("FONTE_UPDATE_FIXTURES").is_some();
    if update {
        std::fs::create_dir_all(&dir).unwrap();
    }
    for (name, bytes) in hostile::all() {
        let path = dir.join(name);
        if update {
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
            "{name} differs from what tests/common/hostile.rs builds"
        );
        assert!(bytes.len() < 256 << 10, "{name}: {} bytes", bytes.len());
    }
}

#[test]
fn every_hostile_fixture_ends_in_a_report_within_its_bounds() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let partial =
        |reason| move |r: &Report| matches!(r, Report::Partial { reason: x, .. } if *x == reason);
    type Check = Box<dyn Fn(&Report) -> bool>;
    let any: fn() -> Check = || Box::new(|_| true);
    let expected: Vec<(&str, Check)> = vec![
        ("descendant-fonts-empty.pdf", any()),
        ("tj-20mb.pdf", Box::new(partial(PartialReason::TooComplex))),
        (
            "contents-repeated.pdf",
            Box::new(partial(PartialReason::TooComplex)),
        ),
        (
            "predictor-huge.pdf",
            Box::new(partial(PartialReason::PartlyDamaged)),
        ),
        (
            "runlength-bomb.pdf",
            Box::new(partial(PartialReason::PartlyDamaged)),
        ),
        ("cid-widths.pdf", any()),
        ("font-size-huge.pdf", any()),
        ("page-count-huge.pdf", Box::new(|r| *r == Report::Complete)),
        (
            "forms-per-do.pdf",
            Box::new(partial(PartialReason::TooComplex)),
        ),
    ];
    let built = hostile::all();
    assert_eq!(built.len(), expected.len());
    for ((name, bytes), (want, check)) in built.iter().zip(&expected) {
        assert_eq!(name, want);
        let cost = read(bytes);
        eprintln!(
            "{name}: {:?}, {} pages, {:.2} s, peak {} MiB",
            cost.doc.report,
            cost.doc.page_count,
            cost.time.as_secs_f64(),
            cost.peak >> 20
        );
        assert_eq!(cost.panics, 0, "{name} panicked");
        assert!(check(&cost.doc.report), "{name}: {:?}", cost.doc.report);
        assert!(
            text(&cost.doc).contains("Survives"),
            "{name}: the readable text is kept"
        );
        assert!(cost.time < TIME_LIMIT, "{name}: {:?}", cost.time);
        assert!(cost.peak < MEMORY_LIMIT, "{name}: {} MiB", cost.peak >> 20);
    }
    let claimed = read(
        &built
            .iter()
            .find(|f| f.0 == "page-count-huge.pdf")
            .unwrap()
            .1,
    );
    assert_eq!(claimed.doc.page_count, 1, "the page tree holds one page");
}

#[test]
fn streams_that_lost_their_endstream_cost_one_pass_over_the_file() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // 3,000 pages whose content streams have a wrong /Length and no "endstream", then 1 MiB of
    // stream data ending in the file's only "endstream". Each stream searched for its own end
    // was 3,000 passes over the file (a 200 MB file would take hours); each ending at the
    // next one ("endstream" or an object header) from one pass over the file is linear.
    let pages = 3_000;
    let mut b = hostile::Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj(Vec::new());
    let font = b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    let mut kids = Vec::new();
    for i in 0..pages {
        let content = if i == 0 {
            b.stream("", b"BT /F1 12 Tf 72 720 Td (Survives) Tj ET")
        } else {
            b.obj("<< /Length 5 >>\nstream\nBT /F1 12 Tf 72 700 Td (Lost its end) Tj ET")
        };
        kids.push(b.obj(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << \
             /F1 {font} 0 R >> >> /Contents {content} 0 R >>"
        )));
    }
    b.stream("", &vec![b'%'; 1 << 20]);
    let kids: Vec<String> = kids.iter().map(|k| format!("{k} 0 R")).collect();
    b.objects[1] = format!(
        "<< /Type /Pages /Kids [{}] /Count {pages} >>",
        kids.join(" ")
    )
    .into_bytes();
    let cost = read(&b.finish(catalog));
    eprintln!(
        "{:?}, {} pages, {:.2} s, peak {} MiB",
        cost.doc.report,
        cost.doc.page_count,
        cost.time.as_secs_f64(),
        cost.peak >> 20
    );
    assert_eq!(cost.panics, 0);
    assert_eq!(cost.doc.page_count, pages);
    let text = text(&cost.doc);
    assert!(text.contains("Survives"));
    // Each damaged stream's own text is read, up to its object's end.
    assert_eq!(text.matches("Lost its end").count(), pages as usize - 1);
    assert!(cost.time < TIME_LIMIT, "{:?}", cost.time);
    assert!(cost.peak < MEMORY_LIMIT, "{} MiB", cost.peak >> 20);
}

#[test]
fn every_malformed_fixture_reads_with_zero_panics() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared_pdfs().join("malformed"))
        .expect("shared fixtures (set FONTE_SHARED)")
        .map(|e| e.unwrap().path())
        .collect();
    files.extend(fuzz_fixtures());
    files.sort();
    assert!(files.len() >= 7, "{files:?}");
    for path in files {
        let cost = read(&std::fs::read(&path).unwrap());
        assert_eq!(cost.panics, 0, "{} panicked", path.display());
        assert!(
            cost.time < TIME_LIMIT,
            "{}: {:?}",
            path.display(),
            cost.time
        );
        assert!(
            cost.peak < MEMORY_LIMIT,
            "{}: {} MiB",
            path.display(),
            cost.peak >> 20
        );
    }
}

fn fuzz_fixtures() -> Vec<PathBuf> {
    std::fs::read_dir(fixtures().join("fuzz"))
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default()
}

#[test]
fn a_file_over_the_size_limit_is_rejected_before_it_is_parsed() {
    let bytes = hostile::all().remove(0).1;
    let limits = Limits {
        max_file_bytes: 100,
        ..Limits::default()
    };
    let doc = extract(&bytes, None, limits);
    assert_eq!(
        doc.report,
        Report::Rejected {
            reason: RejectReason::TooLarge {
                bytes: bytes.len() as u64,
                max: 100
            }
        }
    );
}

#[test]
fn the_text_of_a_document_is_capped_and_the_rest_reported() {
    let path = shared_pdfs().join("en/R-FAQ.pdf");
    let bytes = std::fs::read(path).unwrap();
    let whole = extract(&bytes, None, Limits::default());
    let limits = Limits {
        max_text_chars: 10_000,
        ..Limits::default()
    };
    let capped = extract(&bytes, None, limits);
    let chars: usize = capped.pages.iter().map(|p| p.text.chars().count()).sum();
    assert!(chars <= 10_000, "{chars}");
    match &capped.report {
        Report::Partial { pages, reason } => {
            assert_eq!(*reason, PartialReason::TextLimit);
            assert_eq!(pages.first(), Some(&(capped.pages.len() as u32 + 1)));
            assert_eq!(pages.last(), Some(&whole.page_count));
        }
        other => panic!("{other:?}"),
    }
}

/// A small deterministic generator (xorshift64*): the fuzz run is replayed from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One mutation of `pdf`: byte flips, a truncation, a duplicated object, an inflated number,
/// or a spliced run of bytes.
fn mutate(pdf: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = pdf.to_vec();
    for _ in 0..1 + rng.below(3) {
        if out.is_empty() {
            break;
        }
        match rng.below(5) {
            0 => {
                for _ in 0..1 + rng.below(16) {
                    let at = rng.below(out.len());
                    out[at] ^= 1 << rng.below(8);
                }
            }
            1 => out.truncate(rng.below(out.len())),
            2 => {
                // Duplicate an object (`N 0 obj ... endobj`) somewhere else.
                let starts: Vec<usize> = out
                    .windows(7)
                    .enumerate()
                    .filter(|(_, w)| w == b" 0 obj\n")
                    .map(|(i, _)| i)
                    .collect();
                if let Some(&s) = starts.get(rng.below(starts.len())) {
                    let s = out[..s]
                        .iter()
                        .rposition(|b| b.is_ascii_whitespace())
                        .map_or(0, |p| p + 1);
                    let e = out[s..]
                        .windows(6)
                        .position(|w| w == b"endobj")
                        .map_or(out.len(), |p| s + p + 6);
                    let copy = out[s..e].to_vec();
                    let at = rng.below(out.len());
                    out.splice(at..at, copy);
                }
            }
            3 => {
                // Replace a number with a huge, negative or boundary one.
                let digits: Vec<usize> = out
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.is_ascii_digit())
                    .map(|(i, _)| i)
                    .collect();
                if let Some(&at) = digits.get(rng.below(digits.len())) {
                    let end = out[at..]
                        .iter()
                        .position(|b| !b.is_ascii_digit())
                        .map_or(out.len(), |p| at + p);
                    let big: &[&[u8]] = &[
                        b"4294967295",
                        b"2147483648",
                        b"-1",
                        b"0",
                        b"99999999999999999999",
                        b"65536",
                        b"1e30",
                    ];
                    out.splice(at..end, big[rng.below(big.len())].iter().copied());
                }
            }
            _ => {
                let from = rng.below(out.len());
                let len = rng.below(256).min(out.len() - from);
                let run = out[from..from + len].to_vec();
                let at = rng.below(out.len());
                out.splice(at..at, run);
            }
        }
    }
    out
}

/// The seeds the fuzz run mutates: the small shared fixtures (malformed, encrypted, forms
/// and one text file) and the hostile ones.
fn fuzz_seeds() -> Vec<(String, Vec<u8>)> {
    let mut seeds: Vec<(String, Vec<u8>)> = hostile::all()
        .into_iter()
        // The ones whose normal reading already takes a second are mutated less usefully.
        .filter(|(n, _)| !matches!(*n, "contents-repeated.pdf" | "tj-20mb.pdf"))
        .map(|(n, b)| (n.to_string(), b))
        .collect();
    for dir in ["malformed", "encrypted", "forms", "multicolumn"] {
        let Ok(entries) = std::fs::read_dir(shared_pdfs().join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            if path.extension().is_some_and(|x| x == "pdf") && bytes.len() < 1 << 20 {
                seeds.push((format!("{dir}/{}", e.file_name().to_string_lossy()), bytes));
            }
        }
    }
    seeds.sort();
    seeds
}

#[test]
fn mutated_pdfs_never_panic_and_stay_within_bounds() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let secs: u64 = std::env::var("FONTE_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let seed: u64 = std::env::var("FONTE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
                | 1
        });
    let out = std::env::var_os("FONTE_FUZZ_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/fuzz-crashers"));
    eprintln!("fuzz: seed {seed} (FONTE_FUZZ_SEED={seed} replays it), {secs} s");
    let seeds = fuzz_seeds();
    assert!(seeds.len() > 10, "{} seed files", seeds.len());
    let mut rng = Rng(seed);
    let deadline = Instant::now() + Duration::from_secs(secs);
    let (mut inputs, mut slowest, mut most) = (0usize, Duration::ZERO, 0usize);
    let mut broken = Vec::new();
    while Instant::now() < deadline {
        let (name, pdf) = &seeds[rng.below(seeds.len())];
        let input = mutate(pdf, &mut rng);
        let cost = read(&input);
        inputs += 1;
        slowest = slowest.max(cost.time);
        most = most.max(cost.peak);
        if cost.panics > 0 || cost.time >= TIME_LIMIT || cost.peak >= MEMORY_LIMIT {
            std::fs::create_dir_all(&out).unwrap();
            let file = out.join(format!("{}-{inputs}.pdf", name.replace('/', "_")));
            std::fs::write(&file, &input).unwrap();
            broken.push(format!(
                "{}: {} panics, {:?}, {} MiB",
                file.display(),
                cost.panics,
                cost.time,
                cost.peak >> 20
            ));
        }
    }
    eprintln!(
        "fuzz: {inputs} inputs from {} seeds, slowest {:.2} s, most memory {} MiB, {} broke a bound",
        seeds.len(),
        slowest.as_secs_f64(),
        most >> 20,
        broken.len()
    );
    assert!(broken.is_empty(), "seed {seed}:\n{}", broken.join("\n"));
}
