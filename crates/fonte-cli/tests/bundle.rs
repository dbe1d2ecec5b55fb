//! `fonte bundle` and `fonte bundle check` on real PDFs with the real MiniLM model: a bundle
//! is written and checked (summary, exit 0), read back with the same chunks and vectors as
//! the PDFs give when indexed, smaller without its PDFs; a damaged or foreign file is refused
//! with its reason and a non-zero exit.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(rel: &str) -> String {
    std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared"))
        .join("fixtures/pdfs")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

fn fonte(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fonte"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("runs")
}

fn tmp(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("fonte-bundle-test-{}-{name}", std::process::id()))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_bundle_is_written_checked_and_refused_when_damaged() {
    let (a, b) = (
        fixture("encrypted/crazyones.pdf"),
        fixture("pt/abntex2-modelo-artigo.pdf"),
    );
    let out = tmp("full.fonte");
    let o = fonte(&["bundle", &a, &b, "-o", &out, "--title", "Two PDFs"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = fonte(&["bundle", "check", &out]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("a valid Fonte bundle"), "{text}");
    assert!(text.contains("title: Two PDFs"), "{text}");
    assert!(
        text.contains("2 documents") && text.contains("PDFs included"),
        "{text}"
    );
    assert!(text.contains("crazyones.pdf (1 pages"), "{text}");

    // The same chunks and vectors as the corpus `fonte index` builds from the same files.
    let idx = tmp("same.idx");
    assert!(fonte(&["index", &a, &b, "-o", &idx]).status.success());
    let corpus =
        fonte_core::search::corpus::Corpus::from_bytes(&std::fs::read(&idx).unwrap()).unwrap();
    let bundle = fonte_core::share::bundle::read(&std::fs::read(&out).unwrap()).unwrap();
    let texts: Vec<&str> = bundle
        .documents
        .iter()
        .flat_map(|d| d.chunks.iter().map(|c| c.text.as_str()))
        .collect();
    let indexed: Vec<&str> = corpus
        .chunks()
        .iter()
        .map(|c| c.chunk.text.as_str())
        .collect();
    assert_eq!(texts, indexed);
    let vectors: Vec<&Vec<f32>> = bundle
        .documents
        .iter()
        .flat_map(|d| d.vectors.iter())
        .collect();
    for (v, w) in vectors.iter().zip(corpus.vectors()) {
        let cos: f32 = v.iter().zip(w).map(|(x, y)| x * y).sum();
        assert!(cos > 0.999, "{cos}");
    }

    let lean = tmp("lean.fonte");
    assert!(fonte(&["bundle", &a, &b, "-o", &lean, "--no-pdfs"])
        .status
        .success());
    let (full_len, lean_len) = (
        std::fs::metadata(&out).unwrap().len(),
        std::fs::metadata(&lean).unwrap().len(),
    );
    assert!(lean_len + 355_000 < full_len, "{lean_len} vs {full_len}");
    assert!(
        String::from_utf8_lossy(&fonte(&["bundle", "check", &lean]).stdout)
            .contains("PDFs not included")
    );

    let mut bytes = std::fs::read(&out).unwrap();
    let n = bytes.len();
    bytes[n - 100] ^= 0x10;
    let bad = tmp("bad.fonte");
    std::fs::write(&bad, &bytes).unwrap();
    let o = fonte(&["bundle", "check", &bad]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("refused: the pdf section is damaged"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = fonte(&["bundle", "check", &a]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a Fonte bundle"));
    for f in [out, idx, lean, bad] {
        let _ = std::fs::remove_file(f);
    }
}
