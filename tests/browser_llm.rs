//! The browser's LLM transport (`fetch`, streamed bodies, abort) in headless Chromium against
//! the scripted protocol server `tests/llm_server.py` (scripts/test.sh starts it and passes
//! its URL as FONTE_TEST_LLM at build time), through the core's stream driver.
#![cfg(target_arch = "wasm32")]

use fonte::platform::llm::Fetch;
use fonte_core::answer::llm::{list_models, stream_answer, Api, Endpoint, Failure};
use fonte_core::answer::prompt::{build, Lang, Prompt, Source};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const LLM: &str = match option_env!("FONTE_TEST_LLM") {
    Some(url) => url,
    None => "http://127.0.0.1:8791/",
};

fn endpoint(script: &str, api: Api) -> Endpoint {
    Endpoint {
        api,
        base_url: format!("{LLM}{script}/v1"),
        model: "scripted-model".into(),
        api_key: Some("sk-test".into()),
        temperature: 0.0,
        max_tokens: 64,
    }
}

fn prompt() -> Prompt {
    let source = Source {
        n: 0,
        doc_id: "d".into(),
        doc: "a.pdf".into(),
        page: 1,
        char_start: 0,
        char_end: 4,
        text: "text".into(),
        version: None,
    };
    build("What is it?", &[], vec![source], 1000, Lang::En)
}

async fn answer(script: &str, api: Api) -> (Result<String, Failure>, String) {
    let fetch = Fetch::new();
    let mut seen = String::new();
    let got = stream_answer(&fetch, &endpoint(script, api), &prompt(), &mut |t| {
        seen.push_str(t)
    })
    .await;
    (got, seen)
}

#[wasm_bindgen_test]
async fn a_stream_arrives_in_pieces_and_whole() {
    let (got, seen) = answer("ok", Api::OpenAi).await;
    assert_eq!(got.as_deref(), Ok("The answer is in the sources [1]."));
    assert_eq!(seen, "The answer is in the sources [1].");
    let (got, _) = answer("anthropic", Api::Anthropic).await;
    assert_eq!(got.as_deref(), Ok("From Anthropic's stream [1]."));
}

#[wasm_bindgen_test]
async fn failures_are_typed_with_what_the_browser_may_read() {
    let (got, _) = answer("rate-limited", Api::OpenAi).await;
    assert_eq!(
        got,
        Err(Failure::RateLimited {
            retry_after_secs: Some(17)
        }),
        "Retry-After is exposed by CORS"
    );
    let (got, _) = answer("unauthorized", Api::OpenAi).await;
    assert!(
        matches!(got, Err(Failure::Unauthorized { status: 401, ref detail }) if detail == "Invalid API key"),
        "{got:?}"
    );
    let (got, seen) = answer("cut", Api::OpenAi).await;
    assert_eq!(got, Err(Failure::Cut));
    assert_eq!(seen, "This answer stops mid-", "what came is kept");
    let (got, _) = answer("no-such-script", Api::OpenAi).await;
    assert!(matches!(got, Err(Failure::NotFound { .. })), "{got:?}");
    let fetch = Fetch::new();
    let mut nowhere = endpoint("ok", Api::OpenAi);
    nowhere.base_url = "http://127.0.0.1:9/v1".into();
    let got = stream_answer(&fetch, &nowhere, &prompt(), &mut |_| {}).await;
    assert!(matches!(got, Err(Failure::Unreachable { .. })), "{got:?}");
}

#[wasm_bindgen_test]
async fn stop_aborts_the_stream_in_flight() {
    let fetch = Fetch::new();
    let mut pieces = 0;
    let got = stream_answer(
        &fetch,
        &endpoint("slow", Api::OpenAi),
        &prompt(),
        &mut |_| {
            pieces += 1;
            fetch.stop();
        },
    )
    .await;
    assert_eq!(got, Err(Failure::Aborted));
    assert_eq!(pieces, 1, "nothing after the stop");
}

#[wasm_bindgen_test]
async fn models_are_listed() {
    let got = list_models(&Fetch::new(), &endpoint("ok", Api::OpenAi)).await;
    assert_eq!(got, Ok(vec!["scripted-model".to_string()]));
}
