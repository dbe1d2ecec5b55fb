//! The core's [`Transport`] over `ureq` (blocking: the CLI asks one question at a time, and
//! the body is read as it arrives, so the answer still streams).

use std::io::Read;
use std::time::Duration;

use fonte_core::answer::llm::{Body, Failure, HttpRequest, Method, Transport};

/// How long to wait for a connection, and for the response's headers (a local model may
/// take a while to load before its first token).
const CONNECT: Duration = Duration::from_secs(10);
const FIRST_RESPONSE: Duration = Duration::from_secs(300);

/// Sends requests with one `ureq` agent.
pub struct Ureq {
    agent: ureq::Agent,
}

impl Ureq {
    /// An agent that hands every status back (the core words them) instead of failing.
    pub fn new() -> Self {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            // Never followed: the key goes only to the address given (the core refuses a 3xx).
            .max_redirects(0)
            .timeout_connect(Some(CONNECT))
            .timeout_recv_response(Some(FIRST_RESPONSE))
            .build();
        Self {
            agent: config.into(),
        }
    }
}

fn failure(e: ureq::Error) -> Failure {
    match e {
        ureq::Error::Timeout(_) => Failure::TimedOut,
        ureq::Error::Io(ref io) if io.kind() == std::io::ErrorKind::TimedOut => Failure::TimedOut,
        other => Failure::Unreachable {
            detail: other.to_string(),
        },
    }
}

/// A response body, read in pieces.
pub struct Reader {
    inner: Box<dyn Read + Send>,
}

impl Body for Reader {
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Failure> {
        let mut buf = vec![0u8; 16 << 10];
        match self.inner.read(&mut buf) {
            Ok(0) => Ok(None),
            Ok(n) => {
                buf.truncate(n);
                Ok(Some(buf))
            }
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => Err(Failure::TimedOut),
            // A connection reset or closed mid-body: the answer was cut.
            Err(_) => Err(Failure::Cut),
        }
    }
}

impl Transport for Ureq {
    type Body = Reader;

    async fn send(&self, request: &HttpRequest) -> Result<(u16, Option<String>, Reader), Failure> {
        let response = match request.method {
            Method::Get => {
                let mut r = self.agent.get(&request.url);
                for (k, v) in &request.headers {
                    r = r.header(k, v);
                }
                r.call()
            }
            Method::Post => {
                let mut r = self.agent.post(&request.url);
                for (k, v) in &request.headers {
                    r = r.header(k, v);
                }
                r.send(request.body.as_str())
            }
        }
        .map_err(failure)?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        let inner = Box::new(response.into_body().into_reader());
        Ok((status, retry_after, Reader { inner }))
    }
}
