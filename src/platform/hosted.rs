//! A bundle on a web server (`?corpus=<url>`, or the one a published folder opens): read by
//! HTTP range requests, so a reader downloads the header, then the index sections, and each
//! PDF only when one of its pages is first shown (docs/BUNDLE.md, "Hosted bundles"). A server
//! that ignores ranges sends the whole file, which is then read as a dropped bundle is.
//! Everything is validated by the core before it is stored.

use fonte_core::share::bundle::{head_len, limits, Accepted, Bundle, Layout, Manifest};
use gloo::net::http::Request;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader};

use super::llm::within;
use super::reader::ReaderWorker;
use crate::error::HostedError;
use crate::{AppError, AppResult};

/// The first request's range: a header of up to ~900 documents fits.
const FIRST_BYTES: u64 = 64 * 1024;
/// Longest wait for a response's headers, and longest silence inside its body: a server that
/// stops sending is given up on rather than waited for.
const SILENCE_MS: u32 = 30_000;
/// Slowest a part may arrive, bytes a second, after [`SILENCE_MS`] of grace: a server that
/// drips a byte at a time (never silent long enough to time out) is given up on too. Slower
/// than any network a person would read a corpus over.
const MIN_BYTES_PER_S: u64 = 8 * 1024;
/// Most bytes a server that ignores ranges may send in place of a part (the whole file,
/// then read as a dropped bundle is): the page holds them, and the reader worker a copy.
const WHOLE_MAX: u64 = limits::FILE;

fn failed(url: &str, why: HostedError) -> AppError {
    AppError::Hosted {
        url: url.to_string(),
        why,
    }
}

/// What a range request got back.
enum Got {
    /// The range asked for (or its part inside the file), and the file's length.
    Part(Vec<u8>, u64),
    /// The whole file (the server ignored the range).
    Whole(Vec<u8>),
}

/// "bytes 0-65535/3020123" as (first, last, length).
fn content_range(header: &str) -> Option<(u64, u64, u64)> {
    let (range, total) = header.strip_prefix("bytes ")?.split_once('/')?;
    let (first, last) = range.split_once('-')?;
    Some((first.parse().ok()?, last.parse().ok()?, total.parse().ok()?))
}

/// Bytes `start..end` of `url`, reporting `on(received, expected)` as they arrive. Whatever
/// the server says, no more is read than was asked (or [`WHOLE_MAX`] of a whole file), and a
/// server silent for [`SILENCE_MS`], or slower than [`MIN_BYTES_PER_S`], is given up on.
async fn fetch_range(
    url: &str,
    start: u64,
    end: u64,
    on: &mut dyn FnMut(u64, u64),
) -> AppResult<Got> {
    let controller = AbortController::new()
        .map_err(|e| failed(url, HostedError::Unreachable(AppError::js_text(&e))))?;
    let sent = Request::get(url)
        .header("Range", &format!("bytes={start}-{}", end.saturating_sub(1)))
        .abort_signal(Some(&controller.signal()))
        .send();
    let response = match within(SILENCE_MS, sent).await {
        None => {
            controller.abort();
            return Err(failed(url, HostedError::TimedOut(SILENCE_MS / 1000)));
        }
        Some(r) => r.map_err(|e| failed(url, HostedError::Unreachable(e.to_string())))?,
    };
    let status = response.status();
    let header = |name: &str| response.headers().get(name);
    // How many bytes may come, and the file's length for a part.
    let (expected, total) = match status {
        206 => {
            let (first, last, total) = header("content-range")
                .as_deref()
                .and_then(content_range)
                .ok_or_else(|| failed(url, HostedError::WrongRange))?;
            // Exactly the range asked, or its part inside a shorter file.
            if first != start || last < first || last >= end || last >= total {
                controller.abort();
                return Err(failed(url, HostedError::WrongRange));
            }
            (last - first + 1, Some(total))
        }
        200 => {
            let declared = header("content-length").and_then(|l| l.parse::<u64>().ok());
            if declared.is_some_and(|l| l > WHOLE_MAX) {
                controller.abort();
                return Err(failed(url, HostedError::TooLarge(WHOLE_MAX)));
            }
            (declared.unwrap_or(WHOLE_MAX), None)
        }
        other => {
            controller.abort();
            return Err(failed(url, HostedError::Status(other)));
        }
    };
    let reader = response
        .body()
        .and_then(|b| {
            b.get_reader()
                .dyn_into::<ReadableStreamDefaultReader>()
                .ok()
        })
        .ok_or_else(|| failed(url, HostedError::Cut))?;
    let mut bytes = Vec::new();
    let started = js_sys::Date::now();
    let allowed_ms = SILENCE_MS as f64 + expected as f64 * 1000.0 / MIN_BYTES_PER_S as f64;
    loop {
        let spent = js_sys::Date::now() - started;
        let wait = (allowed_ms - spent).clamp(0.0, SILENCE_MS as f64) as u32;
        let too_slow = |received: usize| HostedError::TooSlow {
            received: received as u64,
            secs: ((js_sys::Date::now() - started) / 1000.0) as u32,
        };
        if wait == 0 {
            controller.abort();
            return Err(failed(url, too_slow(bytes.len())));
        }
        let result = match within(wait, JsFuture::from(reader.read())).await {
            None if wait < SILENCE_MS => {
                controller.abort();
                return Err(failed(url, too_slow(bytes.len())));
            }
            None => {
                controller.abort();
                return Err(failed(url, HostedError::TimedOut(SILENCE_MS / 1000)));
            }
            Some(r) => r.map_err(|_| failed(url, HostedError::Cut))?,
        };
        let done = Reflect::get(&result, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        let value = Reflect::get(&result, &"value".into())
            .map_err(|_| failed(url, HostedError::Cut))?
            .unchecked_into::<Uint8Array>();
        if bytes.len() as u64 + value.length() as u64 > expected {
            controller.abort();
            return Err(failed(
                url,
                if status == 200 && expected == WHOLE_MAX {
                    HostedError::TooLarge(WHOLE_MAX)
                } else {
                    HostedError::MoreThanAsked
                },
            ));
        }
        bytes.extend_from_slice(&value.to_vec());
        on(bytes.len() as u64, expected);
    }
    match total {
        Some(total) if bytes.len() as u64 == expected => Ok(Got::Part(bytes, total)),
        Some(_) => Err(failed(url, HostedError::Cut)),
        None => Ok(Got::Whole(bytes)),
    }
}

/// A hosted bundle whose header has been read.
pub struct Hosted {
    url: String,
    // The header (sent with each request to the reader worker) and its table, and the
    // manifest once the index has been read.
    head: Vec<u8>,
    layout: Option<Layout>,
    manifest: Option<Manifest>,
    // Set when the server sent the whole file: nothing more to fetch.
    whole: Option<Vec<u8>>,
    total: u64,
    /// SHA-256 of the header (hex): changes when the bundle at the address changes.
    pub version: String,
}

impl Hosted {
    /// Reads the header of the bundle at `url` (absolute), `on(bytes, of)` as it arrives. Its
    /// table of sections is read here (fixed-size entries, bounds-checked, nothing inflated):
    /// it says which ranges to fetch; every section is validated in the reader worker.
    pub async fn open(url: &str, on: &mut dyn FnMut(u64, u64)) -> AppResult<Self> {
        use sha2::{Digest, Sha256};
        let (head, total) = match fetch_range(url, 0, FIRST_BYTES, on).await? {
            Got::Whole(all) => {
                let len = head_len(&all)?.min(all.len() as u64) as usize;
                let version = hex::encode(Sha256::digest(&all[..len]));
                let total = all.len() as u64;
                return Ok(Self {
                    url: url.to_string(),
                    head: Vec::new(),
                    layout: None,
                    manifest: None,
                    whole: Some(all),
                    total,
                    version,
                });
            }
            Got::Part(mut head, total) => {
                let want = head_len(&head)?;
                if want > head.len() as u64 && want <= total {
                    if let Got::Part(rest, _) =
                        fetch_range(url, head.len() as u64, want, on).await?
                    {
                        head.extend_from_slice(&rest);
                    }
                }
                (head, total)
            }
        };
        let layout = Layout::parse(&head, total)?;
        let len = head_len(&head)?.min(head.len() as u64) as usize;
        Ok(Self {
            url: url.to_string(),
            version: hex::encode(Sha256::digest(&head[..len])),
            head,
            layout: Some(layout),
            manifest: None,
            whole: None,
            total,
        })
    }

    /// Bytes of the file.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The bundle without its PDFs (with them when the server sent the whole file), fetched
    /// with `on(bytes, of)` as the index arrives and validated by `reader` (a bundle of a model
    /// not in `accept`, when not empty, is refused from its manifest).
    pub async fn index(
        &mut self,
        reader: &ReaderWorker,
        on: &mut dyn FnMut(u64, u64),
        accept: &[Accepted],
    ) -> AppResult<Bundle> {
        if self.whole.is_none() {
            let layout = self.layout.as_ref().expect("a partial read has a layout");
            let r = layout.index_range();
            match fetch_range(&self.url, r.start, r.end, on).await? {
                Got::Part(window, _) => {
                    let bundle = reader
                        .read_hosted(&self.head, self.total, r.start, &window, accept.to_vec())
                        .await??;
                    self.manifest = Some(bundle.manifest.clone());
                    return Ok(bundle);
                }
                // The file changed to a server without ranges between two requests.
                Got::Whole(all) => self.whole = Some(all),
            }
        }
        let all = self.whole.as_deref().expect("set above");
        let bundle = reader.read_bundle(all, accept.to_vec()).await??;
        self.manifest = Some(bundle.manifest.clone());
        Ok(bundle)
    }

    /// The PDF of the document with SHA-256 `id`, fetched by its range and checked by
    /// `reader`; `None` when the bundle has none for it.
    pub async fn pdf(&mut self, reader: &ReaderWorker, id: &str) -> AppResult<Option<Vec<u8>>> {
        if self.manifest.is_none() {
            // The library holds this bundle already: its model is the library's.
            self.index(reader, &mut |_, _| {}, &[]).await?;
        }
        let manifest = self.manifest.as_ref().expect("read by index");
        let Some(doc) = manifest.documents.iter().position(|d| d.id == id) else {
            return Ok(None);
        };
        if let Some(all) = &self.whole {
            let bundle = reader.read_bundle(all, Vec::new()).await??;
            return Ok(bundle.documents.into_iter().nth(doc).map(|d| d.pdf));
        }
        let layout = self.layout.as_ref().expect("a partial read has a layout");
        let Some(r) = layout.pdf_range(doc) else {
            return Ok(None);
        };
        let document = manifest.documents[doc].clone();
        let bytes = match fetch_range(&self.url, r.start, r.end, &mut |_, _| {}).await? {
            Got::Part(bytes, _) => bytes,
            Got::Whole(all) => all
                .get(r.start as usize..r.end as usize)
                .ok_or_else(|| failed(&self.url, HostedError::Cut))?
                .to_vec(),
        };
        let pdf = reader
            .read_hosted_pdf(&self.head, self.total, doc, document, &bytes)
            .await??;
        Ok(Some(pdf))
    }
}
