//! Fonte: the cross-reference table rebuilt from the objects themselves, for a file whose
//! `startxref`, table or offsets are missing or damaged (hand-written files with no table,
//! `startxref 0`, offsets shifted by a line-ending conversion, a truncated tail). poppler,
//! MuPDF and pdf.js all read such files by scanning for `N G obj`; without this the crate
//! refused them ("'startxref' not found").
//!
//! The scan records every `N G obj` header outside stream data (a later one of the same number
//! wins, as an incremental update does), reads the entries of every cross-reference stream it
//! meets (objects compressed in object streams are only reachable through them), and takes as
//! trailer the last `trailer` dictionary or cross-reference stream dictionary whose /Root is
//! among the objects found, else one made of the object whose dictionary says /Type /Catalog.

use crate::backend::MAX_ID;
use crate::error::*;
use crate::object::*;
use crate::parser::{parse_indirect_object, parse_with_lexer, read_xref_and_trailer_at, Lexer, ParseFlags};
use crate::primitive::{Dictionary, Primitive};
use crate::xref::{XRef, XRefTable};

/// Cross-reference streams, and trailers, read at most (the last ones in the file: the
/// latest updates).
const MAX_XREF_STREAMS: usize = 64;

/// An `N G obj` header: the object's number, generation and offset.
pub(crate) struct Header {
    pub(crate) id: ObjNr,
    pub(crate) gen: GenNr,
    pub(crate) pos: usize,
}

fn is_white(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\0')
}

fn is_regular(b: u8) -> bool {
    !is_white(b) && !matches!(b, b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%')
}

fn find(data: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    data.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| from + p)
}

/// The digits at `i`, as a number no larger than `max`, and where they end.
fn digits(data: &[u8], i: usize, max: u64) -> Option<(u64, usize)> {
    let end = i + data[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    if end == i || end - i > 10 {
        return None;
    }
    let n: u64 = std::str::from_utf8(&data[i..end]).ok()?.parse().ok()?;
    (n <= max).then_some((n, end))
}

/// `N G obj` starting at `i`, and where it ends.
fn header(data: &[u8], i: usize) -> Option<(Header, usize)> {
    let (id, mut j) = digits(data, i, MAX_ID as u64)?;
    let white = data[j..].iter().take_while(|b| is_white(**b)).count();
    if white == 0 {
        return None;
    }
    j += white;
    let (gen, mut j) = digits(data, j, u16::MAX as u64)?;
    j += data[j..].iter().take_while(|b| is_white(**b)).count();
    if !data[j..].starts_with(b"obj") || data.get(j + 3).map_or(false, |b| is_regular(*b)) {
        return None;
    }
    Some((Header { id, gen, pos: i }, j + 3))
}

/// Every object header outside stream data, in file order.
pub(crate) fn headers(data: &[u8]) -> Vec<Header> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let b = data[i];
        let starts_token = i == 0 || !is_regular(data[i - 1]);
        if starts_token && b == b's' && data[i..].starts_with(b"stream")
            && matches!(data.get(i + 6), Some(b'\r' | b'\n'))
        {
            // Stream data can hold anything, "1 0 obj" included: skip to its end.
            match find(data, i + 6, b"endstream") {
                Some(end) => i = end + 9,
                None => break,
            }
            continue;
        }
        if starts_token && b.is_ascii_digit() {
            if let Some((h, end)) = header(data, i) {
                found.push(h);
                i = end;
                continue;
            }
            i += data[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            continue;
        }
        i += 1;
    }
    found
}

/// Every "endstream" keyword and every object header of `data`, stream data included, in
/// file order: where a stream whose /Length is wrong can end ([`Resolve::stream_end`]).
pub(crate) fn stream_boundaries(data: &[u8]) -> Vec<StreamEnd> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let b = data[i];
        let starts_token = i == 0 || !is_regular(data[i - 1]);
        if b == b'e' && data[i..].starts_with(b"endstream") {
            found.push(StreamEnd { at: i, endstream: true });
            i += 9;
        } else if starts_token && b.is_ascii_digit() {
            match header(data, i) {
                Some((_, end)) => {
                    found.push(StreamEnd { at: i, endstream: false });
                    i = end;
                }
                None => i += data[i..].iter().take_while(|b| b.is_ascii_digit()).count(),
            }
        } else {
            i += 1;
        }
    }
    found
}

fn root_id(trailer: &Dictionary) -> Option<ObjNr> {
    match trailer.get("Root") {
        Some(Primitive::Reference(r)) => Some(r.id),
        _ => None,
    }
}

/// What a scan of the objects gives.
pub struct Rebuilt {
    /// Every object found by its header, and those a cross-reference stream lists as compressed.
    pub refs: XRefTable,
    /// The last trailer whose /Root is among them, else the last with a /Root at all (it may
    /// be inside an object stream), else a catalog found by its header; `None` when none is.
    pub trailer: Option<Dictionary>,
    /// The objects that look like object streams (`/ObjStm`), for the storage to list what
    /// they hold once it can decode them.
    pub object_streams: Vec<ObjNr>,
}

/// The table and trailer rebuilt from `data` (the file from its `%PDF-` header on; offsets are
/// relative to it, as the table's are).
pub fn rebuild(data: &[u8], resolve: &impl Resolve) -> Result<Rebuilt> {
    let found = headers(data);
    let size = found.iter().map(|h| h.id + 1).max().unwrap_or(0);
    if size == 0 {
        bail!("no object found to rebuild the cross-reference table from");
    }
    // The start of an object, up to its stream data or end: what says what it is (and not
    // the next object's dictionary, when this one is short).
    let head = |h: &Header| {
        let head = &data[h.pos..data.len().min(h.pos + 1024)];
        let end = [&b"stream"[..], b"endobj"].iter().filter_map(|k| find(head, 0, k)).min();
        &head[..end.unwrap_or(head.len())]
    };
    let mut refs = XRefTable::new(size);
    let mut trailers: Vec<(usize, Dictionary)> = Vec::new();
    // Cross-reference streams first, so that an object found by its header wins over a stream
    // entry pointing elsewhere (the header is what the file holds now). A file has one per
    // update; the bound keeps a hostile file's thousands of "/XRef" objects from each being
    // decoded.
    let xref_streams: Vec<&Header> = found.iter().filter(|h| find(head(h), 0, b"/XRef").is_some()).collect();
    for h in &xref_streams[xref_streams.len().saturating_sub(MAX_XREF_STREAMS)..] {
        let mut lexer = Lexer::with_offset(&data[h.pos..], h.pos);
        if let Ok((sections, dict)) = read_xref_and_trailer_at(&mut lexer, resolve) {
            for section in sections {
                for (id, entry) in section.entries() {
                    if let XRef::Stream { .. } = entry {
                        if (id as u64) < size {
                            refs.set(id as ObjNr, *entry);
                        }
                    }
                }
            }
            trailers.push((h.pos, dict));
        }
    }
    for h in &found {
        refs.set(h.id, XRef::Raw { pos: h.pos, gen_nr: h.gen });
    }
    // The last trailers only, as for the cross-reference streams: each is parsed.
    let mut keywords = Vec::new();
    let mut at = 0;
    while let Some(p) = find(data, at, b"trailer") {
        keywords.push(p);
        at = p + 7;
    }
    for &p in &keywords[keywords.len().saturating_sub(MAX_XREF_STREAMS)..] {
        let mut lexer = Lexer::with_offset(&data[p + 7..], p + 7);
        if let Ok(Primitive::Dictionary(dict)) = parse_with_lexer(&mut lexer, &NoResolve, ParseFlags::DICT) {
            trailers.push((p, dict));
        }
    }
    trailers.sort_by_key(|(pos, _)| *pos);
    let known = |id: ObjNr| matches!(refs.get(id), Ok(XRef::Raw { .. } | XRef::Stream { .. }));
    let chosen = trailers.iter().rev().find(|(_, d)| root_id(d).map_or(false, known))
        .or_else(|| trailers.iter().rev().find(|(_, d)| root_id(d).is_some()))
        .map(|(_, d)| d.clone());
    let trailer = chosen.or_else(|| {
        let catalog = found.iter().rev().find(|h| {
            find(head(h), 0, b"/Catalog").is_some() && {
                let mut lexer = Lexer::with_offset(&data[h.pos..], h.pos);
                matches!(
                    parse_indirect_object(&mut lexer, resolve, None, ParseFlags::DICT),
                    Ok((_, Primitive::Dictionary(ref d)))
                        if matches!(d.get("Type"), Some(Primitive::Name(n)) if n.as_str() == "Catalog")
                )
            }
        })?;
        let mut t = Dictionary::new();
        t.insert("Root", Primitive::Reference(PlainRef { id: catalog.id, gen: catalog.gen }));
        Some(t)
    });
    let object_streams = found.iter().filter(|h| find(head(h), 0, b"/ObjStm").is_some()).map(|h| h.id).collect();
    refs.sanitize();
    Ok(Rebuilt { refs, trailer, object_streams })
}
