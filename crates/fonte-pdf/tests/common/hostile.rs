//! Synthetic hostile PDFs, one per class of input that once panicked, hung or ate memory
//! (docs/RELIABILITY.md). Each also draws "Survives" in Helvetica, so a test can see that what
//! can be read is kept. The files are written to this crate's `tests/fixtures/hostile/` (the end-to-end tests
//! drop them into the page) with `FONTE_UPDATE_FIXTURES=1`; otherwise the tests check that the
//! committed files are what this code builds.

use std::io::Write;

/// A PDF built object by object.
pub struct Builder {
    pub objects: Vec<Vec<u8>>,
}

impl Builder {
    pub fn new() -> Self {
        Self {
            objects: Vec::new(),
        }
    }

    /// Adds an object; its number (1-based).
    pub fn obj(&mut self, body: impl Into<Vec<u8>>) -> usize {
        self.objects.push(body.into());
        self.objects.len()
    }

    /// Adds a stream with `dict` entries (without `/Length`).
    pub fn stream(&mut self, dict: &str, data: &[u8]) -> usize {
        let mut obj = format!("<< /Length {} {dict} >>\nstream\n", data.len()).into_bytes();
        obj.extend_from_slice(data);
        obj.extend_from_slice(b"\nendstream");
        self.obj(obj)
    }

    /// The file, with object `root` as the catalog.
    pub fn finish(self, root: usize) -> Vec<u8> {
        self.finish_with(root, "")
    }

    /// The file, with object `root` as the catalog and `extra` entries in its trailer.
    pub fn finish_with(self, root: usize, extra: &str) -> Vec<u8> {
        let mut pdf = b"%PDF-1.7\n".to_vec();
        let mut offsets = Vec::new();
        for (i, obj) in self.objects.iter().enumerate() {
            offsets.push(pdf.len());
            pdf.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
            pdf.extend_from_slice(obj);
            pdf.extend_from_slice(b"\nendobj\n");
        }
        let xref = pdf.len();
        let n = self.objects.len() + 1;
        pdf.extend_from_slice(format!("xref\n0 {n}\n0000000000 65535 f \n").as_bytes());
        for off in offsets {
            pdf.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
        }
        pdf.extend_from_slice(
            format!("trailer\n<< /Size {n} /Root {root} 0 R{extra} >>\nstartxref\n{xref}\n%%EOF\n")
                .as_bytes(),
        );
        pdf
    }
}

/// zlib-compressed `data`.
pub fn flate(data: &[u8]) -> Vec<u8> {
    let mut e = libflate::zlib::Encoder::new(Vec::new()).unwrap();
    e.write_all(data).unwrap();
    e.finish().into_result().unwrap()
}

const SURVIVES: &[u8] = b"BT /F1 12 Tf 72 720 Td (Survives) Tj ET\n";

/// A one-page file: `extra_fonts` join /F1 (Helvetica) in the resources (as "/F2 7 0 R"
/// entries built by `build`), `xobjects` likewise; `contents` are the content stream ids.
fn one_page(build: impl FnOnce(&mut Builder) -> (String, String, Vec<usize>)) -> Vec<u8> {
    one_page_counted(1, build)
}

fn one_page_counted(
    count: u64,
    build: impl FnOnce(&mut Builder) -> (String, String, Vec<usize>),
) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj(format!("<< /Type /Pages /Kids [3 0 R] /Count {count} >>"));
    b.obj(Vec::new()); // the page, filled in below
    let helvetica = b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    let (fonts, xobjects, contents) = build(&mut b);
    let contents: Vec<String> = contents.iter().map(|c| format!("{c} 0 R")).collect();
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 \
         {helvetica} 0 R {fonts} >> /XObject << {xobjects} >> >> /Contents [{}] >>",
        contents.join(" ")
    )
    .into_bytes();
    b.finish(catalog)
}

/// A one-page file (612 x 792, Helvetica as /F1) whose content stream is `content`.
pub fn page_with(content: &[u8]) -> Vec<u8> {
    one_page(|b| {
        let c = b.stream("", content);
        (String::new(), String::new(), vec![c])
    })
}

/// A one-page PDF in Helvetica (/F1) whose /Contents is an array of these streams, each given
/// as (its bytes, its /Filter if any), and whose resources name a form XObject /X1 with the
/// stream `form`, if any.
pub fn page_of_parts(
    parts: &[(&[u8], Option<&str>)],
    form: Option<(&[u8], Option<&str>)>,
) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let font = b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    let filter = |f: Option<&str>| f.map(|f| format!("/Filter /{f}")).unwrap_or_default();
    let ids: Vec<String> = parts
        .iter()
        .map(|(data, f)| format!("{} 0 R", b.stream(&filter(*f), data)))
        .collect();
    let xobjects = form.map_or(String::new(), |(data, f)| {
        let dict = format!(
            "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 \
             {font} 0 R >> >> {}",
            filter(f)
        );
        format!("/XObject << /X1 {} 0 R >>", b.stream(&dict, data))
    });
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 \
         {font} 0 R >> {xobjects} >> /Contents [{}] >>",
        ids.join(" ")
    )
    .into_bytes();
    b.finish(catalog)
}

/// A Type0 font whose descendant CID font has `/W` `widths`.
fn type0_with_widths(b: &mut Builder, widths: &str) -> usize {
    let cid = b.obj(format!(
        "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Hostile /CIDSystemInfo << /Registry \
         (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor << /Type /FontDescriptor \
         /FontName /Hostile /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 \
         /Descent -200 /CapHeight 700 /StemV 80 >> /W {widths} >>"
    ));
    b.obj(format!(
        "<< /Type /Font /Subtype /Type0 /BaseFont /Hostile /Encoding /Identity-H \
         /DescendantFonts [{cid} 0 R] >>"
    ))
}

/// Every hostile fixture: (file name, bytes).
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        // The one a user met: the crate indexed DescendantFonts[0] and panicked.
        (
            "descendant-fonts-empty.pdf",
            one_page(|b| {
                let f2 = b.obj(
                    "<< /Type /Font /Subtype /Type0 /BaseFont /Empty /Encoding /Identity-H \
                     /DescendantFonts [] >>",
                );
                let c = b.stream(
                    "",
                    &[SURVIVES, b"BT /F2 12 Tf 72 700 Td <00410042> Tj ET"].concat(),
                );
                (format!("/F2 {f2} 0 R"), String::new(), vec![c])
            }),
        ),
        // One `Tj` of 20 MB (20 KB compressed): decoded whole, it asked for 800 MB of glyphs.
        (
            "tj-20mb.pdf",
            one_page(|b| {
                let mut content = SURVIVES.to_vec();
                content.extend_from_slice(b"BT /F1 12 Tf 72 700 Td (");
                content.extend(std::iter::repeat_n(b'A', 20 << 20));
                content.extend_from_slice(b") Tj ET");
                let c = b.stream("/Filter /FlateDecode", &flate(&content));
                (String::new(), String::new(), vec![c])
            }),
        ),
        // The same 60 MiB stream of tiny operators listed 100 times in /Contents: 6 GB of
        // content and 3 billion operators for one page.
        (
            "contents-repeated.pdf",
            one_page(|b| {
                let first = b.stream("", SURVIVES);
                let ops: Vec<u8> = b"q Q\n".repeat(15 << 20);
                let big = b.stream("/Filter /FlateDecode", &flate(&ops));
                let mut contents = vec![first];
                contents.extend(std::iter::repeat_n(big, 100));
                (String::new(), String::new(), contents)
            }),
        ),
        // A PNG predictor row of 1023 colours x 1,048,575 columns: a 1 GiB row buffer was
        // allocated before any of the data was read.
        (
            "predictor-huge.pdf",
            one_page(|b| {
                let first = b.stream("", SURVIVES);
                let bad = b.stream(
                    "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Colors 1023 /Columns \
                     1048575 >>",
                    &flate(b"BT /F1 12 Tf 72 700 Td (Lost) Tj ET"),
                );
                (String::new(), String::new(), vec![first, bad])
            }),
        ),
        // RunLengthDecode behind Flate: 2 MB of runs (2 KB in the file) expand to 128 MiB;
        // RunLength had no cap.
        (
            "runlength-bomb.pdf",
            one_page(|b| {
                let first = b.stream("", SURVIVES);
                let runs: Vec<u8> = [129u8, b' '].repeat(1 << 20);
                let bomb = b.stream("/Filter [/FlateDecode /RunLengthDecode]", &flate(&runs));
                (String::new(), String::new(), vec![first, bomb])
            }),
        ),
        // CID width arrays whose ranges run backwards or are empty: `[0 -1 500]` looped over
        // 2^64 codes, `[0 []]` underflowed its length.
        (
            "cid-widths.pdf",
            one_page(|b| {
                let f2 = type0_with_widths(b, "[0 -1 500]");
                let f3 = type0_with_widths(b, "[0 []]");
                let f4 = type0_with_widths(b, "[4294967295 [500]]");
                let c = b.stream(
                    "",
                    &[
                        SURVIVES,
                        b"BT /F2 12 Tf 72 700 Td <0041> Tj /F3 12 Tf <0042> Tj /F4 12 Tf <0043> \
                          Tj ET",
                    ]
                    .concat(),
                );
                (
                    format!("/F2 {f2} 0 R /F3 {f3} 0 R /F4 {f4} 0 R"),
                    String::new(),
                    vec![c],
                )
            }),
        ),
        // Glyphs drawn at font size 1e30 (and scaled by 1e15 more): the layout's overdraw check
        // swept a grid as wide as the glyph, 4 billion cells per glyph.
        (
            "font-size-huge.pdf",
            one_page(|b| {
                let mut content = SURVIVES.to_vec();
                content
                    .extend_from_slice(b"BT /F1 1000000000000000000000000000000.0 Tf 72 700 Td (");
                content.extend("Huge ".repeat(2000).bytes());
                content.extend_from_slice(
                    b") Tj ET BT 1000000000000000.0 0 0 1000000000000000.0 72 600 Tm /F1 12 Tf (",
                );
                content.extend("Wide ".repeat(2000).bytes());
                content.extend_from_slice(b") Tj ET");
                let c = b.stream("", &content);
                (String::new(), String::new(), vec![c])
            }),
        ),
        // A page tree claiming 2 billion pages (it holds one): the report listed them all. (4
        // billion, as in the issue, is refused by the crate as a number too large.)
        (
            "page-count-huge.pdf",
            one_page_counted(2_000_000_000, |b| {
                let c = b.stream("", SURVIVES);
                (String::new(), String::new(), vec![c])
            }),
        ),
        // One form of 1 MiB (mostly a comment) drawn 200,000 times: it was decoded and parsed
        // at every `Do`, 200 GB of parsing.
        (
            "forms-per-do.pdf",
            one_page(|b| {
                let mut form = vec![b'%'];
                form.extend(std::iter::repeat_n(b'x', 1 << 20));
                form.extend_from_slice(b"\nBT /F1 12 Tf 72 650 Td (Form) Tj ET");
                let x1 = b.stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Filter /FlateDecode",
                    &flate(&form),
                );
                let mut content = SURVIVES.to_vec();
                content.extend(b"/X1 Do\n".repeat(200_000));
                let c = b.stream("/Filter /FlateDecode", &flate(&content));
                (String::new(), format!("/X1 {x1} 0 R"), vec![c])
            }),
        ),
    ]
}
