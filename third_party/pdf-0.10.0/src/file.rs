//! This is kind of the entry-point of the type-safe PDF functionality.
use std::any::type_name;
use std::marker::PhantomData;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::path::Path;
use std::io::Write;

use crate as pdf;
use crate::error::*;
use crate::object::*;
use crate::primitive::{Dictionary, PdfStream, PdfString, Primitive, StreamInner};
use crate::backend::{Backend, BackendAppend};
use crate::any::*;
use crate::parser::{Lexer, parse_with_lexer};
use crate::parser::{parse_indirect_object, parse, ParseFlags};
use crate::xref::{XRef, XRefTable, XRefInfo};
use crate::crypt::Decoder;
use crate::crypt::CryptDict;
use crate::enc::{StreamFilter, decode};
use std::ops::Range;
use datasize::DataSize;

#[cfg(feature="cache")]
pub use globalcache::{ValueSize, sync::SyncCache};

#[must_use]
pub struct PromisedRef<T> {
    inner:      PlainRef,
    _marker:    PhantomData<T>
}
impl<T> PromisedRef<T> {
    pub fn get_inner(&self) -> PlainRef {
        self.inner
    }
    pub fn get_ref(&self) -> Ref<T> {
        Ref::new(self.inner)
    }
}

pub trait Cache<T: Clone> {
    fn get_or_compute(&self, key: PlainRef, compute: impl FnOnce() -> T) -> T;
    fn clear(&self);
    fn remove(&self, key: PlainRef);
}
pub struct NoCache;
impl<T: Clone> Cache<T> for NoCache {
    fn get_or_compute(&self, _key: PlainRef, compute: impl FnOnce() -> T) -> T {
        compute()
    }
    fn clear(&self) {}
    fn remove(&self, _key: PlainRef) {}
}

#[cfg(feature="cache")]
impl<T: Clone + ValueSize + Send + 'static> Cache<T> for Arc<SyncCache<PlainRef, T>> {
    fn get_or_compute(&self, key: PlainRef, compute: impl FnOnce() -> T) -> T {
        self.get(key, |_| compute())
    }
    fn clear(&self) {
        (**self).clear()
    }
    fn remove(&self, key: PlainRef) {
        (**self).remove(&key)
    }
}

pub trait Log {
    fn load_object(&self, _r: PlainRef) {}
    fn log_get(&self, _r: PlainRef) {}
}
#[derive(Clone)]
pub struct NoLog;
impl Log for NoLog {}

#[derive(Clone)]
pub struct Storage<B, OC, SC, L> {
    // objects identical to those in the backend
    cache: OC,
    stream_cache: SC,

    // objects that differ from the backend
    changes:    HashMap<ObjNr, (&'static str, Primitive, GenNr)>,
    promises:   HashMap<ObjNr, &'static str>,

    refs:       XRefTable,

    decoder:    Option<Decoder>,
    options:    ParseOptions,

    backend:    B,

    // Position of the PDF header in the file.
    start_offset: usize,

    // Fonte: where a scan of the file finds each object's header (repair.rs), made the first
    // time the table's offset for an object turns out wrong.
    scanned: std::sync::OnceLock<HashMap<ObjNr, usize>>,
    // Fonte: the file offsets of every "endstream" and object header, found in one pass the
    // first time a stream's /Length does not end at "endstream" (Resolve::stream_end).
    endstreams: std::sync::OnceLock<Vec<StreamEnd>>,

    log: L
}

const PDF_HEADER: &[u8] = b"%PDF-1.7\n";

impl<OC, SC, L> Storage<Vec<u8>, OC, SC, L>
where
    OC: Cache<Result<AnySync, Arc<PdfError>>>,
    SC: Cache<Result<Arc<[u8]>, Arc<PdfError>>>,
    L: Log,
{
    pub fn empty(object_cache: OC, stream_cache: SC, log: L) -> Self {
        Storage {
            cache: object_cache,
            stream_cache,
            changes: HashMap::new(),
            promises: HashMap::new(),
            refs: XRefTable::new(0),
            decoder: None,
            options: ParseOptions::strict(),
            backend: Vec::from(PDF_HEADER),
            start_offset: 0,
            scanned: Default::default(),
            endstreams: Default::default(),
            log
        }
    }
}

impl<B, OC, SC, L> Storage<B, OC, SC, L>
where
    B: Backend,
    OC: Cache<Result<AnySync, Arc<PdfError>>>,
    SC: Cache<Result<Arc<[u8]>, Arc<PdfError>>>,
    L: Log,
{
    pub fn into_inner(self) -> B {
        self.backend
    }
    pub fn version(&self) -> Result<String> {
        Ok(String::from_utf8(self.backend.read(self.start_offset+1..self.start_offset+8)?.to_owned())?)
    }
    pub fn resolver(&self) -> impl Resolve + '_ {
        StorageResolver::new(self)
    }
    pub fn with_cache(backend: B, options: ParseOptions, object_cache: OC, stream_cache: SC, log: L) -> Result<Self> {
        let start_offset = backend.locate_start_offset()?;

        Ok(Storage {
            start_offset,
            backend,
            refs: XRefTable::new(0),
            cache: object_cache,
            stream_cache,
            changes: HashMap::new(),
            promises: HashMap::new(),
            decoder: None,
            options,
            scanned: Default::default(),
            endstreams: Default::default(),
            log
        })
    }
    fn decode(&self, id: PlainRef, range: Range<usize>, filters: &[StreamFilter]) -> Result<Arc<[u8]>> {
        let data = self.backend.read(range)?;

        let mut data = Vec::from(data);
        if let Some(ref decoder) = self.decoder {
            data = Vec::from(t!(decoder.decrypt(id, &mut data)));
        }
        for filter in filters {
            data = t!(decode(&data, filter), filter);
        }
        Ok(data.into())
    }

    pub fn load_storage_and_trailer(&mut self) -> Result<Dictionary> {
        self.load_storage_and_trailer_password(b"")
    }

    pub fn load_storage_and_trailer_password(&mut self, password: &[u8]) -> Result<Dictionary> {
        // Fonte: a file whose table does not read is read again from a table rebuilt by
        // scanning its objects (repair.rs); where that fails too, the table's error is the one
        // reported.
        match self.load_with(password, false) {
            Ok(trailer) => Ok(trailer),
            Err(e) => self.load_with(password, true).map_err(|_| e),
        }
    }

    /// Fonte: the table and trailer as the file's own table gives them, or, with `rebuilt`, as
    /// a scan of its objects does (repair.rs); then the decryption the trailer asks for.
    pub fn load_with(&mut self, password: &[u8], rebuilt: bool) -> Result<Dictionary> {
        self.decoder = None;
        self.cache.clear();
        self.stream_cache.clear();
        let resolver = StorageResolver::new(self);
        let (refs, trailer, object_streams) = if rebuilt {
            let data = t!(self.backend.read(self.start_offset..));
            let found = t!(crate::repair::rebuild(data, &resolver));
            (found.refs, found.trailer, found.object_streams)
        } else {
            let (refs, trailer) = t!(self.backend.read_xref_table_and_trailer(self.start_offset, &resolver));
            (refs, Some(trailer), Vec::new())
        };
        self.refs = refs;

        if let Some(crypt) = trailer.as_ref().and_then(|t| t.get("Encrypt")) {
            let trailer = trailer.as_ref().unwrap();
            // Fonte: an encrypted file without /ID (the standard asks for one) was refused;
            // poppler, MuPDF and pdf.js derive the key with an empty identifier instead, which
            // is what such a file's writer did.
            let key = match trailer.get("ID") {
                None => &b""[..],
                Some(id) => id
                    .as_array()?
                    .get(0)
                    .ok_or(PdfError::MissingEntry {
                        typ: "Trailer",
                        field: "ID[0]".into()
                    })?
                    .as_string()?
                    .as_bytes(),
            };

            let resolver = StorageResolver::new(self);
            // Fonte: a handler other than the standard one (Adobe.PubSec: encrypted for the
            // holders of certificates; DRM plug-ins) has no password to give; say which, so
            // the reader can tell this from a broken file.
            let handler = crypt.clone().resolve(&resolver).ok()
                .and_then(|c| c.into_dictionary().ok())
                .and_then(|c| c.get("Filter").and_then(|f| f.as_name().ok()).map(str::to_string));
            if let Some(handler) = handler.filter(|h| h != "Standard") {
                bail!("unsupported security handler {}", handler);
            }
            let dict = CryptDict::from_primitive(crypt.clone(), &resolver)?;

            self.decoder = Some(t!(Decoder::from_password(&dict, key, password)));
            if let Primitive::Reference(reference) = crypt {
                self.decoder.as_mut().unwrap().encrypt_indirect_object = Some(*reference);
            }
        }
        let trailer = if rebuilt {
            let compressed = self.index_object_streams(&object_streams);
            // The cache is by object number whatever the type asked: a candidate that was no
            // object stream after all must not leave its failure there for the object it is.
            self.cache.clear();
            t!(self.rebuilt_trailer(trailer, &compressed))
        } else {
            trailer.unwrap()
        };
        if self.decoder.is_some() {
            if let Some(Primitive::Reference(catalog_ref)) = trailer.get("Root") {
                let resolver = StorageResolver::new(self);
                let catalog = t!(t!(resolver.resolve(*catalog_ref)).resolve(&resolver)?.into_dictionary());
                if let Some(Primitive::Reference(metadata_ref)) = catalog.get("Metadata") {
                    self.decoder.as_mut().unwrap().metadata_indirect_object = Some(*metadata_ref);
                }
            }
        }
        Ok(trailer)
    }

    /// Fonte: [`Resolve::stream_end`], from one pass over the file made the first time a
    /// stream's /Length is wrong (so many such streams cost one pass, not one each).
    fn stream_end(&self, from: usize) -> Option<StreamEnd> {
        let ends = self.endstreams.get_or_init(|| {
            crate::repair::stream_boundaries(self.backend.read(..).unwrap_or(&[]))
        });
        let i = ends.partition_point(|e| e.at < from);
        ends.get(i).copied()
    }

    /// Fonte (repair.rs): where a scan finds object `id`'s header (the last one, as an update
    /// would have it), the scan made once.
    fn scanned_position(&self, id: ObjNr) -> Option<usize> {
        let scanned = self.scanned.get_or_init(|| {
            let data = self.backend.read(self.start_offset..).unwrap_or(&[]);
            crate::repair::headers(data).into_iter().map(|h| (h.id, h.pos)).collect()
        });
        scanned.get(&id).copied()
    }

    /// Fonte (repair.rs): table entries for the objects inside the object streams a rebuild
    /// found, where no cross-reference stream gave them (its own one damaged); their numbers.
    fn index_object_streams(&mut self, streams: &[ObjNr]) -> Vec<ObjNr> {
        // A bound on what they may decode to together: each is capped (64 MiB), but a hostile
        // file could hold thousands of objects that say /ObjStm.
        // So is the number that fail (one that fails may have decoded its 64 MiB first).
        const MAX_DECODED: usize = 256 << 20;
        const MAX_FAILED: usize = 64;
        let (mut decoded, mut failed) = (0, 0);
        let mut added = Vec::new();
        for &id in streams {
            if decoded > MAX_DECODED || failed > MAX_FAILED {
                break;
            }
            let numbers = {
                let resolver = StorageResolver::new(self);
                match resolver.get::<ObjectStream>(Ref::from_id(id)) {
                    Ok(stream) => {
                        decoded += stream._data(&resolver).map_or(0, |d| d.len());
                        stream.object_numbers().to_vec()
                    }
                    Err(_) => {
                        failed += 1;
                        continue;
                    }
                }
            };
            for (index, n) in numbers.into_iter().enumerate() {
                if n >= crate::backend::MAX_ID as ObjNr {
                    continue;
                }
                while self.refs.len() <= n as usize {
                    self.refs.push(XRef::Free { next_obj_nr: 0, gen_nr: 0xffff });
                }
                if matches!(self.refs.get(n), Ok(XRef::Free { .. } | XRef::Invalid)) {
                    self.refs.set(n, XRef::Stream { stream_id: id, index });
                    added.push(n);
                }
            }
        }
        added
    }

    /// Fonte (repair.rs): the trailer a rebuild found if its /Root is now among the objects,
    /// else one whose /Root is the last object of `candidates` that is a catalog.
    fn rebuilt_trailer(&self, found: Option<Dictionary>, candidates: &[ObjNr]) -> Result<Dictionary> {
        let known = |id: ObjNr| matches!(self.refs.get(id), Ok(XRef::Raw { .. } | XRef::Stream { .. }));
        let mut trailer = found.unwrap_or_else(Dictionary::new);
        let root = match trailer.get("Root") {
            Some(Primitive::Reference(r)) if known(r.id) => Some(*r),
            _ => {
                let resolver = StorageResolver::new(self);
                candidates.iter().rev().map(|&id| PlainRef { id, gen: 0 }).find(|&r| {
                    matches!(resolver.resolve(r), Ok(Primitive::Dictionary(ref d))
                        if matches!(d.get("Type"), Some(Primitive::Name(n)) if n.as_str() == "Catalog"))
                })
            }
        };
        let Some(root) = root else {
            bail!("no trailer and no catalog found to rebuild the file from");
        };
        trailer.insert("Root", Primitive::Reference(root));
        trailer.insert("Size", Primitive::Integer(self.refs.len() as i32));
        Ok(trailer)
    }
    pub fn scan(&self) -> impl Iterator<Item = Result<ScanItem>> + '_ {
        let xref_offset = self.backend.locate_xref_offset().unwrap();
        let slice = self.backend.read(self.start_offset .. xref_offset).unwrap();
        let mut lexer = Lexer::with_offset(slice, 0);

        fn skip_xref(lexer: &mut Lexer) -> Result<()> {
            while lexer.next()? != "trailer" {

            }
            Ok(())
        }

        let resolver = StorageResolver::new(self);
        std::iter::from_fn(move || {
            loop {
                let pos = lexer.get_pos();
                match parse_indirect_object(&mut lexer, &resolver, self.decoder.as_ref(), ParseFlags::all()) {
                    Ok((r, p)) => return Some(Ok(ScanItem::Object(r, p))),
                    Err(e) if e.is_eof() => return None,
                    Err(e) => {
                        lexer.set_pos(pos);
                        if let Ok(s) = lexer.next() {
                            debug!("next: {:?}", String::from_utf8_lossy(s.as_slice()));
                            match &*s {
                                b"xref" => {
                                    if let Err(e) = skip_xref(&mut lexer) {
                                        return Some(Err(e));
                                    }
                                    if let Ok(trailer) = parse_with_lexer(&mut lexer, &NoResolve, ParseFlags::DICT).and_then(|p| p.into_dictionary()) {
                                        return Some(Ok(ScanItem::Trailer(trailer)));
                                    }
                                }
                                b"startxref" if lexer.next().is_ok() => {
                                    continue;
                                }
                                _ => {}
                            }
                        }
                        return Some(Err(e));
                    }
                }
            }
        })
    }
    fn resolve_ref(&self, r: PlainRef, flags: ParseFlags, resolve: &impl Resolve) -> Result<Primitive> {
        match self.changes.get(&r.id) {
            Some((_, p, _)) => Ok((*p).clone()),
            None => match t!(self.refs.get(r.id)) {
                XRef::Raw {pos, ..} => {
                    let at = |pos: usize| -> Result<Primitive> {
                        let mut lexer = Lexer::with_offset(t!(self.backend.read(self.start_offset + pos ..), r), self.start_offset + pos);
                        let (found, p) = t!(parse_indirect_object(&mut lexer, resolve, self.decoder.as_ref(), flags), r);
                        // Fonte: an offset that lands on another object's header gave that
                        // object for this one.
                        if found.id != r.id {
                            bail!("object {} found where the table puts object {}", found.id, r.id);
                        }
                        Ok(p)
                    };
                    match at(pos) {
                        Ok(p) => Ok(p),
                        // Fonte: the table's offset for this object is wrong (a bad incremental
                        // save, a line-ending conversion): where a scan of the file finds the
                        // object's header elsewhere, it is read there, as pdf.js and poppler do.
                        Err(e) => match self.scanned_position(r.id) {
                            Some(other) if other != pos => at(other).map_err(|_| e),
                            _ => Err(e),
                        },
                    }
                }
                XRef::Stream {stream_id, index} => {
                    // Fonte: a stream's /Length kept in an object stream (asked for as an
                    // INTEGER) was refused, so the stream and the font holding it did not load
                    // (a chart's ToUnicode in abntex2-modelo-trabalho-academico.pdf). An object
                    // stream whose own /Length points into itself is still refused, by the
                    // resolver's "Recursive reference" guard.
                    if !flags.intersects(ParseFlags::STREAM | ParseFlags::INTEGER) {
                        return Err(PdfError::PrimitiveNotAllowed { found: ParseFlags::STREAM, allowed: flags });
                    }
                    // use get to cache the object stream
                    let obj_stream = resolve.get::<ObjectStream>(Ref::from_id(stream_id))?;

                    let (data, range) = t!(obj_stream.get_object_slice(index, resolve));
                    let slice = data.get(range.clone()).ok_or_else(|| other!("invalid range {:?}, but only have {} bytes", range, data.len()))?;
                    parse(slice, resolve, flags)
                }
                XRef::Free {..} => err!(PdfError::FreeObject {obj_nr: r.id}),
                XRef::Promised => unimplemented!(),
                XRef::Invalid => err!(PdfError::NullRef {obj_nr: r.id}),
            }
        }
    }
}

pub enum ScanItem {
    Object(PlainRef, Primitive),
    Trailer(Dictionary)
}

struct StorageResolver<'a, B, OC, SC, L> {
    storage: &'a Storage<B, OC, SC, L>,
    chain: Mutex<Vec<PlainRef>>,
}
impl<'a, B, OC, SC, L> StorageResolver<'a, B, OC, SC, L> {
    pub fn new(storage: &'a Storage<B, OC, SC, L>) -> Self {
        StorageResolver {
            storage,
            chain: Mutex::new(vec![])
        }
    }
}

struct Defer<F: FnMut()>(F);
impl<F: FnMut()> Drop for Defer<F> {
    fn drop(&mut self) {
        (self.0)();
    }
}

fn resolve_get<'a, B, OC, SC, L, T>(resolver: &impl Resolve, storage: &'a Storage<B, OC, SC, L>, chain: &Mutex<Vec<PlainRef>>, r: Ref<T>) -> Result<RcRef<T>>
where
    B: Backend,
    OC: Cache<Result<AnySync, Arc<PdfError>>>,
    SC: Cache<Result<Arc<[u8]>, Arc<PdfError>>>,
    L: Log,
    T: Object+DataSize
{
    let key = r.get_inner();
    storage.log.log_get(key);

    {
        debug!("get {key:?} as {}", std::any::type_name::<T>());
        let mut chain = chain.lock().unwrap();
        if chain.contains(&key) {
            bail!("Recursive reference");
        }
        chain.push(key);
    }
    let _defer = Defer(|| {
        let mut chain = chain.lock().unwrap();
        assert_eq!(chain.pop(), Some(key));
    });

    let res = storage.cache.get_or_compute(key, || {
        match resolver.resolve(key).and_then(|p| T::from_primitive(p, resolver)) {
            Ok(obj) => Ok(AnySync::new(Shared::new(obj))),
            Err(e) => {
                let p = resolver.resolve(key);
                warn!("failed to decode {p:?} as {}", std::any::type_name::<T>());
                Err(Arc::new(e))
            }
        }
    });
    match res {
        Ok(any) => {
            match any.downcast() {
                Ok(val) => Ok(RcRef::new(key, val)),
                Err(_) => {
                    let p = resolver.resolve(key)?;
                    Ok(RcRef::new(key, T::from_primitive(p, resolver)?.into()))
                }
            }
        }
        Err(e) => Err(PdfError::Shared { source: e.clone()}),
    }
}

impl<'a, B, OC, SC, L> Resolve for StorageResolver<'a, B, OC, SC, L>
where
    B: Backend,
    OC: Cache<Result<AnySync, Arc<PdfError>>>,
    SC: Cache<Result<Arc<[u8]>, Arc<PdfError>>>,
    L: Log
{
    fn resolve_flags(&self, r: PlainRef, flags: ParseFlags, _depth: usize) -> Result<Primitive> {
        let storage = self.storage;
        storage.log.load_object(r);

        storage.resolve_ref(r, flags, self)
    }

    fn get<T: Object+DataSize>(&self, r: Ref<T>) -> Result<RcRef<T>> {
        resolve_get(self, &self.storage, &self.chain, r)
    }
    fn stream_end(&self, from: usize) -> Option<Option<StreamEnd>> {
        Some(self.storage.stream_end(from))
    }
    fn options(&self) -> &ParseOptions {
        &self.storage.options
    }
    fn stream_data(&self, id: PlainRef, range: Range<usize>) -> Result<Arc<[u8]>> {
        self.storage.decode(id, range, &[])
    }
    fn get_data_or_decode(&self, id: PlainRef, range: Range<usize>, filters: &[StreamFilter]) -> Result<Arc<[u8]>> {
        self.storage.stream_cache.get_or_compute(id, || self.storage.decode(id, range, filters).map_err(Arc::new))
        .map_err(|e| e.into())
    }
}

impl<B, OC, SC, L> Updater for Storage<B, OC, SC, L>
where
    B: Backend,
    OC: Cache<Result<AnySync, Arc<PdfError>>>,
    SC: Cache<Result<Arc<[u8]>, Arc<PdfError>>>,
    L: Log,
{
    fn create<T: ObjectWrite>(&mut self, obj: T) -> Result<RcRef<T>> {
        let id = self.refs.len() as u64;
        self.refs.push(XRef::Promised);

        let primitive = obj.to_primitive(self)?;
        self.changes.insert(id, (std::any::type_name::<T>(), primitive, 0));
        let rc = Shared::new(obj);
        let r = PlainRef { id, gen: 0 };

        Ok(RcRef::new(r, rc))
    }
    fn update_with<T: ObjectWrite>(&mut self, old: PlainRef, obj: T, options: UpdateOptions) -> Result<RcRef<T>> {
        use std::collections::hash_map::Entry;

        let r = match self.refs.get(old.id)? {
            XRef::Free { .. } => panic!(),
            XRef::Raw { gen_nr, .. } => PlainRef { id: old.id, gen: gen_nr },
            XRef::Stream { .. } => return self.create(obj),
            XRef::Promised => PlainRef { id: old.id, gen: 0 },
            XRef::Invalid => panic!()
        };
        let primitive = obj.to_primitive(self)?;
        match self.changes.entry(old.id) {
            Entry::Vacant(e) => {
                e.insert((std::any::type_name::<T>(), primitive, r.gen));
            }
            Entry::Occupied(mut e) => {
                if options.merge {
                    match (e.get_mut(), primitive) {
                        ((_, Primitive::Dictionary(ref mut dict), _), Primitive::Dictionary(new)) => {
                            dict.append(new);
                        }
                        ((old_name, old_prim, _), new_prim) => {
                            bail!(
                                "can't update previous type {} which is {} with data from new type {} which is {}",
                                old_name, old_prim.get_debug_name(), std::any::type_name::<T>(), new_prim.get_debug_name()
                            );
                        }
                    }
                } else {
                    e.insert((std::any::type_name::<T>(), primitive, r.gen));
                }
            }
        }
        let rc = Shared::new(obj);
        self.cache.remove(old);

        Ok(RcRef::new(r, rc))
    }

    fn promise<T: Object>(&mut self) -> PromisedRef<T> {
        let id = self.refs.len() as u64;

        self.refs.push(XRef::Promised);
        self.promises.insert(id, type_name::<T>());

        PromisedRef {
            inner: PlainRef {
                id,
                gen: 0
            },
            _marker:    PhantomData
        }
    }

    fn fulfill<T: ObjectWrite>(&mut self, promise: PromisedRef<T>, obj: T) -> Result<RcRef<T>> {
        let r = self.update(promise.inner, obj)?;
        self.promises.remove(&promise.inner.id);
        Ok(r)
    }
}

#[derive(Default)]
pub struct UpdateOptions {
    pub merge: bool
}

impl<OC, SC, L, B> Storage<B, OC, SC, L>
where
    B: BackendAppend,
    OC: Cache<Result<AnySync, Arc<PdfError>>>,
    SC: Cache<Result<Arc<[u8]>, Arc<PdfError>>>,
    L: Log
{
    pub fn rebuild(&mut self, trailer: &mut Trailer) -> Result<Vec<u8>> {
        if self.promises.len() > 0 {
            for (id, name) in self.promises.iter() {
                eprintln!("Promise unfulfilled: id={id} type={name}");
                return Err(PdfError::Invalid);
            }
        }

        // writing the trailer generates another id for the info dictionary
        trailer.size = (self.refs.len() + 2) as _;
        let trailer_dict = trailer.to_dict(self)?;
        let xref_promise = self.promise::<Stream<XRefInfo>>();

        let mut out = Vec::new();
        out.extend_from_slice(PDF_HEADER);
        let mut new_refs = HashMap::new();
        let resolver = StorageResolver::new(self);
        for (obj_nr, r) in self.refs.entries() {
            let id = obj_nr as u64;
            let prim = t!(self.resolve_ref(PlainRef { id, gen: 0 }, ParseFlags::ANY, &resolver), id, r);

            let byte_pos = out.len();
            writeln!(out, "{id} 0 obj")?;
            match prim {
                Primitive::Stream(PdfStream { inner: StreamInner::InFile { file_range, .. }, info }) => {
                    let data = self.backend.read(file_range)?;

                    let info_len = info.get("Length").unwrap().as_usize().unwrap();
                    assert_eq!(info_len, data.len());
                    t!(info.serialize(&mut out));
                    writeln!(out, "stream")?;
                    out.write_all(&data)?;
                    writeln!(out, "\nendstream")?;
                }
                prim => {
                    t!(prim.serialize(&mut out));
                }
            }

            writeln!(out, "endobj")?;
            new_refs.insert(id, XRef::Raw { pos: byte_pos, gen_nr: 0 });
        }
        for (&id, (_, prim, _)) in self.changes.iter() {
            match self.refs.get(id) {
                Ok(XRef::Raw { .. }) | Ok(XRef::Stream { .. }) => continue,
                _ => {}
            }
            let byte_pos = out.len();
            writeln!(out, "{id} 0 obj")?;
            prim.serialize(&mut out)?;
            if !out.last_byte().map(|b| b.is_ascii_whitespace()).unwrap_or(false) {
                out.write_all(b"\n")?;
            }
            writeln!(out, "endobj")?;
            new_refs.insert(id, XRef::Raw { pos: byte_pos, gen_nr: 0 });
        }

        for (id, xref) in new_refs {
            self.refs.set(id, xref);
        }

        let xref_pos = out.len();
        self.refs.set(xref_promise.get_inner().id, XRef::Raw { pos: xref_pos, gen_nr: 0 });
        // only write up to the xref stream obj id

        let stream = t!(self.refs.write_stream(xref_promise.get_inner().id as usize + 1));

        writeln!(out, "{} {} obj", xref_promise.get_inner().id, 0)?;
        let mut xref_and_trailer = stream.to_pdf_stream(&mut NoUpdate)?;
        for (k, v) in trailer_dict.iter() {
            xref_and_trailer.info.insert(k.clone(), v.clone());
        }

        xref_and_trailer.serialize(&mut out)?;
        writeln!(out, "endobj")?;

        let _ = self.fulfill(xref_promise, stream)?;

        write!(out, "\nstartxref\n{}\n%%EOF", xref_pos).unwrap();

        // update trailer which may have change now.
        *trailer = t!(Trailer::from_dict(trailer_dict, &self.resolver()));
        self.cache.clear();

        Ok(out)
    }
    pub fn save(&mut self, trailer: &mut Trailer) -> Result<()> {
        if self.promises.len() > 0 {
            for (id, name) in self.promises.iter() {
                eprintln!("Promise unfulfilled: id={id} type={name}");
                return Err(PdfError::Invalid);
            }
        }

        // writing the trailer generates another id for the info dictionary
        trailer.size = (self.refs.len() + 2) as _;
        let trailer_dict = trailer.to_dict(self)?;

        let xref_promise = self.promise::<Stream<XRefInfo>>();

        let mut changes: Vec<_> = self.changes.iter().collect();
        changes.sort_unstable_by_key(|&(id, _)| id);

        for &(&id, &(_name, ref primitive, gen)) in changes.iter() {
            let pos = self.backend.len();
            self.refs.set(id, XRef::Raw { pos: pos as _, gen_nr: gen });
            writeln!(self.backend, "{id} {gen} obj")?;
            primitive.serialize(&mut self.backend)?;
            if !self.backend.last_byte().map(|b| b.is_ascii_whitespace()).unwrap_or(false) {
                self.backend.write_all(b"\n")?;
            }
            writeln!(self.backend, "endobj")?;
        }

        let xref_pos = self.backend.len();
        self.refs.set(xref_promise.get_inner().id, XRef::Raw { pos: xref_pos, gen_nr: 0 });
        // only write up to the xref stream obj id
        let stream = self.refs.write_stream(xref_promise.get_inner().id as usize + 1)?;

        writeln!(self.backend, "{} {} obj", xref_promise.get_inner().id, 0)?;
        let mut xref_and_trailer = stream.to_pdf_stream(&mut NoUpdate)?;
        for (k, v) in trailer_dict.iter() {
            xref_and_trailer.info.insert(k.clone(), v.clone());
        }

        xref_and_trailer.serialize(&mut self.backend)?;
        writeln!(self.backend, "endobj")?;

        let _ = self.fulfill(xref_promise, stream)?;

        write!(self.backend, "\nstartxref\n{}\n%%EOF", xref_pos).unwrap();

        // update trailer which may have change now.
        self.cache.clear();
        *trailer = Trailer::from_dict(trailer_dict, &self.resolver())?;

        Ok(())
    }
}

#[cfg(feature="cache")]
pub type ObjectCache = Arc<SyncCache<PlainRef, Result<AnySync, Arc<PdfError>>>>;
#[cfg(feature="cache")]
pub type StreamCache = Arc<SyncCache<PlainRef, Result<Arc<[u8]>, Arc<PdfError>>>>;
#[cfg(feature="cache")]
pub type CachedFile<B> = File<B, ObjectCache, StreamCache, NoLog>;

pub struct File<B, OC, SC, L> {
    pub storage:    Storage<B, OC, SC, L>,
    pub trailer:    Trailer,
    resolve_chain:  Mutex<Vec<PlainRef>>,
}
impl<B: Clone, OC: Clone, SC: Clone, L: Clone> Clone for File<B, OC, SC, L> {
    fn clone(&self) -> Self {
        File {
            storage: self.storage.clone(),
            trailer: self.trailer.clone(),
            resolve_chain: Default::default()
        }
    }
}

impl<B, OC, SC, L> Updater for File<B, OC, SC, L>
where
    B: Backend,
    OC: Cache<Result<AnySync, Arc<PdfError>>>,
    SC: Cache<Result<Arc<[u8]>, Arc<PdfError>>>,
    L: Log,
{
    fn create<T: ObjectWrite>(&mut self, obj: T) -> Result<RcRef<T>> {
        self.storage.create(obj)
    }
    fn update_with<T: ObjectWrite>(&mut self, old: PlainRef, obj: T, options: UpdateOptions) -> Result<RcRef<T>> {
        self.storage.update_with(old, obj, options)
    }
    fn promise<T: Object>(&mut self) -> PromisedRef<T> {
        self.storage.promise()
    }
    fn fulfill<T: ObjectWrite>(&mut self, promise: PromisedRef<T>, obj: T) -> Result<RcRef<T>> {
        self.storage.fulfill(promise, obj)
    }
}
impl<B, OC, SC, L> Resolve for File<B, OC, SC, L>
where
    B: Backend,
    OC: Cache<Result<AnySync, Arc<PdfError>>>,
    SC: Cache<Result<Arc<[u8]>, Arc<PdfError>>>,
    L: Log,
{
    fn resolve_flags(&self, r: PlainRef, flags: ParseFlags, _depth: usize) -> Result<Primitive> {
        let ref storage = self.storage;
        storage.log.load_object(r);

        storage.resolve_ref(r, flags, self)
    }

    fn get<T: Object+DataSize>(&self, r: Ref<T>) -> Result<RcRef<T>> {
        resolve_get(self, &self.storage, &self.resolve_chain, r)
    }
    fn stream_end(&self, from: usize) -> Option<Option<StreamEnd>> {
        Some(self.storage.stream_end(from))
    }
    fn options(&self) -> &ParseOptions {
        &self.storage.options
    }
    fn stream_data(&self, id: PlainRef, range: Range<usize>) -> Result<Arc<[u8]>> {
        self.storage.decode(id, range, &[])
    }
    fn get_data_or_decode(&self, id: PlainRef, range: Range<usize>, filters: &[StreamFilter]) -> Result<Arc<[u8]>> {
        self.storage.stream_cache.get_or_compute(id, || self.storage.decode(id, range, filters).map_err(Arc::new))
        .map_err(|e| e.into())
    }
}
impl<OC, SC, L> File<Vec<u8>, OC, SC, L>
where
    OC: Cache<Result<AnySync, Arc<PdfError>>>,
    SC: Cache<Result<Arc<[u8]>, Arc<PdfError>>>,
    L: Log,
{
    pub fn save_to(&mut self, path: impl AsRef<Path>) -> Result<()> {
        self.storage.save(&mut self.trailer)?;
        std::fs::write(path, &self.storage.backend)?;
        Ok(())
    }
    pub fn rebuild(&mut self) -> Result<Vec<u8>> {
        let data = self.storage.rebuild(&mut self.trailer)?;
        Ok(data)
    }
}


pub struct FileOptions<'a, OC, SC, L> {
    oc: OC,
    sc: SC,
    log: L,
    password: &'a [u8],
    parse_options: ParseOptions,
}
impl FileOptions<'static, NoCache, NoCache, NoLog> {
    pub fn uncached() -> Self {
        FileOptions {
            oc: NoCache,
            sc: NoCache,
            password: b"",
            parse_options: ParseOptions::strict(),
            log: NoLog,
        }
    }
}

#[cfg(feature="cache")]
impl FileOptions<'static, ObjectCache, StreamCache, NoLog> {
    pub fn cached() -> Self {
        FileOptions {
            oc: SyncCache::new(),
            sc: SyncCache::new(),
            password: b"",
            parse_options: ParseOptions::strict(),
            log: NoLog
        }
    }
}
impl<'a, OC, SC, L> FileOptions<'a, OC, SC, L>
where
    OC: Cache<Result<AnySync, Arc<PdfError>>>,
    SC: Cache<Result<Arc<[u8]>, Arc<PdfError>>>,
    L: Log,
{
    pub fn password(self, password: &'a [u8]) -> FileOptions<'a, OC, SC, L> {
        FileOptions {
            password,
            .. self
        }
    }
    pub fn cache<O, S>(self, oc: O, sc: S) -> FileOptions<'a, O, S, L> {
        let FileOptions { oc: _, sc: _, password, parse_options, log } = self;
        FileOptions {
            oc,
            sc,
            password,
            parse_options,
            log,
        }
    }
    pub fn log<Log>(self, log: Log) -> FileOptions<'a, OC, SC, Log> {
        let FileOptions { oc, sc, password, parse_options, .. } = self;
        FileOptions {
            oc,
            sc,
            password,
            parse_options,
            log,
        }
    }
    pub fn parse_options(self, parse_options: ParseOptions) -> Self {
        FileOptions { parse_options, .. self }
    }

    /// open a file
    pub fn open(self, path: impl AsRef<Path>) -> Result<File<Vec<u8>, OC, SC, L>> {
        let data = std::fs::read(path)?;
        self.load(data)
    }
    pub fn storage(self) -> Storage<Vec<u8>, OC, SC, L> {
        let FileOptions { oc, sc, log, .. } = self;
        Storage::empty(oc, sc, log)
    }

    /// load data from the given backend
    pub fn load<B: Backend>(self, backend: B) -> Result<File<B, OC, SC, L>> {
        let FileOptions { oc, sc, password, parse_options, log } = self;
        File::load_data(backend, password, parse_options, oc, sc, log)
    }
}


impl<B, OC, SC, L> File<B, OC, SC, L>
where
    B: Backend,
    OC: Cache<Result<AnySync, Arc<PdfError>>>,
    SC: Cache<Result<Arc<[u8]>, Arc<PdfError>>>,
    L: Log,
{
    pub fn load_data(backend: B, password: &[u8], options: ParseOptions, object_cache: OC, stream_cache: SC, log: L) -> Result<Self> {
        let mut storage = Storage::with_cache(backend, options, object_cache, stream_cache, log)?;
        let trailer = storage.load_storage_and_trailer_password(password)?;

        let read = |storage: &Storage<B, OC, SC, L>, trailer: Dictionary| {
            let resolver = StorageResolver::new(storage);
            Trailer::from_primitive(Primitive::Dictionary(trailer), &resolver)
        };
        let trailer = match read(&storage, trailer) {
            Ok(trailer) => trailer,
            // Fonte: a table that reads but points beside the objects (offsets shifted by a
            // line-ending conversion, say) fails here, on the catalog: rebuilt by scanning.
            Err(e) => match storage.load_with(password, true) {
                Ok(rebuilt) => read(&storage, rebuilt).map_err(|_| e)?,
                Err(_) => return Err(e),
            },
        };
        Ok(File { storage, trailer, resolve_chain: Default::default() })
    }
    pub fn new(storage: Storage<B, OC, SC, L>, trailer: Trailer) -> Self {
        File { storage, trailer, resolve_chain: Default::default() }
    }
    pub fn resolver(&self) -> impl Resolve + '_ {
        StorageResolver::new(&self.storage)
    }

    pub fn get_root(&self) -> &Catalog {
        &self.trailer.root
    }

    pub fn pages(&self) -> impl Iterator<Item=Result<PageRc>> + '_ {
        (0 .. self.num_pages()).map(move |n| self.get_page(n))
    }
    pub fn num_pages(&self) -> u32 {
        self.trailer.root.pages.count
    }

    pub fn get_page(&self, n: u32) -> Result<PageRc> {
        let resolver = StorageResolver::new(&self.storage);
        self.trailer.root.pages.page(&resolver, n)
    }

    pub fn update_catalog(&mut self, catalog: Catalog) -> Result<()> {
        self.trailer.root = self.create(catalog)?;
        Ok(())
    }

    pub fn set_options(&mut self, options: ParseOptions) {
        self.storage.options = options;
    }

    pub fn scan(&self) -> impl Iterator<Item = Result<ScanItem>> + '_ {
        self.storage.scan()
    }

    pub fn log(&self) -> &L {
        &self.storage.log
    }

    /// the version string in the file header.
    /// if the version field in the Catalog is set, this should be used instead.
    pub fn version(&self) -> Result<String> {
        self.storage.version()
    }
}

#[derive(Clone, Object, ObjectWrite, DataSize)]
pub struct Trailer {
    #[pdf(key = "Size")]
    pub size:               i32,

    #[pdf(key = "Prev")]
    pub prev_trailer_pos:   Option<i32>,

    #[pdf(key = "Root")]
    pub root:               RcRef<Catalog>,

    #[pdf(key = "Encrypt")]
    pub encrypt_dict:       Option<RcRef<CryptDict>>,

    #[pdf(key = "Info", indirect)]
    pub info_dict:          Option<InfoDict>,

    #[pdf(key = "ID")]
    pub id:                 Vec<PdfString>,
}

/*
pub struct XRefStream {
    pub data: Vec<u8>,
    pub info: XRefInfo,
}

impl Object for XRefStream {
    fn serialize<W: io::Write>(&self, _out: &mut W) -> io::Result<()> {
        unimplemented!();
    }
    fn from_primitive(p: Primitive, resolve: &impl Resolve) -> Result<Self> {
        let stream = p.to_stream(resolve)?;
        let info = XRefInfo::from_primitive(Primitive::Dictionary (stream.info), resolve)?;
        let data = stream.data.clone();
        Ok(XRefStream {
            data: data,
            info: info,
        })
    }
}
*/
