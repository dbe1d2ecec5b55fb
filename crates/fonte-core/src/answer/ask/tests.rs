use super::fixture::*;
use super::*;
use crate::answer::abstain::{evidence, Evidence};
use crate::answer::llm::fake::{Reply, Scripted};
use crate::answer::llm::Failure;
use crate::answer::translate::{Translated, Translation};

#[test]
fn weak_evidence_abstains_without_any_request_even_with_translation_on() {
    let lib = library(Some(HIGH));
    assert_eq!(
        lib.corpus.languages(),
        [Lang::En, Lang::Pt],
        "a bilingual library"
    );
    let t = Scripted::new(vec![
        Ok(Reply::stream(&openai("Como os barcos flutuam?"), 4)),
        Ok(Reply::stream(&openai("x"), 4)),
    ]);
    let mut events = Vec::new();
    let a = run(ask(
        &lib,
        &request("How do boats float?"),
        Some((&endpoint(), &t)),
        &mut |e| events.push(event_name(&e)),
    ))
    .unwrap();
    assert_eq!(a.outcome, Outcome::AbstainedBeforeAsking);
    assert!(
        t.sent.borrow().is_empty(),
        "no request, not even a translation"
    );
    assert!(a.translations.is_empty());
    assert_eq!(events, ["retrieving", "sources 4"]);
    assert_eq!(a.sources[0].page, 1, "the nearest passages are shown");
    assert!(!a.extracts.is_empty());
}

#[test]
fn while_the_query_model_loads_the_word_matches_are_shown_first_then_the_evidence() {
    let mut lib = library(Some(LOW));
    lib.loading = true;
    let mut events = Vec::new();
    let mut words = Vec::new();
    let a = run(ask(
        &lib,
        &request("Why do boats float on water?"),
        None::<(&crate::answer::llm::Endpoint, &Scripted)>,
        &mut |e| {
            if let AskEvent::WordMatches(s) = &e {
                words = s.to_vec();
            }
            events.push(event_name(&e))
        },
    ))
    .unwrap();
    assert!(events[0].starts_with("words "), "{events:?}");
    assert!(
        !words.is_empty() && words[0].text.contains("water"),
        "{words:?}"
    );
    assert_eq!(events[1..3], ["retrieving", "sources 4"]);
    assert_eq!(a.outcome, Outcome::Extractive);
    lib.loading = false;
    let mut ready = Vec::new();
    run(ask(
        &lib,
        &request("Why do boats float on water?"),
        None::<(&crate::answer::llm::Endpoint, &Scripted)>,
        &mut |e| ready.push(event_name(&e)),
    ))
    .unwrap();
    assert!(
        !ready.iter().any(|e| e.starts_with("words")),
        "none once it is ready"
    );
}

#[test]
fn a_question_that_passes_is_translated_searched_in_both_wordings_and_answered() {
    let lib = library(Some(LOW));
    let reply = "Os barcos flutuam na água [1].";
    let t = Scripted::new(vec![
        Ok(Reply::stream(&openai("Why do boats float on water?"), 5)),
        Ok(Reply::stream(&openai(reply), 5)),
    ]);
    let mut events = Vec::new();
    let q = "Por que os navios não afundam?";
    let a = run(ask(&lib, &request(q), Some((&endpoint(), &t)), &mut |e| {
        events.push(event_name(&e))
    }))
    .unwrap();
    let sent = t.sent.borrow();
    assert_eq!(sent.len(), 2, "the translation, then the answer");
    assert!(sent[0]
        .body
        .contains("Translate the user's search question into English"));
    assert!(
        sent[1].body.contains("Boats float on water"),
        "{}",
        sent[1].body
    );
    assert_eq!(
        a.translations,
        [Translation {
            lang: Lang::En,
            text: "Why do boats float on water?".into()
        }]
    );
    assert_eq!(a.sources[0].text, TEXTS[0], "found through the translation");
    assert_eq!(a.lang, Lang::Pt, "answered in the question's language");
    assert_eq!(a.outcome, Outcome::Answered);
    assert_eq!(
        events[..4],
        ["translating En", "translated En", "retrieving", "sources 4"]
    );
    assert!(events[4..].iter().all(|e| e == "text"));
}

#[test]
fn a_translation_that_fails_is_skipped_and_one_that_is_stopped_sends_nothing_more() {
    let lib = library(Some(LOW));
    let q = "Por que os navios não afundam?";
    let t = Scripted::new(vec![
        Ok(Reply::status(500, "")),
        Ok(Reply::stream(&openai("Sim [1]."), 5)),
    ]);
    let mut events = Vec::new();
    let a = run(ask(&lib, &request(q), Some((&endpoint(), &t)), &mut |e| {
        events.push(event_name(&e))
    }))
    .unwrap();
    assert_eq!(events[..2], ["translating En", "skipped En"]);
    assert!(a.translations.is_empty());
    assert_eq!(
        a.outcome,
        Outcome::Answered,
        "searched as asked, then answered"
    );

    let t = Scripted::new(vec![
        Err(Failure::Aborted),
        Ok(Reply::stream(&openai("x"), 4)),
    ]);
    let asked = run(prepare_question(
        &lib,
        &request(q),
        Some((&endpoint(), &t)),
        &mut |_| {},
    ))
    .unwrap();
    assert!(asked.stopped);
    assert_eq!(t.sent.borrow().len(), 1, "only the stopped translation");
    assert!(
        matches!(asked.prepared, Prepared::Ask { .. }),
        "kept for Retry"
    );
}

#[test]
fn an_answer_streams_and_its_citations_are_checked() {
    let lib = library(Some(LOW));
    let reply = "Boats float on water [1]. They fly to the moon [7].";
    let t = Scripted::new(vec![Ok(Reply::stream(&openai(reply), 5))]);
    let mut streamed = String::new();
    let mut shown = 0;
    let a = run(ask(
        &lib,
        &Request {
            translate: TranslateWith::Off,
            ..request("How do boats float?")
        },
        Some((&endpoint(), &t)),
        &mut |e| match e {
            AskEvent::Sources(s) => shown = s.len(),
            AskEvent::Text(t) => streamed.push_str(t),
            _ => {}
        },
    ))
    .unwrap();
    assert_eq!(a.outcome, Outcome::Answered);
    assert_eq!(a.text, reply);
    assert_eq!(streamed, reply);
    assert_eq!(shown, a.sources.len());
    assert_eq!(a.sources[0].text, TEXTS[0], "best passage first");
    assert!(!a.sentences[0].low && a.sentences[0].cited == [1]);
    assert!(a.sentences[1].low, "cites a source that was not given");
    let body = &t.sent.borrow()[0].body;
    assert!(body.contains("Boats float on water") && body.contains("How do boats float?"));
}

#[test]
fn a_failed_stream_is_retried_with_the_same_prompt() {
    let lib = library(Some(LOW));
    let t = Scripted::new(vec![
        Ok(Reply::status(429, "")),
        Ok(Reply::stream(&openai("Riders pedal them [1]."), 5)),
    ]);
    let e = endpoint();
    let r = Request {
        translate: TranslateWith::Off,
        ..request("What do riders pedal?")
    };
    let asked = run(prepare_question(&lib, &r, Some((&e, &t)), &mut |_| {})).unwrap();
    let failed = run(reply(asked.prepared.clone(), Some((&e, &t)), &mut |_| {}));
    assert!(matches!(failed, Err(Failure::RateLimited { .. })));
    let a = run(reply(asked.prepared, Some((&e, &t)), &mut |_| {})).unwrap();
    assert_eq!(a.outcome, Outcome::Answered);
    let sent = t.sent.borrow();
    assert_eq!(sent.len(), 2);
    assert_eq!(
        sent[0].body, sent[1].body,
        "the kept question and evidence resent"
    );
}

#[test]
fn the_model_abstaining_is_an_abstention() {
    let lib = library(None);
    let t = Scripted::new(vec![Ok(Reply::stream(&openai(Lang::Pt.abstention()), 3))]);
    let a = run(ask(
        &lib,
        &Request {
            translate: TranslateWith::Off,
            ..request("Qual é o prazo do contrato?")
        },
        Some((&endpoint(), &t)),
        &mut |_| {},
    ))
    .unwrap();
    assert_eq!(a.outcome, Outcome::AbstainedByModel);
    assert_eq!(a.lang, Lang::Pt);
}

#[test]
fn a_translation_of_the_question_finds_the_passage_in_the_other_language() {
    let c = corpus();
    let q = "Por que os navios não afundam?";
    let translation = Translation {
        lang: Lang::En,
        text: "Why do boats float on water?".into(),
    };
    let ask_with = |translated: &[Translated]| match prepare(
        &c,
        &request(q),
        &vector(q),
        translated,
        None,
        false,
    ) {
        Prepared::Done(a) => a,
        Prepared::Ask { .. } => unreachable!("not asking"),
    };
    assert!(ask_with(&[]).translations.is_empty());
    let translated = [Translated {
        vector: vector(&translation.text),
        translation: translation.clone(),
    }];
    let with = ask_with(&translated);
    assert_eq!(with.sources[0].text, TEXTS[0]);
    assert_eq!(with.translations, [translation], "kept with the answer");
    assert_eq!(with.lang, Lang::Pt, "answered in the question's language");
}

#[test]
fn without_an_endpoint_the_best_sentences_are_the_answer() {
    let lib = library(None);
    let a = run(ask::<_, Scripted>(
        &lib,
        &request("What do riders pedal?"),
        None,
        &mut |_| {},
    ))
    .unwrap();
    assert_eq!(a.outcome, Outcome::Extractive);
    let top = &a.sources[0];
    let x = a.extracts.iter().find(|x| x.n == top.n).unwrap();
    assert_eq!(top.text[x.span.clone()].trim(), "Riders pedal them.");
}

#[test]
fn a_follow_up_carries_the_conversation() {
    let turns = [Turn {
        question: "How do boats float?".into(),
        answer: "On water [1].".into(),
    }];
    assert_eq!(
        retrieval_query(&turns, " And steel ones? "),
        "How do boats float? And steel ones?"
    );
    let lib = library(None);
    let t = Scripted::new(vec![Ok(Reply::stream(&openai("Yes [1]."), 8))]);
    run(ask(
        &lib,
        &Request {
            turns: &turns,
            translate: TranslateWith::Off,
            ..request("And steel ones?")
        },
        Some((&endpoint(), &t)),
        &mut |_| {},
    ))
    .unwrap();
    let body: serde_json::Value = serde_json::from_str(&t.sent.borrow()[0].body).unwrap();
    let roles: Vec<&str> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "user"]);
}

#[test]
fn calibration_uses_the_probes_against_the_library() {
    let c = corpus();
    // Probes pointing away from every passage, and a question that is a passage.
    let probes: Vec<Vec<f32>> = c
        .vectors()
        .iter()
        .map(|v| v.iter().map(|x| -x).collect())
        .collect();
    let t = calibrate(&c, &probes).unwrap();
    assert_eq!(t.probes, 4);
    let found: Vec<Evidence> = probes
        .iter()
        .map(|p| evidence(p, c.vectors()).unwrap())
        .collect();
    assert_eq!(Some(t), Threshold::calibrate(&found));
    let lowest = found.iter().min_by(|a, b| a.top.total_cmp(&b.top)).unwrap();
    assert!(t.abstains(lowest));
    assert!(!t.abstains(&evidence(&c.vectors()[0], c.vectors()).unwrap()));
}
