//! One exchange as shown: the question, the answer streamed in with its citations as chips
//! (a valid one opens its passage on its page, an invalid one is struck out and never a link),
//! sentences its sources do not support marked, abstentions shown as such, and the sources.
//! Every text from the documents or the model is a text node, never HTML.

use fonte_core::answer::ask::{Answer, Outcome};
use fonte_core::answer::cite::{pieces, Piece};
use fonte_core::answer::prompt::Source;
use fonte_core::search::corpus::VersionNote;
use leptos::prelude::*;

use super::library::library_view;
use super::state::{Broken, Exchange, Phase};
use super::words::failure_view;
use crate::components::errors::error_view;
use crate::components::source::Passage;
use crate::components::versions::{date_text, dates_text, note_view};
use crate::i18n::*;

/// Characters of a passage shown in a citation's preview.
const PREVIEW_CHARS: usize = 280;

fn preview(text: &str) -> String {
    let mut out: String = text.chars().take(PREVIEW_CHARS).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// A chip opening source `s` (`matched`: found by Fonte for a sentence the model left
/// uncited, not the model's own citation).
fn chip(s: &Source, matched: bool, selected: RwSignal<Option<Passage>>) -> AnyView {
    let i18n = use_i18n();
    let passage = Passage::of_source(s);
    let label = format!("[{}]", s.n);
    let title = format!("{}, {} {}", s.doc, t_string!(i18n, page_short), s.page);
    let label_for = format!("{label} {title}");
    view! {
        <button
            type="button"
            class="cite"
            class:matched=matched
            data-testid=if matched { "cite-matched" } else { "cite" }
            data-n=s.n.to_string()
            aria-label=label_for
            on:click=move |_| selected.set(Some(passage.clone()))
        >
            {label}
            <span class="preview" role="tooltip">
                <strong>{title}</strong>
                {matched.then(|| view! { " " <em>{t!(i18n, cite_matched)}</em> })}
                " "
                {preview(&s.text)}
            </span>
        </button>
    }
    .into_any()
}

/// `text` with its citation markers as chips (a citation of an older version is struck out
/// unless `all_versions` were searched).
fn cited(
    text: &str,
    sources: &[Source],
    all_versions: bool,
    selected: RwSignal<Option<Passage>>,
) -> AnyView {
    let i18n = use_i18n();
    pieces(text, sources, all_versions)
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) => t.into_any(),
            Piece::Cite(list) => list
                .into_iter()
                .map(|c| match sources.get((c.n as usize).wrapping_sub(1)).filter(|_| c.valid) {
                    Some(s) => chip(s, false, selected),
                    None => view! {
                        <s class="cite invalid" data-testid="cite-invalid" title=move || t_string!(i18n, cite_invalid)>
                            {format!("[{}]", c.n)}
                        </s>
                    }
                    .into_any(),
                })
                .collect_view()
                .into_any(),
        })
        .collect_view()
        .into_any()
}

/// A finished model answer, sentence by sentence, poorly supported ones marked.
fn sentences(a: &Answer, selected: RwSignal<Option<Passage>>) -> AnyView {
    let i18n = use_i18n();
    let mut out = Vec::new();
    let mut at = 0;
    for s in &a.sentences {
        if s.span.start > at {
            out.push(a.text[at..s.span.start].to_string().into_any());
        }
        let mut body = vec![cited(
            &a.text[s.span.clone()],
            &a.sources,
            a.all_versions,
            selected,
        )];
        if let Some(src) = s.matched.and_then(|n| a.sources.get(n as usize - 1)) {
            body.push(chip(src, true, selected));
        }
        out.push(if s.low {
            view! {
                <span class="sentence low" data-testid="low-support" title=move || t_string!(i18n, low_support)>
                    {body}
                    <span class="low-mark" aria-label=move || t_string!(i18n, low_support)>"?"</span>
                </span>
            }
            .into_any()
        } else {
            view! { <span class="sentence">{body}</span> }.into_any()
        });
        at = s.span.end;
    }
    if at < a.text.len() {
        out.push(a.text[at..].to_string().into_any());
    }
    out.into_any()
}

/// A source's text with its best sentence marked (extractive answers, nearest passages).
/// A source of an answer made of passages: its marked sentence, the whole passage one click
/// away (seventeen whole passages would be pages of text).
fn extract(a: &Answer, s: &Source) -> AnyView {
    let i18n = use_i18n();
    match a.extracts.iter().find(|e| e.n == s.n) {
        Some(e)
            if e.span.end <= s.text.len()
                && s.text.is_char_boundary(e.span.start)
                && s.text.is_char_boundary(e.span.end) =>
        {
            let sentence = s.text[e.span.clone()].to_string();
            let (before, after) = (
                s.text[..e.span.start].to_string(),
                s.text[e.span.end..].to_string(),
            );
            view! {
                <p class="passage extract" data-testid="source-extract"><mark>{sentence.clone()}</mark></p>
                <details class="whole">
                    <summary>{t!(i18n, whole_passage)}</summary>
                    <p class="passage">{before}<mark>{sentence}</mark>{after}</p>
                </details>
            }
            .into_any()
        }
        _ => view! { <p class="passage">{s.text.clone()}</p> }.into_any(),
    }
}

/// The sources given (or found), each opening its page.
#[component]
fn Sources(
    sources: Vec<Source>,
    answer: Option<Answer>,
    selected: RwSignal<Option<Passage>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let cited: Vec<u32> = answer
        .as_ref()
        .map(|a| a.sentences.iter().flat_map(|s| s.cited.clone()).collect())
        .unwrap_or_default();
    // Passages are shown (by their marked sentence) when the answer is made of them.
    let whole = answer.as_ref().filter(|a| {
        matches!(
            a.outcome,
            Outcome::Extractive | Outcome::AbstainedBeforeAsking
        )
    });
    view! {
        <ol class="answer-sources" data-testid="answer-sources">
            {sources
                .into_iter()
                .map(|s| {
                    let passage = Passage::of_source(&s);
                    let is_cited = cited.contains(&s.n);
                    let text = whole.map(|a| extract(a, &s));
                    view! {
                        <li data-testid="answer-source" data-n=s.n.to_string() class:cited=is_cited>
                            <button type="button" class="link" on:click=move |_| selected.set(Some(passage.clone()))>
                                {format!("[{}] ", s.n)}
                                <span class="doc">{s.doc.clone()}</span>
                                {format!(", {} {}", t_string!(i18n, page_short), s.page)}
                            </button>
                            {s.version.as_ref().map(|n| view! {
                                " "
                                <span class="version" data-testid="source-version">
                                    "(" {note_view(i18n, n, None)} ")"
                                </span>
                            })}
                            {text}
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
}

/// The body of a finished answer.
fn finished(a: Answer, selected: RwSignal<Option<Passage>>) -> AnyView {
    let i18n = use_i18n();
    let outcome = match a.outcome {
        Outcome::Answered => "answered",
        Outcome::AbstainedBeforeAsking => "abstained-before",
        Outcome::AbstainedByModel => "abstained-by-model",
        Outcome::Extractive => "extractive",
        Outcome::Library => "library",
    };
    let head = match a.outcome {
        Outcome::Answered => {
            view! { <p class="answer-text" data-testid="answer-text">{sentences(&a, selected)}</p> }
                .into_any()
        }
        Outcome::AbstainedByModel => view! {
            <p class="abstention" data-testid="abstention">
                <strong>{t!(i18n, abstained_by_model)}</strong> " " {a.text.trim().to_string()}
            </p>
        }
        .into_any(),
        Outcome::AbstainedBeforeAsking => {
            let why = a
                .evidence
                .map(|(e, t)| format!("{:.3} < {:.3}", e.top, t.top))
                .unwrap_or_default();
            view! {
                <p class="abstention" data-testid="abstention">
                    <strong>{a.lang.abstention()}</strong> " " {t!(i18n, abstained_before)}
                    " " <span class="score" data-testid="abstention-scores">{why}</span>
                </p>
                <p class="hint">{t!(i18n, nearest_passages)}</p>
            }
            .into_any()
        }
        Outcome::Extractive => {
            view! { <p class="hint" data-testid="extractive">{t!(i18n, extractive_note)}</p> }
                .into_any()
        }
        Outcome::Library => match a.library.clone() {
            Some(l) => library_view(l, selected),
            None => ().into_any(),
        },
    };
    let sources = a.sources.clone();
    let translations = a
        .translations
        .iter()
        .map(|t| {
            let language = match t.lang {
                fonte_core::search::lang::Lang::En => t_string!(i18n, language_en),
                fonte_core::search::lang::Lang::Pt => t_string!(i18n, language_pt),
            };
            view! {
                <p class="hint" data-testid="translation">
                    {t!(i18n, searched_also_as, language = language.to_string())} " "
                    {format!("“{}”", t.text)}
                </p>
            }
        })
        .collect_view();
    // The version the answer comes from, when it cites the current one of a group.
    let version = a
        .sentences
        .iter()
        .flat_map(|s| s.cited.iter())
        .filter_map(|n| a.sources.get((*n as usize).wrapping_sub(1)))
        .find_map(|s| match &s.version {
            Some(VersionNote::Current { date, supersedes }) => Some(view! {
                <p class="hint" data-testid="answer-version">
                    {t!(
                        i18n,
                        answer_version,
                        date = date_text(i18n, *date),
                        doc = s.doc.clone(),
                        older = dates_text(i18n, supersedes)
                    )}
                </p>
            }),
            _ => None,
        });
    // Sources that say different things on one point: both shown, neither picked.
    let conflicts = a
        .conflicts
        .iter()
        .map(|c| {
            let side = |side: &fonte_core::answer::conflict::Side| {
                let s = a.sources.get((side.n as usize).wrapping_sub(1))?;
                let said = s.text.get(side.span.clone())?.trim().to_string();
                Some(view! {
                    <li data-testid="conflict-side" data-n=side.n.to_string()>
                        {chip(s, false, selected)} " " <q>{said}</q>
                    </li>
                })
            };
            view! {
                <div class="conflict" data-testid="conflict" role="note">
                    <strong>{t!(i18n, conflict_title)}</strong>
                    <ul>{side(&c.first)} {side(&c.second)}</ul>
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="answer" data-outcome=outcome>
            {head}
            {version}
            {conflicts}
            {translations}
            <Sources sources=sources answer=Some(a) selected=selected />
        </div>
    }
    .into_any()
}

/// One exchange: its question, then its answer as far as it got.
#[component]
pub fn ExchangeView(
    exchange: Exchange,
    selected: RwSignal<Option<Passage>>,
    on_retry: Callback<Exchange>,
) -> impl IntoView {
    let i18n = use_i18n();
    let e = exchange;
    let kind = move || match e.phase.get() {
        Phase::Translating => "translating",
        Phase::Retrieving => "retrieving",
        Phase::Waiting => "waiting",
        Phase::Streaming => "streaming",
        Phase::Done => "done",
        Phase::Failed(_) => "failed",
        Phase::Broken(_) => "broken",
    };
    // Seconds waited for the first words (a local server may be loading its model).
    let waited = RwSignal::new(0u32);
    let ticker = StoredValue::new_local(None::<gloo::timers::callback::Interval>);
    Effect::new(move |_| {
        if e.phase.get() == Phase::Waiting {
            waited.set(0);
            let tick =
                gloo::timers::callback::Interval::new(1000, move || waited.update(|s| *s += 1));
            ticker.set_value(Some(tick));
        } else {
            // Dropping the interval stops it.
            ticker.set_value(None);
        }
    });
    // Nothing is sent to a model that runs in the page.
    let waiting = move || {
        if e.in_page.get_value() {
            t_string!(i18n, waiting_in_page).to_string()
        } else {
            t_string!(i18n, waiting_for_model).to_string()
        }
    };
    let live = move || {
        let phase = e.phase.get();
        if let Some(a) = e.answer.get() {
            return finished(a, selected);
        }
        let text = e.text.get();
        let sources = e.sources.get();
        let status = match &phase {
            Phase::Translating => Some(t_string!(i18n, translating_question).to_string()),
            Phase::Retrieving if e.word_matches.get() => {
                Some(t_string!(i18n, ask_word_matches).to_string())
            }
            Phase::Retrieving => Some(t_string!(i18n, finding_evidence).to_string()),
            Phase::Waiting => Some(match e.reading.get() {
                Some((read, of)) => format!(
                    "{} {}: {} {read} / {of} ({} s)",
                    waiting(),
                    e.model.get_value(),
                    t_string!(i18n, reading_prompt),
                    waited.get()
                ),
                None => format!("{} {} ({} s)", waiting(), e.model.get_value(), waited.get()),
            }),
            _ => None,
        };
        let failure = match &phase {
            Phase::Failed(f) => Some(failure_view(i18n, f)),
            Phase::Broken(Broken::EndpointIncomplete) => {
                Some(t!(i18n, endpoint_incomplete).into_any())
            }
            Phase::Broken(Broken::Failed(e)) => Some(error_view(i18n, e)),
            _ => None,
        };
        let retry = matches!(phase, Phase::Failed(_));
        view! {
            {status.map(|s| view! { <p class="progress" role="status" data-testid="ask-progress">{s}</p> })}
            {(!text.is_empty()).then(|| view! {
                <p class="answer-text streaming" data-testid="answer-text">{cited(&text, &sources, e.all_versions.get_value(), selected)}</p>
            })}
            {failure.map(|f| view! { <p class="error" role="alert" data-testid="ask-error">{f}</p> })}
            {retry.then(|| view! {
                <button type="button" data-testid="retry" on:click=move |_| on_retry.run(e)>{t!(i18n, retry)}</button>
            })}
            {(!sources.is_empty()).then(|| view! { <Sources sources=sources.clone() answer=None selected=selected /> })}
        }
        .into_any()
    };
    view! {
        <article class="exchange" data-testid="exchange" data-phase=kind aria-live="polite">
            <p class="question" data-testid="asked">{e.question.get_value()}</p>
            {live}
        </article>
    }
}
