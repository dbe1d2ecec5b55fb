//! The questions a set asks of one corpus: each in one language, with the passage that
//! answers it and the documents that hold that passage (its scope). A question counts
//! unscoped only where the answer exists in its scope alone: in a library holding the FAQ in
//! both languages the other copy answers too, so the FAQ's pairs are unscoped only in a
//! library with one of them.

use fonte_core::eval::GoldMatcher;
use fonte_core::search::corpus::Corpus;

use super::Qa;

/// Question language -> document language, in the order they are printed.
pub const PAIRS: [&str; 4] = ["en->en", "pt->pt", "pt->en", "en->pt"];

/// One question to score.
pub struct Case<'a> {
    /// The set's id of the question.
    pub id: &'a str,
    /// One of [`PAIRS`].
    pub pair: &'static str,
    /// The question, in the pair's first language.
    pub question: &'a str,
    /// The set's own wording of it in the other language (a reference translation).
    pub other: &'a str,
    /// The answering passage.
    pub gold: GoldMatcher,
    /// Numbers of the documents that hold it.
    pub scope: Vec<u32>,
    /// Whether it is scored over the whole library too.
    pub unscoped: bool,
}

fn pair(q_lang: &str, doc_lang: &str) -> Option<&'static str> {
    PAIRS
        .into_iter()
        .find(|p| *p == format!("{q_lang}->{doc_lang}"))
}

/// The cases of `qa` on `corpus`: the mixed format asks each question in both languages of its
/// one document; the FAQ format asks each in both languages of each FAQ document present
/// (named `*.en.*` or `*.pt.*`). A mixed question whose document is not in the corpus is left
/// out; one whose gold passage no chunk of its document holds is an error (the set is wrong).
pub fn cases<'a>(corpus: &Corpus, qa: &'a [Qa]) -> Result<Vec<Case<'a>>, String> {
    let docs = corpus.documents();
    let mut out = Vec::new();
    for q in qa {
        if let Some(name) = &q.doc {
            let Some(d) = docs.iter().position(|x| &x.name == name) else {
                continue;
            };
            let gold = GoldMatcher::new(&q.gold);
            let found = corpus
                .chunks()
                .iter()
                .any(|c| c.doc == d as u32 && gold.overlaps(&c.chunk.text));
            if !found {
                return Err(format!(
                    "{}: no chunk of {name} holds its gold passage",
                    q.id
                ));
            }
            for lang in ["en", "pt"] {
                let pair = pair(lang, &q.doc_lang)
                    .ok_or_else(|| format!("{}: doc_lang must be en or pt", q.id))?;
                out.push(Case {
                    id: &q.id,
                    pair,
                    question: q.question(lang),
                    other: q.question(if lang == "en" { "pt" } else { "en" }),
                    gold: GoldMatcher::new(&q.gold),
                    scope: vec![d as u32],
                    unscoped: true,
                });
            }
            continue;
        }
        let of_lang = |lang: &str| -> Vec<u32> {
            (0..docs.len() as u32)
                .filter(|&d| docs[d as usize].name.contains(&format!(".{lang}.")))
                .collect()
        };
        for p in PAIRS {
            let (q_lang, doc_lang) = p.split_once("->").expect("a pair");
            let scope = of_lang(doc_lang);
            if scope.is_empty() {
                continue;
            }
            let other = if doc_lang == "en" { "pt" } else { "en" };
            out.push(Case {
                id: &q.id,
                pair: p,
                question: q.question(q_lang),
                other: q.question(if q_lang == "en" { "pt" } else { "en" }),
                gold: GoldMatcher::new(q.gold(doc_lang)),
                scope,
                unscoped: of_lang(other).is_empty(),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fonte_core::pdf::Report;
    use fonte_core::search::chunk::{Chunk, ChunkParams};
    use fonte_core::search::corpus::{BuildInfo, ChunkRecord, DocumentMeta};

    fn corpus(docs: &[(&str, &str)]) -> Corpus {
        let info = BuildInfo {
            model_id: "test".into(),
            dim: 2,
            chunk_params: ChunkParams::default(),
        };
        let meta = |name: &str| DocumentMeta {
            build: None,
            about: Default::default(),
            id: name.into(),
            name: name.into(),
            title: None,
            pages: 1,
            report: Report::Complete,
        };
        let chunks: Vec<ChunkRecord> = docs
            .iter()
            .enumerate()
            .map(|(d, (_, text))| ChunkRecord {
                doc: d as u32,
                chunk: Chunk {
                    page: 1,
                    char_start: 0,
                    char_end: text.chars().count(),
                    heading_path: vec![],
                    text: (*text).into(),
                },
            })
            .collect();
        let vectors = vec![vec![1.0, 0.0]; chunks.len()];
        Corpus::build(
            info,
            docs.iter().map(|d| meta(d.0)).collect(),
            chunks,
            vectors,
        )
        .unwrap()
    }

    fn qa(line: &str) -> Qa {
        serde_json::from_str(line).unwrap()
    }

    const EN: &str = "You can install the file-rc package to convert the links into one file.";
    const PT: &str = "Você pode instalar o pacote file-rc para converter os links num ficheiro.";

    #[test]
    fn the_faq_pairs_are_unscoped_only_where_one_faq_holds_the_answer() {
        let q = qa(&format!(
            r#"{{"id": "a", "q_en": "How?", "q_pt": "Como?", "gold_en": "{EN}", "gold_pt": "{PT}"}}"#
        ));
        let both = corpus(&[("faq.en.pdf", EN), ("faq.pt.pdf", PT)]);
        let got = cases(&both, std::slice::from_ref(&q)).unwrap();
        assert_eq!(got.iter().map(|c| c.pair).collect::<Vec<_>>(), PAIRS);
        assert!(
            got.iter().all(|c| !c.unscoped),
            "the other copy answers too"
        );
        let pt_only = corpus(&[("faq.pt.pdf", PT), ("manual.pdf", EN)]);
        let got = cases(&pt_only, std::slice::from_ref(&q)).unwrap();
        let pairs: Vec<(&str, bool)> = got.iter().map(|c| (c.pair, c.unscoped)).collect();
        assert_eq!(pairs, [("pt->pt", true), ("en->pt", true)]);
        assert_eq!(got[1].question, "How?");
        assert_eq!(got[1].scope, [0]);
    }

    #[test]
    fn a_mixed_question_is_asked_in_both_languages_of_its_one_document() {
        let line = format!(
            r#"{{"id": "m", "doc": "manual.pdf", "doc_lang": "en", "q_en": "How?", "q_pt": "Como?", "gold": "{EN}"}}"#
        );
        let library = corpus(&[("faq.pt.pdf", PT), ("manual.pdf", EN)]);
        let set = [qa(&line)];
        let got = cases(&library, &set).unwrap();
        let pairs: Vec<(&str, &str, bool)> = got
            .iter()
            .map(|c| (c.pair, c.question, c.unscoped))
            .collect();
        assert_eq!(pairs, [("en->en", "How?", true), ("pt->en", "Como?", true)]);
        assert_eq!(got[0].scope, [1]);
        // Its document absent: left out; its gold passage absent from its document: refused.
        assert!(cases(&corpus(&[("faq.pt.pdf", PT)]), &[qa(&line)])
            .unwrap()
            .is_empty());
        let wrong = corpus(&[("manual.pdf", PT)]);
        assert!(cases(&wrong, &[qa(&line)]).is_err());
    }
}
