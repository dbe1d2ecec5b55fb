//! The in-page translator's engine natively, with the real models (models/translate-*,
//! installed by models/install.py): a fixed set of questions in both directions keeps its key
//! terms, nothing comes back empty, a long or hostile input is cut and answered, and a
//! damaged model file is refused by its checksum before it is parsed.

use std::path::{Path, PathBuf};

use fonte_core::answer::translate::local::{DirectionFiles, LocalTranslator};
use fonte_core::search::lang::Lang;
use fonte_core::text::fold;

struct Files {
    from: Lang,
    to: Lang,
    bytes: Vec<(Vec<u8>, String)>,
}

fn direction(name: &str, from: Lang, to: Lang) -> Files {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../models")
        .join(name);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let files = manifest["files"].as_object().unwrap();
    let pick = |pred: &dyn Fn(&str) -> bool| {
        let (file, spec) = files.iter().find(|(f, _)| pred(f)).unwrap();
        let path: &Path = &dir.join(file);
        let bytes = std::fs::read(path)
            .unwrap_or_else(|e| panic!("{}: {e} (models/install.py installs it)", path.display()));
        (bytes, spec["sha256"].as_str().unwrap().to_string())
    };
    Files {
        from,
        to,
        bytes: vec![
            pick(&|f| f.ends_with(".intgemm.alphas.bin")),
            pick(&|f| f.starts_with("lex.")),
            pick(&|f| f == "tokenizer.json"),
        ],
    }
}

fn load(dirs: &[Files]) -> fonte_core::Result<LocalTranslator> {
    let files: Vec<DirectionFiles<'_>> = dirs
        .iter()
        .map(|d| DirectionFiles {
            from: d.from,
            to: d.to,
            model: (&d.bytes[0].0, &d.bytes[0].1),
            shortlist: (&d.bytes[1].0, &d.bytes[1].1),
            tokenizer: (&d.bytes[2].0, &d.bytes[2].1),
        })
        .collect();
    LocalTranslator::load(&files)
}

fn translator() -> LocalTranslator {
    load(&[
        direction("translate-pten", Lang::Pt, Lang::En),
        direction("translate-enpt", Lang::En, Lang::Pt),
    ])
    .unwrap()
}

#[test]
fn questions_keep_their_key_terms_in_both_directions() {
    let t = translator();
    let cases: &[(&str, Lang, &[&str])] = &[
        (
            "Como faço para instalar um pacote?",
            Lang::En,
            &["install", "package"],
        ),
        (
            "Como remover um pacote sem apagar os arquivos de configuração?",
            Lang::En,
            &["remove", "package", "configuration"],
        ),
        (
            "Qual é a taxa mensal de manutenção de cada família?",
            Lang::En,
            &["monthly", "maintenance"],
        ),
        ("Onde ficam as bicicletas do prédio?", Lang::En, &["bike"]),
        (
            "How do I install a package?",
            Lang::Pt,
            &["instalar", "pacote"],
        ),
        (
            "How do I remove a package without deleting its configuration files?",
            Lang::Pt,
            &["pacote", "configuracao"],
        ),
        (
            "What is the monthly maintenance fee of each household?",
            Lang::Pt,
            &["mensal", "manutencao"],
        ),
        (
            "Where are the bicycles kept in the building?",
            Lang::Pt,
            &["bicicletas"],
        ),
    ];
    for (question, to, terms) in cases {
        let got = t
            .translate(question, *to)
            .unwrap_or_else(|| panic!("{question}: nothing"));
        assert_eq!(got.lang, *to);
        let folded = fold(&got.text);
        for term in *terms {
            assert!(
                folded.contains(term),
                "{question} -> {:?}: no {term:?}",
                got.text
            );
        }
    }
}

#[test]
fn a_long_or_hostile_input_is_cut_and_answered() {
    let t = translator();
    let long = "Como faço para instalar um pacote? ".repeat(200);
    let got = t.translate(&long, Lang::En).expect("an answer");
    assert!(got.text.chars().count() < 2_000, "{}", got.text.len());
    for odd in [
        "",
        "   ",
        "\u{0}\u{1}\u{2}",
        "[[[[((((",
        "<script>alert(1)</script>",
        "ããããããããããããããããããããããããããããããã",
    ] {
        // Answered or nothing usable; never a panic or a hang.
        let _ = t.translate(odd, Lang::En);
        let _ = t.translate(odd, Lang::Pt);
    }
    assert!(t.translate("", Lang::En).is_none());
}

#[test]
fn a_damaged_model_file_is_refused_before_it_is_parsed() {
    let mut d = direction("translate-pten", Lang::Pt, Lang::En);
    d.bytes[0].0.truncate(1000);
    let err = load(&[d]).err().expect("refused");
    assert!(err.to_string().contains("sha256"), "{err}");
}

#[test]
fn the_worker_protocol_loads_translates_and_says_why_it_cannot() {
    use fonte_core::answer::translate::protocol::{
        decode, encode, LoadDirection, Reply, Request, Worker,
    };
    let mut w = Worker::default();
    let ask = Request::Translate {
        question: "Como faço para instalar um pacote?".into(),
        to: Lang::En,
    };
    assert!(
        matches!(w.handle(ask.clone(), &[]), Reply::Failed(_)),
        "nothing loaded"
    );
    let d = direction("translate-pten", Lang::Pt, Lang::En);
    let load = Request::Load(vec![LoadDirection {
        from: d.from,
        to: d.to,
        sha256: [
            d.bytes[0].1.clone(),
            d.bytes[1].1.clone(),
            d.bytes[2].1.clone(),
        ],
    }]);
    // Through the message encoding, as the page sends it.
    let load: Request = decode(&encode(&load).unwrap()).unwrap();
    let files: Vec<Vec<u8>> = d.bytes.iter().map(|(b, _)| b.clone()).collect();
    assert!(
        matches!(w.handle(load.clone(), &files[..2]), Reply::Failed(_)),
        "a file missing"
    );
    assert_eq!(w.handle(load, &files), Reply::Loaded);
    match w.handle(ask.clone(), &[]) {
        Reply::Translated(Some(t)) => assert!(fold(&t.text).contains("install"), "{}", t.text),
        other => panic!("{other:?}"),
    }
    // The other direction, loaded when a question first needs it, beside the first.
    let into_pt = Request::Translate {
        question: "How do I install a package?".into(),
        to: Lang::Pt,
    };
    assert_eq!(
        w.handle(into_pt.clone(), &[]),
        Reply::Translated(None),
        "not loaded yet"
    );
    let e = direction("translate-enpt", Lang::En, Lang::Pt);
    let load = Request::Load(vec![LoadDirection {
        from: e.from,
        to: e.to,
        sha256: [
            e.bytes[0].1.clone(),
            e.bytes[1].1.clone(),
            e.bytes[2].1.clone(),
        ],
    }]);
    let files: Vec<Vec<u8>> = e.bytes.iter().map(|(b, _)| b.clone()).collect();
    assert_eq!(w.handle(load, &files), Reply::Loaded);
    match w.handle(into_pt, &[]) {
        Reply::Translated(Some(t)) => assert!(fold(&t.text).contains("instal"), "{}", t.text),
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(w.handle(ask, &[]), Reply::Translated(Some(_))),
        "the first still loaded"
    );
}
