//! The wire formats and the stream driver on scripted responses.

use super::fake::{End, Reply, Scripted};
use super::*;
use crate::answer::prompt::{build, Lang, Source};

fn endpoint(api: Api, base: &str) -> Endpoint {
    Endpoint {
        api,
        base_url: base.into(),
        model: "m".into(),
        api_key: Some("sk-test".into()),
        temperature: 0.1,
        max_tokens: 300,
    }
}

fn prompt() -> Prompt {
    let source = Source {
        n: 0,
        doc_id: "d".into(),
        doc: "a.pdf".into(),
        page: 2,
        char_start: 0,
        char_end: 5,
        text: "R is a language.".into(),
        version: None,
    };
    build("What is R?", &[], vec![source], 1000, Lang::En)
}

fn run<T>(f: impl std::future::Future<Output = T>) -> T {
    pollster::block_on(f)
}

/// What llama-server streams for a short answer (a role delta first, a finish chunk, [DONE]).
const OPENAI_STREAM: &str =
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"R é uma \"}}]}\n\n\
: ping\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"linguagem [1].\"}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n\
data: [DONE]\n\n";

const ANTHROPIC_STREAM: &str = "event: message_start\r\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"x\"}}\r\n\r\n\
event: content_block_start\r\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\r\n\r\n\
event: ping\r\ndata: {\"type\":\"ping\"}\r\n\r\n\
event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"R is \"}}\r\n\r\n\
event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a language [1].\"}}\r\n\r\n\
event: content_block_stop\r\ndata: {\"type\":\"content_block_stop\",\"index\":0}\r\n\r\n\
event: message_delta\r\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\r\n\r\n\
event: message_stop\r\ndata: {\"type\":\"message_stop\"}\r\n\r\n";

#[test]
fn openai_requests_join_the_base_and_carry_the_rules_first() {
    for base in [
        "http://127.0.0.1:8080/v1",
        "http://127.0.0.1:8080/v1/",
        " http://127.0.0.1:8080/v1/chat/completions",
    ] {
        let r = endpoint(Api::OpenAi, base).chat_request(&prompt());
        assert_eq!(r.url, "http://127.0.0.1:8080/v1/chat/completions", "{base}");
    }
    let r = endpoint(Api::OpenAi, "http://h/v1").chat_request(&prompt());
    assert_eq!(r.method, Method::Post);
    assert!(r
        .headers
        .contains(&("authorization".into(), "Bearer sk-test".into())));
    let body: Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(body["stream"], true);
    assert_eq!(body["model"], "m");
    assert_eq!(body["max_tokens"], 300);
    assert_eq!(body["messages"][0]["role"], "system");
    assert!(body["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("reply exactly"));
    assert_eq!(body["messages"][1]["role"], "user");
    // No key, no header (a local server).
    let mut local = endpoint(Api::OpenAi, "http://h/v1");
    local.api_key = Some("  ".into());
    assert!(local
        .chat_request(&prompt())
        .headers
        .iter()
        .all(|(k, _)| k != "authorization"));
    assert_eq!(local.models_request().url, "http://h/v1/models");
}

#[test]
fn anthropic_requests_have_their_headers_and_a_system_field() {
    for base in ["https://api.anthropic.com", "https://api.anthropic.com/v1/"] {
        let e = endpoint(Api::Anthropic, base);
        assert_eq!(
            e.chat_request(&prompt()).url,
            "https://api.anthropic.com/v1/messages"
        );
        assert_eq!(
            e.models_request().url,
            "https://api.anthropic.com/v1/models"
        );
    }
    let r = endpoint(Api::Anthropic, "https://api.anthropic.com").chat_request(&prompt());
    for header in [
        ("x-api-key", "sk-test"),
        ("anthropic-version", ANTHROPIC_VERSION),
        ("anthropic-dangerous-direct-browser-access", "true"),
    ] {
        assert!(
            r.headers.contains(&(header.0.into(), header.1.into())),
            "{header:?}"
        );
    }
    let body: Value = serde_json::from_str(&r.body).unwrap();
    assert!(body["system"].as_str().unwrap().contains("reply exactly"));
    assert_eq!(body["messages"][0]["role"], "user");
    assert_eq!(body["messages"].as_array().unwrap().len(), 1);
}

#[test]
fn streams_of_both_apis_give_the_same_answer_however_they_are_split() {
    for (api, stream, want) in [
        (Api::OpenAi, OPENAI_STREAM, "R é uma linguagem [1]."),
        (Api::Anthropic, ANTHROPIC_STREAM, "R is a language [1]."),
    ] {
        for size in [1, 2, 3, 7, 64, 10_000] {
            let t = Scripted::new(vec![Ok(Reply::stream(stream, size))]);
            let mut seen = String::new();
            let got = run(stream_answer(
                &t,
                &endpoint(api, "http://h/v1"),
                &prompt(),
                &mut |s| seen.push_str(s),
            ));
            assert_eq!(got.as_deref(), Ok(want), "{api:?} in pieces of {size}");
            assert_eq!(seen, want, "streamed as it came");
        }
    }
}

#[test]
fn a_finish_reason_without_done_ends_the_answer() {
    let stream = "data: {\"choices\":[{\"delta\":{\"content\":\"ok\"}}]}\n\ndata: {\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}\n\n";
    let t = Scripted::new(vec![Ok(Reply::stream(stream, 5))]);
    let got = run(stream_answer(
        &t,
        &endpoint(Api::OpenAi, "http://h/v1"),
        &prompt(),
        &mut |_| {},
    ));
    assert_eq!(got.as_deref(), Ok("ok"));
}

#[test]
fn progress_reading_the_prompt_is_handed_on_and_is_not_answer_text() {
    // What llama.cpp's server (and wllama in the page) streams with `return_progress`: chunks
    // with `prompt_progress` and empty choices before the first token.
    let stream = "data: {\"choices\":[{\"delta\":{}}],\"prompt_progress\":{\"total\":600,\"cache\":0,\"processed\":256,\"time_ms\":80}}\n\n\
data: {\"choices\":[{\"delta\":{}}],\"prompt_progress\":{\"total\":600,\"cache\":0,\"processed\":600,\"time_ms\":190}}\n\n\
data: {\"choices\":[{\"delta\":{\"content\":\"ok\"}}]}\n\n\
data: [DONE]\n\n";
    let t = Scripted::new(vec![Ok(Reply::stream(stream, 9))]);
    let mut seen = Vec::new();
    let got = run(stream_answer_with(
        &t,
        &endpoint(Api::OpenAi, "http://h/v1"),
        &prompt(),
        &mut |s| seen.push(format!("{s:?}")),
    ));
    assert_eq!(got.as_deref(), Ok("ok"));
    assert_eq!(
        seen,
        [
            "Reading { processed: 256, total: 600 }",
            "Reading { processed: 600, total: 600 }",
            "Text(\"ok\")"
        ]
    );
}

fn failure(reply: Result<Reply, Failure>, api: Api) -> Failure {
    let t = Scripted::new(vec![reply]);
    run(stream_answer(
        &t,
        &endpoint(api, "http://h/v1"),
        &prompt(),
        &mut |_| {},
    ))
    .unwrap_err()
}

#[test]
fn each_failure_is_told_apart() {
    let openai_error =
        r#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#;
    assert_eq!(
        failure(Ok(Reply::status(401, openai_error)), Api::OpenAi),
        Failure::Unauthorized {
            status: 401,
            detail: "Incorrect API key provided".into()
        }
    );
    assert!(matches!(
        failure(Ok(Reply::status(404, r#"{"error":"model 'x' not found"}"#)), Api::OpenAi),
        Failure::NotFound { detail } if detail == "model 'x' not found"
    ));
    let mut limited = Reply::status(429, "slow down");
    limited.retry_after = Some("7".into());
    assert_eq!(
        failure(Ok(limited), Api::OpenAi),
        Failure::RateLimited {
            retry_after_secs: Some(7)
        }
    );
    assert!(matches!(
        failure(Ok(Reply::status(503, "<html>busy</html>")), Api::OpenAi),
        Failure::Server { status: 503, .. }
    ));
    assert!(matches!(
        failure(Ok(Reply::status(400, "{}")), Api::Anthropic),
        Failure::Rejected { status: 400, .. }
    ));
    // A stream that stops before its end: closed, or reset.
    let cut = &OPENAI_STREAM[..OPENAI_STREAM.find("data: [DONE]").unwrap() - 60];
    assert_eq!(
        failure(Ok(Reply::stream(cut, 9)), Api::OpenAi),
        Failure::Cut
    );
    let mut reset = Reply::stream(cut, 9);
    reset.end = End::Fail(Failure::Cut);
    assert_eq!(failure(Ok(reset), Api::OpenAi), Failure::Cut);
    // A 200 that is not a stream, and events that are not the API's JSON.
    assert!(matches!(
        failure(Ok(Reply::stream("<html>login</html>", 4)), Api::OpenAi),
        Failure::Malformed { .. }
    ));
    assert!(matches!(
        failure(Ok(Reply::stream("data: {oops\n\n", 4)), Api::OpenAi),
        Failure::Malformed { .. }
    ));
    // Errors inside the stream.
    let in_stream = "data: {\"error\":{\"message\":\"context too long\"}}\n\n";
    assert!(matches!(
        failure(Ok(Reply::stream(in_stream, 3)), Api::OpenAi),
        Failure::Server { status: 200, detail } if detail == "context too long"
    ));
    let overloaded = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    assert!(matches!(
        failure(Ok(Reply::stream(overloaded, 3)), Api::Anthropic),
        Failure::Server { detail, .. } if detail == "Overloaded"
    ));
    let refused = Failure::Unreachable {
        detail: "Failed to fetch".into(),
    };
    assert_eq!(failure(Err(refused.clone()), Api::OpenAi), refused);
    let mut stopped = Reply::stream(cut, 9);
    stopped.end = End::Fail(Failure::Aborted);
    assert_eq!(failure(Ok(stopped), Api::OpenAi), Failure::Aborted);
}

#[test]
fn models_are_listed_from_either_api() {
    let t = Scripted::new(vec![Ok(Reply::status(
        200,
        r#"{"object":"list","data":[{"id":"smollm2","object":"model"},{"id":"qwen"}]}"#,
    ))]);
    let e = endpoint(Api::OpenAi, "http://h/v1");
    assert_eq!(run(list_models(&t, &e)).unwrap(), ["smollm2", "qwen"]);
    assert_eq!(t.sent.borrow()[0].method, Method::Get);
    let t = Scripted::new(vec![Ok(Reply::status(
        401,
        r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
    ))]);
    let e = endpoint(Api::Anthropic, "https://api.anthropic.com");
    assert!(matches!(
        run(list_models(&t, &e)),
        Err(Failure::Unauthorized { detail, .. }) if detail == "invalid x-api-key"
    ));
}
