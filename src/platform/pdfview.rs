//! Rendering a stored PDF's page with pdf.js (npm `pdfjs-dist`, self-hosted under `pdfjs/` with
//! its fonts, CMaps and decoders, so it requests nothing from elsewhere).
//!
//! Why pdf.js: it is the renderer browsers themselves ship (Firefox), handles the fonts and
//! encodings our fixtures use, runs its parsing in a worker, and exposes the text positions we
//! need to mark the passage. Rendering PDFs in Rust would mean a rasterizer (e.g. pdfium) that
//! does not build for wasm32-unknown-unknown.

use wasm_bindgen::prelude::*;

use crate::{AppError, AppResult};

#[wasm_bindgen(inline_js = r#"
const norm = (s) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

export async function render_pdf_page(container, bytes, pageNumber, passage, marks) {
  const base = new URL('pdfjs/', document.baseURI);
  const pdfjs = await import(new URL('pdf.min.mjs', base).href);
  pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdf.worker.min.mjs', base).href;
  const task = pdfjs.getDocument({
    data: bytes,
    isEvalSupported: false,
    enableXfa: false,
    standardFontDataUrl: new URL('standard_fonts/', base).href,
    cMapUrl: new URL('cmaps/', base).href,
    cMapPacked: true,
    wasmUrl: new URL('wasm/', base).href,
  });
  const doc = await task.promise;
  try {
    const page = await doc.getPage(pageNumber);
    const width = Math.max(320, container.clientWidth || 800);
    const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
    const ratio = window.devicePixelRatio || 1;
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    canvas.style.width = `${Math.floor(viewport.width)}px`;
    canvas.style.height = `${Math.floor(viewport.height)}px`;
    canvas.setAttribute('role', 'img');
    const ctx = canvas.getContext('2d');
    await page.render({
      canvas,
      canvasContext: ctx,
      viewport,
      transform: ratio === 1 ? null : [ratio, 0, 0, ratio, 0, 0],
    }).promise;
    let marked = 0;
    ctx.save();
    ctx.scale(ratio, ratio);
    ctx.globalCompositeOperation = 'multiply';
    ctx.fillStyle = 'rgba(255, 213, 0, 0.45)';
    // The passage's lines, placed by Fonte's own text layer (boxes in the page's user space).
    const boxes = [];
    for (let i = 0; i + 3 < marks.length; i += 4) {
      const [x0, y0] = viewport.convertToViewportPoint(marks[i], marks[i + 1]);
      const [x1, y1] = viewport.convertToViewportPoint(marks[i + 2], marks[i + 3]);
      const box = [Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0)];
      ctx.fillRect(...box);
      boxes.push(box.map(Math.round));
      marked += 1;
    }
    canvas.dataset.markedBy = marked > 0 ? 'lines' : 'words';
    // Where the marks are, in CSS pixels of the canvas (tests check they cover printed text).
    canvas.dataset.marks = JSON.stringify(boxes);
    // A document stored without its lines: mark the text runs whose words are mostly words
    // of the passage.
    const words = new Set(norm(passage).split(' ').filter((w) => w.length > 2));
    const content = marked > 0 ? { items: [] } : await page.getTextContent();
    for (const item of content.items) {
      const own = norm(item.str || '').split(' ').filter((w) => w.length > 2);
      if (own.length === 0) continue;
      if (own.filter((w) => words.has(w)).length / own.length < 0.6) continue;
      const t = pdfjs.Util.transform(viewport.transform, item.transform);
      const h = Math.hypot(t[2], t[3]);
      ctx.fillRect(t[4], t[5] - h, item.width * viewport.scale, h * 1.25);
      marked += 1;
    }
    ctx.restore();
    canvas.dataset.marked = String(marked);
    container.replaceChildren(canvas);
    return marked;
  } finally {
    // Freeing the worker's copy; a failure here must not hide a drawn page.
    Promise.resolve(task.destroy()).catch(() => {});
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn render_pdf_page(
        container: &web_sys::Element,
        bytes: &[u8],
        page: u32,
        passage: &str,
        marks: &[f32],
    ) -> Result<JsValue, JsValue>;
}

/// Draws page `page` (1-based) of the PDF `bytes` into `container`, marking the passage:
/// `marks` are its boxes (left, bottom, right, top in the page's user space, flattened), or
/// empty to find `passage` by its words. Returns how many boxes or text runs were marked.
pub async fn render_page(
    container: &web_sys::Element,
    bytes: &[u8],
    page: u32,
    passage: &str,
    marks: &[f32],
) -> AppResult<u32> {
    let marked = render_pdf_page(container, bytes, page, passage, marks)
        .await
        .map_err(|e| AppError::Asset {
            url: "pdfjs/".into(),
            reason: AppError::js_text(&e),
        })?;
    Ok(marked.as_f64().unwrap_or(0.0) as u32)
}
