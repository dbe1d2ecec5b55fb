use super::*;
use crate::search::retrieve::{Mode, Search};

pub(super) fn tiny() -> Corpus {
    let info = BuildInfo {
        model_id: "test".into(),
        dim: 2,
        chunk_params: ChunkParams::default(),
    };
    let doc = DocumentMeta {
        build: None,
        about: Default::default(),
        id: "d".into(),
        name: "a.pdf".into(),
        title: None,
        pages: 1,
        report: Report::Complete,
    };
    let chunk = |t: &str| ChunkRecord {
        doc: 0,
        chunk: Chunk {
            page: 1,
            char_start: 0,
            char_end: t.chars().count(),
            heading_path: vec![],
            text: t.into(),
        },
    };
    Corpus::build(
        info,
        vec![doc],
        vec![chunk("alpha beta"), chunk("gamma delta")],
        vec![vec![1.0, 0.0], vec![0.0, 1.0]],
    )
    .unwrap()
}

/// A one-page document `id`.
fn meta(id: &str) -> DocumentMeta {
    DocumentMeta::one_page(id)
}

/// A chunk of page 1 holding `t`.
fn chunk(t: &str) -> Chunk {
    Chunk {
        page: 1,
        char_start: 0,
        char_end: t.chars().count(),
        heading_path: vec![],
        text: t.into(),
    }
}

#[test]
fn round_trips_and_searches_the_same() {
    let c = tiny();
    let back = Corpus::from_bytes(&c.to_bytes().unwrap()).unwrap();
    assert_eq!(back.chunks, c.chunks);
    let q = [0.0, 1.0];
    assert_eq!(
        back.search(&Search::new("gamma", Some(&q)).depth(5)),
        c.search(&Search::new("gamma", Some(&q)).depth(5))
    );
    assert_eq!(
        back.search(&Search::new("gamma", Some(&q)).depth(5))[0].chunk,
        1
    );
}

#[test]
fn a_damaged_file_is_refused_before_use() {
    let mut bytes = tiny().to_bytes().unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0xff;
    assert!(Corpus::from_bytes(&bytes)
        .err()
        .unwrap()
        .to_string()
        .contains("damaged"));
    assert!(Corpus::from_bytes(b"%PDF-1.7 not a corpus at all, just some bytes here....").is_err());
}

#[test]
fn documents_are_added_and_removed_with_their_chunks() {
    let mut c = tiny();
    let n = c
        .add_document(meta("e"), vec![chunk("epsilon zeta")], vec![vec![0.6, 0.8]])
        .unwrap();
    assert_eq!(n, 1);
    let hit = c.search(&Search::new("epsilon", None).depth(5))[0].chunk;
    assert_eq!(c.chunks[hit as usize].doc, 1);
    // Same id again: refused, nothing changes.
    assert!(c
        .add_document(meta("e"), vec![chunk("x")], vec![vec![1.0, 0.0]])
        .is_err());
    assert_eq!(c.chunks.len(), 3);

    assert!(c.remove_document("d").unwrap());
    assert!(!c.remove_document("d").unwrap());
    assert_eq!(c.documents.len(), 1);
    assert_eq!(c.chunks.len(), 1);
    assert_eq!(c.chunks[0].doc, 0, "document numbers are compacted");
    assert!(c.search(&Search::new("alpha", None).depth(5)).is_empty());
    let q = [0.6, 0.8];
    assert_eq!(
        c.search(&Search::new("", Some(&q)).mode(Mode::Dense).depth(5))[0].chunk,
        0
    );
}

#[test]
fn a_search_is_after_the_still_embedding_document_it_finds_first_even_by_meaning() {
    let mut c = tiny();
    // Two files still embedding: the first has its first passage's vector, the second none.
    let long = c
        .begin_document(meta("long"), vec![chunk("omega rho"), chunk("psi tau")])
        .unwrap();
    c.set_vectors(long, 0, &[vec![0.6, 0.8]]).unwrap();
    let short = c
        .begin_document(meta("short"), vec![chunk("omega sigma")])
        .unwrap();
    let q = [0.6, 0.8];
    let hits = c.search(&Search::new("omega rho", Some(&q)).depth(5));
    let first = c.chunks[hits[0].chunk as usize].doc;
    assert_eq!(first, long, "found first, by words and by meaning");
    assert!(c.has_vector(hits[0].chunk));
    // The passage hit has its vector, yet the file is what the search is after, not the other
    // file whose passage further down was found by its words alone.
    let lexical_only = hits.iter().find(|h| !c.has_vector(h.chunk)).unwrap();
    assert_eq!(c.chunks[lexical_only.chunk as usize].doc, short);
    assert_eq!(c.still_embedding_among(&hits, 3), Some(long));
    // Only stored documents among the first hits: none.
    let alpha = c.search(&Search::new("alpha beta", Some(&[1.0, 0.0])).depth(5));
    assert_eq!(c.still_embedding_among(&alpha, 1), None);
}

/// Each chunk's hubness as a corpus computed afresh from its vectors has it.
fn fresh_hubness(c: &Corpus) -> Vec<f32> {
    Neighbours::compute(
        &c.vectors,
        &c.direction,
        crate::search::retrieve::HUBNESS_NEIGHBOURS,
    )
    .hubness()
    .to_vec()
}

#[test]
fn the_kept_neighbours_follow_every_change_and_are_saved_with_the_corpus() {
    let dim = 8;
    let info = BuildInfo {
        model_id: "test".into(),
        dim,
        chunk_params: ChunkParams::default(),
    };
    let vectors = crate::search::vector::random_unit_vectors(140, dim, 5);
    let texts: Vec<String> = (0..140).map(|i| format!("passage {i}")).collect();
    let doc = |n: usize| -> (Vec<Chunk>, Vec<Vec<f32>>) {
        let r = n * 35..(n + 1) * 35;
        (
            texts[r.clone()].iter().map(|t| chunk(t)).collect(),
            vectors[r].to_vec(),
        )
    };
    let mut c = Corpus::empty(info);
    c.set_language_direction(crate::search::vector::random_unit_vectors(1, dim, 77).remove(0));
    assert!(
        !c.keep_neighbours(),
        "nothing to compute in an empty library"
    );
    assert!(c.has_neighbours(), "but kept from now on");
    let hubness = |c: &Corpus| c.neighbours.as_ref().unwrap().hubness().to_vec();
    for n in 0..2 {
        let (chunks, vectors) = doc(n);
        c.add_document(meta(&format!("d{n}")), chunks, vectors)
            .unwrap();
    }
    assert_eq!(hubness(&c), fresh_hubness(&c), "documents added");

    // One document embedded while another is read: vectors come in pieces, out of order.
    let (chunks, vectors) = doc(2);
    let p = c.begin_document(meta("d2"), chunks).unwrap();
    c.set_vectors(p, 20, &vectors[20..]).unwrap();
    let (chunks3, vectors3) = doc(3);
    c.add_document(meta("d3"), chunks3, vectors3).unwrap();
    c.set_vectors(p, 0, &vectors[..20]).unwrap();
    assert_eq!(
        hubness(&c),
        fresh_hubness(&c),
        "a document embedded in pieces"
    );

    // Saved while d2 is still provisional: what is saved is the library without it.
    let mut saved = Corpus::from_bytes(&c.to_bytes().unwrap()).unwrap();
    saved.set_language_direction(c.direction.clone());
    assert_eq!(saved.chunks.len(), 105);
    assert_eq!(hubness(&saved), fresh_hubness(&saved), "saved without d2");

    c.finish_document(p).unwrap();
    c.remove_document("d1").unwrap();
    // The passages that had one of d1's among their nearest wait to be computed again (a
    // slice at a time in the page); searches rank without hubness until then.
    assert!(!c.has_neighbours());
    assert!(c.keep_neighbours());
    assert_eq!(hubness(&c), fresh_hubness(&c), "a document removed");

    // Back from bytes as they were kept; another axis drops them.
    let mut back = Corpus::from_bytes(&c.to_bytes().unwrap()).unwrap();
    back.set_language_direction(c.direction.clone());
    assert!(!back.keep_neighbours(), "restored, not computed again");
    assert_eq!(hubness(&back), hubness(&c));
    back.set_language_direction(crate::search::vector::random_unit_vectors(1, dim, 78).remove(0));
    assert!(back.keep_neighbours(), "another axis: computed again");
}
