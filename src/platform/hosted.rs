//! A bundle on a web server (`?corpus=<url>`, or the one a published folder opens): read by
//! HTTP range requests, so a reader downloads the header, then the index sections, and each
//! PDF only when one of its pages is first shown (docs/BUNDLE.md, "Hosted bundles"). A server
//! that ignores ranges sends the whole file, which is then read as a dropped bundle is.
//! Everything is validated by the core before it is stored.

use fonte_core::share::bundle::{
    head_len, read, read_accepting, Accepted, Bundle, Layout, Manifest,
};
use gloo::net::http::Request;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::ReadableStreamDefaultReader;

use crate::{AppError, AppResult};

/// The first request's range: a header of up to ~900 documents fits.
const FIRST_BYTES: u64 = 64 * 1024;

fn failed(url: &str, reason: impl Into<String>) -> AppError {
    AppError::Asset {
        url: url.to_string(),
        reason: reason.into(),
    }
}

/// What a range request got back.
enum Got {
    /// The range asked for, and the file's length (from `Content-Range`).
    Part(Vec<u8>, u64),
    /// The whole file (the server ignored the range).
    Whole(Vec<u8>),
}

/// Bytes `start..end` of `url`, reporting `on(received, expected)` as they arrive.
async fn fetch_range(
    url: &str,
    start: u64,
    end: u64,
    on: &mut dyn FnMut(u64, u64),
) -> AppResult<Got> {
    let response = Request::get(url)
        .header("Range", &format!("bytes={start}-{}", end.saturating_sub(1)))
        .send()
        .await
        .map_err(|e| failed(url, e.to_string()))?;
    let status = response.status();
    if status != 200 && status != 206 {
        return Err(failed(url, format!("HTTP {status}")));
    }
    // "bytes 0-65535/3020123": the file's length after the slash.
    let total = response
        .headers()
        .get("content-range")
        .and_then(|r| r.rsplit('/').next().and_then(|t| t.parse::<u64>().ok()));
    let expected = match (status, total) {
        (206, _) => end - start,
        _ => response
            .headers()
            .get("content-length")
            .and_then(|l| l.parse().ok())
            .unwrap_or(0),
    };
    let mut bytes = Vec::with_capacity(expected.min(1 << 30) as usize);
    let reader = response
        .body()
        .and_then(|b| {
            b.get_reader()
                .dyn_into::<ReadableStreamDefaultReader>()
                .ok()
        })
        .ok_or_else(|| failed(url, "no body"))?;
    loop {
        let result = JsFuture::from(reader.read())
            .await
            .map_err(|e| failed(url, AppError::js_text(&e)))?;
        let done = Reflect::get(&result, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        let value = Reflect::get(&result, &"value".into())
            .map_err(|e| failed(url, AppError::js_text(&e)))?;
        bytes.extend_from_slice(&value.unchecked_into::<Uint8Array>().to_vec());
        on(bytes.len() as u64, expected);
    }
    match (status, total) {
        (206, Some(total)) => Ok(Got::Part(bytes, total)),
        (206, None) => Err(failed(url, "a partial response without Content-Range")),
        _ => Ok(Got::Whole(bytes)),
    }
}

/// A hosted bundle whose header has been read.
pub struct Hosted {
    url: String,
    // The table, and the manifest once the index has been read.
    layout: Option<Layout>,
    manifest: Option<Manifest>,
    // Set when the server sent the whole file: nothing more to fetch.
    whole: Option<Vec<u8>>,
    total: u64,
    /// SHA-256 of the header (hex): changes when the bundle at the address changes.
    pub version: String,
}

impl Hosted {
    /// Reads the header of the bundle at `url` (absolute), `on(bytes, of)` as it arrives.
    pub async fn open(url: &str, on: &mut dyn FnMut(u64, u64)) -> AppResult<Self> {
        use sha2::{Digest, Sha256};
        let (head, total) = match fetch_range(url, 0, FIRST_BYTES, on).await? {
            Got::Whole(all) => {
                let len = head_len(&all)?.min(all.len() as u64) as usize;
                let version = hex::encode(Sha256::digest(&all[..len]));
                let total = all.len() as u64;
                return Ok(Self {
                    url: url.to_string(),
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
            layout: Some(layout),
            manifest: None,
            whole: None,
            total,
            version: hex::encode(Sha256::digest(&head[..len])),
        })
    }

    /// Bytes of the file.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The validated bundle without its PDFs (with them when the server sent the whole file),
    /// `on(bytes, of)` as the index arrives.
    /// A bundle of a model not in `accept` (when not empty) is refused from its manifest.
    pub async fn index(
        &mut self,
        on: &mut dyn FnMut(u64, u64),
        accept: &[Accepted],
    ) -> AppResult<Bundle> {
        if let Some(all) = &self.whole {
            let bundle = read_accepting(all, accept)?;
            self.manifest = Some(bundle.manifest.clone());
            return Ok(bundle);
        }
        let layout = self.layout.as_ref().expect("a partial read has a layout");
        let r = layout.index_range();
        let window = match fetch_range(&self.url, r.start, r.end, on).await? {
            Got::Part(bytes, _) => bytes,
            // The file changed to a server without ranges between two requests: read it all.
            Got::Whole(all) => {
                let bundle = read_accepting(&all, accept)?;
                self.manifest = Some(bundle.manifest.clone());
                self.whole = Some(all);
                return Ok(bundle);
            }
        };
        let bundle = layout.assemble(r.start, &window, accept)?;
        self.manifest = Some(bundle.manifest.clone());
        Ok(bundle)
    }

    /// The PDF of the document with SHA-256 `id`, fetched by its range and checked; `None`
    /// when the bundle has none for it.
    pub async fn pdf(&mut self, id: &str) -> AppResult<Option<Vec<u8>>> {
        if self.manifest.is_none() {
            // The library holds this bundle already: its model is the library's.
            self.index(&mut |_, _| {}, &[]).await?;
        }
        let manifest = self.manifest.as_ref().expect("read by index");
        let Some(doc) = manifest.documents.iter().position(|d| d.id == id) else {
            return Ok(None);
        };
        if let Some(all) = &self.whole {
            return Ok(read(all)?.documents.into_iter().nth(doc).map(|d| d.pdf));
        }
        let layout = self.layout.as_ref().expect("a partial read has a layout");
        let Some(r) = layout.pdf_range(doc) else {
            return Ok(None);
        };
        let bytes = match fetch_range(&self.url, r.start, r.end, &mut |_, _| {}).await? {
            Got::Part(bytes, _) => bytes,
            Got::Whole(all) => all
                .get(r.start as usize..r.end as usize)
                .ok_or_else(|| failed(&self.url, "the file is shorter than its header says"))?
                .to_vec(),
        };
        Ok(Some(layout.open_pdf(manifest, doc, &bytes)?))
    }
}
