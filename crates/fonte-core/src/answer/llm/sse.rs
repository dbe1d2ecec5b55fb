//! Server-sent events (the HTML standard's `text/event-stream`), parsed incrementally from the
//! bytes as they arrive: a chunk may end anywhere, inside a line, a UTF-8 character or between
//! the CR and LF of a line break.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Its `event:` field (`None` for the default, "message").
    pub event: Option<String>,
    /// Its `data:` lines joined with line feeds.
    pub data: String,
}

/// Longest line kept; a server sending more without a line break is not speaking SSE (and
/// would otherwise grow the buffer without bound).
const MAX_LINE: usize = 4 << 20;

/// The parser's state between chunks.
#[derive(Debug, Default)]
pub struct Parser {
    line: Vec<u8>,
    // The last chunk ended with CR: an LF starting the next one belongs to that line break.
    after_cr: bool,
    event: Option<String>,
    data: Vec<String>,
    started: bool,
}

/// A stream that is not SSE.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLong;

impl Parser {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds `bytes`; returns the events they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<Event>, TooLong> {
        let mut out = Vec::new();
        for &b in bytes {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\r' => {
                    self.after_cr = true;
                    self.end_line(&mut out);
                }
                b'\n' => self.end_line(&mut out),
                b => {
                    if self.line.len() >= MAX_LINE {
                        return Err(TooLong);
                    }
                    self.line.push(b);
                }
            }
        }
        Ok(out)
    }

    /// The end of the stream: an event not yet ended by a blank line is dropped, as the
    /// standard says (a cut stream is noticed by the protocol above, which never got its end).
    pub fn finish(self) {}

    fn end_line(&mut self, out: &mut Vec<Event>) {
        let raw = std::mem::take(&mut self.line);
        let mut line = String::from_utf8_lossy(&raw).into_owned();
        if !self.started {
            self.started = true;
            // A byte order mark may start the stream.
            if let Some(rest) = line.strip_prefix('\u{FEFF}') {
                line = rest.to_string();
            }
        }
        if line.is_empty() {
            if !self.data.is_empty() {
                out.push(Event {
                    event: self.event.take(),
                    data: std::mem::take(&mut self.data).join("\n"),
                });
            }
            self.event = None;
            return;
        }
        if line.starts_with(':') {
            return; // a comment (keep-alive)
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_str(), ""),
        };
        match field {
            "data" => self.data.push(value.to_string()),
            "event" => self.event = Some(value.to_string()),
            _ => {} // id, retry and unknown fields: nothing the answer needs
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(chunks: &[&[u8]]) -> Vec<Event> {
        let mut p = Parser::new();
        chunks.iter().flat_map(|c| p.push(c).unwrap()).collect()
    }

    fn data(d: &str) -> Event {
        Event {
            event: None,
            data: d.into(),
        }
    }

    #[test]
    fn events_split_anywhere_come_out_whole() {
        let stream =
            "data: {\"a\":\"ção\"}\n\n: keep-alive\n\nevent: ping\ndata: x\n\ndata: [DONE]\n\n";
        let whole = all(&[stream.as_bytes()]);
        assert_eq!(whole.len(), 3);
        assert_eq!(whole[0], data("{\"a\":\"ção\"}"));
        assert_eq!(whole[1].event.as_deref(), Some("ping"));
        assert_eq!(whole[2], data("[DONE]"));
        // Every split point, including inside "ç" and "ã".
        let bytes = stream.as_bytes();
        for cut in 1..bytes.len() {
            assert_eq!(all(&[&bytes[..cut], &bytes[cut..]]), whole, "cut at {cut}");
        }
        let singles: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(all(&singles), whole);
    }

    #[test]
    fn crlf_cr_multiline_data_and_no_space() {
        let got = all(&[
            b"data:one\r\ndata: two\r",
            b"\n\r\ndata: three\r\rdata: four\n\n",
        ]);
        assert_eq!(got, [data("one\ntwo"), data("three"), data("four")]);
    }

    #[test]
    fn an_event_without_its_blank_line_is_not_dispatched() {
        assert!(all(&[b"data: half"]).is_empty());
    }

    #[test]
    fn a_line_without_end_is_refused_past_the_limit() {
        let mut p = Parser::new();
        let big = vec![b'a'; MAX_LINE + 1];
        assert_eq!(p.push(&big), Err(TooLong));
    }
}
