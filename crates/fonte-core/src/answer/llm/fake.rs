//! An in-memory [`Transport`]: replays a scripted response (status, Retry-After, body pieces,
//! then an end, an error or a cut) and records the requests it got. Tests of the ask path use
//! it in place of the browser's `fetch`; the CLI's tests use a real server.

use std::cell::RefCell;
use std::collections::VecDeque;

use super::{Body, Failure, HttpRequest, Transport};

/// How a scripted body ends after its pieces.
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    /// Normally.
    Close,
    /// With this failure (a connection reset is [`Failure::Cut`]; a stop, `Aborted`).
    Fail(Failure),
}

/// One scripted response.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// The Retry-After header.
    pub retry_after: Option<String>,
    /// Body pieces, delivered one per [`Body::chunk`].
    pub pieces: Vec<Vec<u8>>,
    /// What follows the pieces.
    pub end: End,
}

impl Reply {
    /// A 200 whose body is `text` cut into pieces of `size` bytes (splitting lines and UTF-8
    /// characters anywhere, as a network does).
    pub fn stream(text: &str, size: usize) -> Self {
        Self {
            status: 200,
            retry_after: None,
            pieces: text
                .as_bytes()
                .chunks(size.max(1))
                .map(<[u8]>::to_vec)
                .collect(),
            end: End::Close,
        }
    }

    /// A response with `status` and `body` in one piece.
    pub fn status(status: u16, body: &str) -> Self {
        Self {
            status,
            retry_after: None,
            pieces: vec![body.as_bytes().to_vec()],
            end: End::Close,
        }
    }
}

/// Replays replies in order; a send past the last is refused as unreachable.
#[derive(Debug, Default)]
pub struct Scripted {
    replies: RefCell<VecDeque<Result<Reply, Failure>>>,
    /// Every request sent, in order.
    pub sent: RefCell<Vec<HttpRequest>>,
}

impl Scripted {
    /// Replays `replies`: `Err` is a send that fails before any response.
    pub fn new(replies: Vec<Result<Reply, Failure>>) -> Self {
        Self {
            replies: RefCell::new(replies.into()),
            sent: RefCell::new(Vec::new()),
        }
    }
}

/// A scripted body.
pub struct ScriptedBody {
    pieces: VecDeque<Vec<u8>>,
    end: Option<End>,
}

impl Body for ScriptedBody {
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Failure> {
        if let Some(p) = self.pieces.pop_front() {
            return Ok(Some(p));
        }
        match self.end.take() {
            Some(End::Fail(f)) => Err(f),
            _ => Ok(None),
        }
    }
}

impl Transport for Scripted {
    type Body = ScriptedBody;

    async fn send(
        &self,
        request: &HttpRequest,
    ) -> Result<(u16, Option<String>, ScriptedBody), Failure> {
        self.sent.borrow_mut().push(request.clone());
        let next = self.replies.borrow_mut().pop_front();
        let reply = next.unwrap_or_else(|| {
            Err(Failure::Unreachable {
                detail: "no scripted reply left".into(),
            })
        })?;
        Ok((
            reply.status,
            reply.retry_after,
            ScriptedBody {
                pieces: reply.pieces.into(),
                end: Some(reply.end),
            },
        ))
    }
}
