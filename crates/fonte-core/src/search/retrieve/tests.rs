use super::*;
use crate::search::lexical::Bm25Params;

#[test]
fn rrf_rewards_agreement() {
    // 7 is 2nd in both lists; 1 and 9 are 1st in one list only.
    let fused = rrf(&[vec![1, 7, 3], vec![9, 7, 4]], 60.0);
    assert_eq!(fused[0].0, 7);
    assert!((fused[0].1 - 2.0 / 62.0).abs() < 1e-7);
    assert_eq!((fused[1].0, fused[2].0), (1, 9), "ties broken by id");
    assert!((fused[1].1 - 1.0 / 61.0).abs() < 1e-7);
    assert_eq!(fused.len(), 5);
    // Ranks 1 and 3 together beat rank 2 twice, just: 1/61 + 1/63 > 2/62.
    let close = rrf(&[vec![1, 7], vec![8, 7, 1]], 60.0);
    assert_eq!(close[0].0, 1);
}

#[test]
fn budget_keeps_order_and_skips_what_does_not_fit() {
    let hit = |chunk| Hit {
        chunk,
        score: 0.0,
        lexical_rank: None,
        dense_rank: None,
    };
    let hits = [hit(0), hit(1), hit(2), hit(3)];
    let len = [1500, 3000, 2000, 400];
    let kept = within_budget(&hits, |c| len[c as usize], 4000);
    assert_eq!(kept.iter().map(|h| h.chunk).collect::<Vec<_>>(), [0, 2, 3]);
    assert!(within_budget(&hits, |c| len[c as usize], 100).is_empty());
}

#[test]
fn hybrid_search_fuses_and_scopes() {
    let texts = [
        "prazo de rescisão do contrato",
        "entrega em trinta dias",
        "rescisão por justa causa",
    ];
    let lexical = Bm25::build(texts, Bm25Params::default());
    let dense =
        VectorIndex::build(2, vec![vec![1.0, 0.0], vec![0.0, 1.0], vec![0.8, 0.6]]).unwrap();
    let chunk_doc = [0, 0, 1];
    let r = Retriever {
        lexical: &lexical,
        dense: &dense,
        chunk_doc: &chunk_doc,
        chunk_lang: &[None; 3],
        pending: &[],
        fusion: Fusion::default(),
        vectors: &[],
        direction: &[],
        hubness: &[],
        superseded: &[],
    };
    let hits = r.search(&Search::new("rescisão", Some(&[0.0, 1.0])));
    assert_eq!(hits.len(), 3);
    let h2 = hits.iter().find(|h| h.chunk == 2).unwrap();
    assert_eq!(h2.dense_rank, Some(2));
    assert!(h2.lexical_rank.is_some());
    let scoped = r.search(&Search::new("rescisão", Some(&[0.0, 1.0])).scope(Some(&[1])));
    assert_eq!(scoped.iter().map(|h| h.chunk).collect::<Vec<_>>(), [2]);
    let lexical_only = r.search(&Search::new("entrega", None));
    assert_eq!(
        lexical_only.iter().map(|h| h.chunk).collect::<Vec<_>>(),
        [1]
    );
}

#[test]
fn the_language_gap_lets_an_answer_in_the_other_language_reach_the_top() {
    // A Portuguese question; the answer is only in the English passage (0), which the
    // bilingual model puts a little farther than two Portuguese passages on other topics,
    // as it does (docs/QUALITY.md §4): cosines 0.80 against 0.82 and 0.81.
    let texts = [
        "To remove all objects in the current environment, you can use rm with ls.",
        "O pacote é instalado com o dpkg, que não resolve as dependências.",
        "Os arquivos de configuração ficam em /etc e não são apagados com o pacote.",
    ];
    let unit = |c: f32| vec![c, (1.0 - c * c).sqrt()];
    let lexical = Bm25::build(texts, Bm25Params::default());
    let dense = VectorIndex::build(2, vec![unit(0.80), unit(0.82), unit(0.81)]).unwrap();
    let chunk_lang = crate::search::lang::passage_languages(texts);
    assert_eq!(chunk_lang, [Some(Lang::En), Some(Lang::Pt), Some(Lang::Pt)]);
    let chunk_doc = [0, 1, 1];
    let ranked = |question: &str, languages, language_gap| {
        let r = Retriever {
            lexical: &lexical,
            dense: &dense,
            chunk_doc: &chunk_doc,
            chunk_lang: &chunk_lang,
            pending: &[],
            fusion: Fusion {
                languages,
                language_gap,
                ..Fusion::default()
            },
            vectors: &[],
            direction: &[],
            hubness: &[],
            superseded: &[],
        };
        let q = [1.0, 0.0];
        let hits = r.search(&Search::new(question, Some(&q)).mode(Mode::Dense));
        hits.iter().map(|h| h.chunk).collect::<Vec<_>>()
    };
    let pt = "Como apago todos os objetos da sessão?";
    assert_eq!(ranked(pt, Languages::Joint, 0.036), [1, 2, 0]);
    assert_eq!(ranked(pt, Languages::Offset, 0.036), [0, 1, 2]);
    assert_eq!(
        ranked(pt, Languages::Offset, 0.0),
        [1, 2, 0],
        "no gap, no change"
    );
    assert_eq!(
        ranked(pt, Languages::PerLanguage, 0.0)[0],
        0,
        "ties broken by id"
    );
    // The same question in English: no offset for its own language.
    assert_eq!(
        ranked(
            "How do I delete every object of the session?",
            Languages::Offset,
            0.036
        )[0],
        1,
        "Portuguese passages get the gap for an English question"
    );
}

#[test]
fn a_chunk_without_its_vector_yet_takes_its_lexical_rank_in_the_dense_ranking() {
    // Chunk 2 (the only one with the words asked) has no vector yet: its dense slot is a
    // zero placeholder. Chunks 0 and 1 are embedded and close to the question's vector.
    let texts = [
        "An introduction to the class and its options.",
        "How to write the title page of a thesis.",
        "Fundação Intituto Brasileiro de Geografia e Estatística, 1993.",
    ];
    let lexical = Bm25::build(texts, Bm25Params::default());
    let dense =
        VectorIndex::build(2, vec![vec![1.0, 0.0], vec![0.8, 0.6], vec![0.0, 0.0]]).unwrap();
    let chunk_lang = [None; 3];
    let ranked = |pending: &[bool]| {
        let r = Retriever {
            lexical: &lexical,
            dense: &dense,
            chunk_doc: &[0, 0, 0],
            chunk_lang: &chunk_lang,
            pending,
            fusion: Fusion {
                dense_weight: 2.0,
                ..Fusion::default()
            },
            vectors: &[],
            direction: &[],
            hubness: &[],
            superseded: &[],
        };
        let q = [1.0, 0.0];
        r.search(&Search::new("Intituto Brasileiro de Geografia", Some(&q)))
    };
    let hits = ranked(&[false, false, true]);
    assert_eq!(hits[0].chunk, 2, "{hits:?}");
    assert_eq!(hits[0].dense_rank, None, "found by its words alone");
    assert!(
        !ranked(&[false, false, true])
            .iter()
            .skip(1)
            .any(|h| h.chunk == 2),
        "listed once"
    );
}

#[test]
fn another_wording_adds_its_rankings_to_the_fusion() {
    // A Portuguese question whose answer is only in the English passage (0): BM25 cannot
    // match it across languages and the dense ranking puts the Portuguese passages first.
    let texts = [
        "To remove all objects in the current environment, use rm with ls.",
        "O pacote é instalado com o dpkg, que não resolve as dependências.",
        "Os objetos da configuração ficam em /etc e não são apagados.",
    ];
    let unit = |c: f32| vec![c, (1.0 - c * c).sqrt()];
    let lexical = Bm25::build(texts, Bm25Params::default());
    let dense = VectorIndex::build(2, vec![unit(0.80), unit(0.82), unit(0.81)]).unwrap();
    let chunk_lang = crate::search::lang::passage_languages(texts);
    let r = Retriever {
        lexical: &lexical,
        dense: &dense,
        chunk_doc: &[0, 1, 1],
        chunk_lang: &chunk_lang,
        pending: &[],
        fusion: Fusion::default(),
        vectors: &[],
        direction: &[],
        hubness: &[],
        superseded: &[],
    };
    let question = "Como apago todos os objetos do ambiente?";
    let q = [1.0, 0.0];
    let first = |s: &Search| r.search(s).first().map(|h| h.chunk);
    assert_ne!(first(&Search::new(question, Some(&q))), Some(0));
    // The translation's vector is nearest the English passage, and its words are that
    // passage's.
    let t = unit(0.3);
    let translated = [Wording {
        text: "How do I remove all objects in the environment?",
        vector: Some(&t),
    }];
    let hits = r.search(&Search::new(question, Some(&q)).also(&translated));
    assert_eq!(hits[0].chunk, 0, "{hits:?}");
    assert_eq!(
        hits[0].lexical_rank, None,
        "the ranks shown are the question's own"
    );
    // Lexical alone: the wording's BM25 list is fused with the question's.
    let lexical_only = r.search(&Search::new(question, None).also(&[Wording {
        text: translated[0].text,
        vector: None,
    }]));
    assert!(
        lexical_only.iter().any(|h| h.chunk == 0),
        "{lexical_only:?}"
    );
    assert!(
        lexical_only.iter().any(|h| h.chunk == 2),
        "the question's own words still count"
    );
}

#[test]
fn projecting_out_the_language_axis_lets_the_answer_in_the_other_language_reach_the_top() {
    // Three dimensions: x the question's topic, y another topic, z the language axis
    // (English +, Portuguese −). The Portuguese question (−z) is closer to a Portuguese
    // passage half on another topic (1) than to the English answer (0); without the axis the
    // answer is the closer one, and a passage's own share of the axis no longer counts.
    let norm = |v: [f32; 3]| {
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.map(|x| x / n).to_vec()
    };
    let texts = [
        "To remove all objects in the current environment, you can use rm with ls.",
        "O pacote é instalado com o dpkg, que não resolve as dependências.",
    ];
    let vectors = vec![norm([1.0, 0.0, 0.5]), norm([0.5, 0.3, -0.8])];
    let lexical = Bm25::build(texts, Bm25Params::default());
    let dense = VectorIndex::build(3, vectors.clone()).unwrap();
    let chunk_lang = crate::search::lang::passage_languages(texts);
    let q = norm([1.0, 0.0, -0.5]);
    let ranked = |languages, direction: &[f32]| {
        let r = Retriever {
            lexical: &lexical,
            dense: &dense,
            chunk_doc: &[0, 1],
            chunk_lang: &chunk_lang,
            pending: &[],
            fusion: Fusion {
                languages,
                ..Fusion::default()
            },
            vectors: &vectors,
            direction,
            hubness: &[],
            superseded: &[],
        };
        let hits = r.search(&Search::new("Como apago os objetos?", Some(&q)).mode(Mode::Dense));
        hits.iter().map(|h| (h.chunk, h.score)).collect::<Vec<_>>()
    };
    let axis = [0.0, 0.0, 1.0];
    assert_eq!(ranked(Languages::Joint, &axis)[0].0, 1);
    let projected = ranked(Languages::Projected, &axis);
    assert_eq!(projected[0].0, 0, "{projected:?}");
    // The English answer lies on the question's topic once the axis is out: cosine 1.
    assert!((projected[0].1 - 1.0).abs() < 0.02, "{projected:?}");
    assert_eq!(
        ranked(Languages::Projected, &[])[0].0,
        1,
        "no axis: the joint ranking"
    );
}

#[test]
fn a_passage_near_many_others_gives_way_to_the_answer_with_hubness() {
    // Axis z is the language axis (none of these passages carries it). Passages 1-4 are one
    // tight cluster (a run of one manual's passages on a neighbouring subject); the question
    // is a little nearer passage 1 than the answer, passage 0, which stands alone.
    let norm = |v: [f32; 3]| {
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.map(|x| x / n).to_vec()
    };
    let texts = ["answer", "hub one", "hub two", "hub three", "hub four"];
    let vectors = vec![
        norm([1.0, -0.6, 0.0]),
        norm([1.0, 0.5, 0.0]),
        norm([0.9, 0.6, 0.0]),
        norm([0.8, 0.7, 0.0]),
        norm([0.7, 0.8, 0.0]),
    ];
    let q = norm([1.0, 0.0, 0.0]);
    let lexical = Bm25::build(texts, Bm25Params::default());
    let dense = VectorIndex::build(3, vectors.clone()).unwrap();
    let chunk_lang = crate::search::lang::passage_languages(texts);
    let axis = [0.0, 0.0, 1.0];
    let hub = crate::search::retrieve::Neighbours::compute(&vectors, &axis, 2);
    let hub = hub.hubness();
    assert!(hub[1] > hub[0] + 0.3, "{hub:?}");
    let first = |languages| {
        let r = Retriever {
            lexical: &lexical,
            dense: &dense,
            chunk_doc: &[0, 1, 1, 1, 1],
            chunk_lang: &chunk_lang,
            pending: &[],
            fusion: Fusion {
                languages,
                ..Fusion::default()
            },
            vectors: &vectors,
            direction: &axis,
            hubness: hub,
            superseded: &[],
        };
        r.search(&Search::new("question", Some(&q)).mode(Mode::Dense))[0].chunk
    };
    assert_eq!(first(Languages::Projected), 1);
    assert_eq!(first(Languages::Hubness), 0);
}
