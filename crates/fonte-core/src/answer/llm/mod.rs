//! The LLM endpoints' wire formats: OpenAI-compatible chat completions (OpenAI, Groq, Ollama
//! at `/v1`, llama.cpp's `llama-server`, vLLM, LM Studio) and Anthropic Messages, each
//! streamed as server-sent events ([`sse`]). Platform-free: a [`Transport`] sends the request
//! (the browser's `fetch`, or a fake in tests), [`stream_answer`] turns the bytes into text
//! as it arrives, and every failure is a typed [`Failure`] the page words.

mod failure;
pub mod fake;
pub mod preset;
pub mod sse;

pub use failure::{failure_for_status, Failure};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::answer::prompt::{Prompt, Role};

/// The two API families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Api {
    /// `POST {base}/chat/completions`, `GET {base}/models`.
    OpenAi,
    /// `POST {base}/v1/messages`, `GET {base}/v1/models`.
    Anthropic,
}

/// Anthropic's API version this client speaks.
const ANTHROPIC_VERSION: &str = "2023-06-01";

/// Where to ask, and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Endpoint {
    /// The API family.
    pub api: Api,
    /// Base URL, e.g. `http://127.0.0.1:8080/v1` or `https://api.anthropic.com`.
    pub base_url: String,
    /// The model name the server knows.
    pub model: String,
    /// The API key, if the server needs one.
    pub api_key: Option<String>,
    /// Sampling temperature.
    pub temperature: f32,
    /// Most tokens the answer may take.
    pub max_tokens: u32,
}

/// HTTP method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// GET.
    Get,
    /// POST.
    Post,
}

/// A request for a [`Transport`] to send.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    /// The method.
    pub method: Method,
    /// The absolute URL.
    pub url: String,
    /// Header names and values.
    pub headers: Vec<(String, String)>,
    /// The JSON body (empty for GET).
    pub body: String,
}

/// `base` without trailing slashes, plus `path`, unless `base` already ends with it.
fn join(base: &str, path: &str) -> String {
    let base = base.trim().trim_end_matches('/');
    if base.ends_with(path) {
        base.to_string()
    } else {
        format!("{base}{path}")
    }
}

impl Endpoint {
    fn headers(&self) -> Vec<(String, String)> {
        let mut h = vec![("content-type".to_string(), "application/json".to_string())];
        let key = self
            .api_key
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty());
        match self.api {
            Api::OpenAi => {
                if let Some(key) = key {
                    h.push(("authorization".into(), format!("Bearer {key}")));
                }
            }
            Api::Anthropic => {
                if let Some(key) = key {
                    h.push(("x-api-key".into(), key.to_string()));
                }
                h.push(("anthropic-version".into(), ANTHROPIC_VERSION.into()));
                // Anthropic refuses calls from a browser page without this header.
                h.push((
                    "anthropic-dangerous-direct-browser-access".into(),
                    "true".into(),
                ));
            }
        }
        h
    }

    /// The streaming chat request for `prompt`.
    pub fn chat_request(&self, prompt: &Prompt) -> HttpRequest {
        let role = |r: Role| match r {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        let turns = prompt
            .messages
            .iter()
            .map(|m| json!({ "role": role(m.role), "content": m.content }));
        let (url, body) = match self.api {
            Api::OpenAi => {
                let mut messages = vec![json!({ "role": "system", "content": prompt.system })];
                messages.extend(turns);
                let body = json!({
                    "model": self.model,
                    "messages": messages,
                    "stream": true,
                    "temperature": self.temperature,
                    "max_tokens": self.max_tokens,
                });
                (join(&self.base_url, "/chat/completions"), body)
            }
            Api::Anthropic => {
                let body = json!({
                    "model": self.model,
                    "system": prompt.system,
                    "messages": turns.collect::<Vec<_>>(),
                    "stream": true,
                    "temperature": self.temperature,
                    "max_tokens": self.max_tokens,
                });
                (self.anthropic_url("/messages"), body)
            }
        };
        HttpRequest {
            method: Method::Post,
            url,
            headers: self.headers(),
            body: body.to_string(),
        }
    }

    /// The request listing the server's models ("test connection").
    pub fn models_request(&self) -> HttpRequest {
        let url = match self.api {
            Api::OpenAi => join(&self.base_url, "/models"),
            Api::Anthropic => self.anthropic_url("/models"),
        };
        let headers = self
            .headers()
            .into_iter()
            .filter(|(k, _)| k != "content-type")
            .collect();
        HttpRequest {
            method: Method::Get,
            url,
            headers,
            body: String::new(),
        }
    }

    fn anthropic_url(&self, path: &str) -> String {
        let base = self.base_url.trim().trim_end_matches('/');
        if base.ends_with("/v1") {
            join(base, path)
        } else {
            join(&format!("{base}/v1"), path)
        }
    }
}

/// The model ids in a models listing (both APIs answer `{"data": [{"id": …}, …]}`).
pub fn parse_models(body: &str) -> Result<Vec<String>, Failure> {
    let v: Value = serde_json::from_str(body).map_err(|e| Failure::Malformed {
        detail: format!("models listing: {e}"),
    })?;
    let list = v
        .get("data")
        .or_else(|| v.get("models"))
        .and_then(Value::as_array)
        .ok_or_else(|| Failure::Malformed {
            detail: "models listing has no data array".into(),
        })?;
    Ok(list
        .iter()
        .filter_map(|m| m.get("id").or_else(|| m.get("name")))
        .filter_map(Value::as_str)
        .map(String::from)
        .collect())
}

/// What one event of a stream means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delta {
    /// More answer text.
    Text(String),
    /// The answer is complete.
    Done,
    /// Nothing for the answer (start, pings, usage).
    Nothing,
    /// The model is reading the prompt: this many of its tokens so far (llama.cpp's
    /// `prompt_progress`, sent when the request asks for it, as the page's own model does).
    Reading {
        /// Tokens read (from the cache included).
        processed: u32,
        /// Tokens in the prompt.
        total: u32,
    },
}

/// What a streamed answer hands its caller as it arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Streamed<'a> {
    /// More answer text.
    Text(&'a str),
    /// Progress reading the prompt ([`Delta::Reading`]).
    Reading {
        /// Tokens read.
        processed: u32,
        /// Tokens in the prompt.
        total: u32,
    },
}

/// Decodes one event of `api`'s stream.
pub fn decode(api: Api, event: &sse::Event) -> Result<Delta, Failure> {
    let malformed = |what: &str| Failure::Malformed {
        detail: format!(
            "{what}: {}",
            event.data.chars().take(120).collect::<String>()
        ),
    };
    if api == Api::OpenAi && event.data.trim() == "[DONE]" {
        return Ok(Delta::Done);
    }
    let v: Value = serde_json::from_str(&event.data).map_err(|_| malformed("not JSON"))?;
    if v.get("error").is_some() || event.event.as_deref() == Some("error") {
        return Err(Failure::Server {
            status: 200,
            detail: failure::error_detail(&event.data),
        });
    }
    match api {
        Api::OpenAi => {
            if let Some(p) = v.get("prompt_progress") {
                let n = |k: &str| p.get(k).and_then(Value::as_u64).unwrap_or(0) as u32;
                return Ok(Delta::Reading {
                    processed: n("processed"),
                    total: n("total"),
                });
            }
            let Some(choice) = v.get("choices").and_then(|c| c.get(0)) else {
                // Usage or other chunks without choices.
                return Ok(Delta::Nothing);
            };
            let text = choice
                .get("delta")
                .and_then(|d| d.get("content"))
                .and_then(Value::as_str)
                .unwrap_or("");
            if !text.is_empty() {
                return Ok(Delta::Text(text.to_string()));
            }
            // Some servers end with a finish reason and no [DONE].
            let finished = choice.get("finish_reason").is_some_and(|f| !f.is_null());
            Ok(if finished {
                Delta::Done
            } else {
                Delta::Nothing
            })
        }
        Api::Anthropic => {
            let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
            match kind {
                "content_block_delta" => {
                    let delta = v.get("delta").ok_or_else(|| malformed("no delta"))?;
                    match delta.get("type").and_then(Value::as_str) {
                        Some("text_delta") => Ok(Delta::Text(
                            delta
                                .get("text")
                                .and_then(Value::as_str)
                                .unwrap_or("")
                                .to_string(),
                        )),
                        // Thinking, tool input: not part of the answer.
                        _ => Ok(Delta::Nothing),
                    }
                }
                "message_stop" => Ok(Delta::Done),
                _ => Ok(Delta::Nothing),
            }
        }
    }
}

/// A response whose body is being read.
#[allow(async_fn_in_trait)]
pub trait Body {
    /// The next piece of the body, `None` at its end.
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Failure>;
}

/// Sends HTTP requests: the browser's `fetch` (with its abort signal and timeout), or a fake.
/// Browser futures are not `Send`, so neither are these.
#[allow(async_fn_in_trait)]
pub trait Transport {
    /// The body type.
    type Body: Body;
    /// Sends `request`; the status, the Retry-After header and the body, once headers arrive.
    async fn send(
        &self,
        request: &HttpRequest,
    ) -> Result<(u16, Option<String>, Self::Body), Failure>;
}

/// Most bytes of an error body read (its message is at the start).
const ERROR_BODY_MAX: usize = 64 << 10;
/// Most bytes of a models listing read (hosted routers list hundreds of models).
const MODELS_BODY_MAX: usize = 8 << 20;

/// Reads a whole (small) body, up to `max` bytes.
async fn read_body(body: &mut impl Body, max: usize) -> String {
    let mut bytes = Vec::new();
    while bytes.len() < max {
        match body.chunk().await {
            Ok(Some(c)) => bytes.extend_from_slice(&c),
            _ => break,
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Asks `endpoint` with `prompt`, handing each piece of the answer to `on_text` as it arrives;
/// the whole answer once the stream says it is complete.
pub async fn stream_answer<T: Transport>(
    transport: &T,
    endpoint: &Endpoint,
    prompt: &Prompt,
    on_text: &mut dyn FnMut(&str),
) -> Result<String, Failure> {
    stream_answer_with(transport, endpoint, prompt, &mut |s| {
        if let Streamed::Text(t) = s {
            on_text(t)
        }
    })
    .await
}

/// [`stream_answer`], also handing on the progress reading the prompt where the model says it.
pub async fn stream_answer_with<T: Transport>(
    transport: &T,
    endpoint: &Endpoint,
    prompt: &Prompt,
    on: &mut dyn FnMut(Streamed<'_>),
) -> Result<String, Failure> {
    let request = endpoint.chat_request(prompt);
    let (status, retry_after, mut body) = transport.send(&request).await?;
    if !(200..300).contains(&status) {
        let text = read_body(&mut body, ERROR_BODY_MAX).await;
        return Err(failure_for_status(status, retry_after.as_deref(), &text));
    }
    let mut parser = sse::Parser::new();
    let mut answer = String::new();
    let mut events = 0usize;
    while let Some(bytes) = body.chunk().await? {
        let parsed = parser.push(&bytes).map_err(|_| Failure::Malformed {
            detail: "a line without end".into(),
        })?;
        for event in parsed {
            events += 1;
            match decode(endpoint.api, &event)? {
                Delta::Text(t) => {
                    on(Streamed::Text(&t));
                    answer.push_str(&t);
                }
                Delta::Done => return Ok(answer),
                Delta::Reading { processed, total } => on(Streamed::Reading { processed, total }),
                Delta::Nothing => {}
            }
        }
    }
    if events == 0 {
        // A 200 that is not a stream at all (a proxy's HTML page, a JSON reply).
        return Err(Failure::Malformed {
            detail: "no events in the response".into(),
        });
    }
    Err(Failure::Cut)
}

/// The model ids the endpoint lists.
pub async fn list_models<T: Transport>(
    transport: &T,
    endpoint: &Endpoint,
) -> Result<Vec<String>, Failure> {
    let (status, retry_after, mut body) = transport.send(&endpoint.models_request()).await?;
    let text = read_body(&mut body, MODELS_BODY_MAX).await;
    if !(200..300).contains(&status) {
        return Err(failure_for_status(status, retry_after.as_deref(), &text));
    }
    parse_models(&text)
}

#[cfg(test)]
mod tests;
