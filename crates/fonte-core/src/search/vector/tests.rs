use super::*;

#[test]
fn hnsw_recall_against_exact_and_round_trip() {
    let seed = HnswParams::default().seed;
    println!("hnsw test seed {seed:#x}");
    let data = random_unit_vectors(3_000, 32, 7);
    let queries = random_unit_vectors(50, 32, 11);
    let exact = VectorIndex::build_exact(32, data.clone()).unwrap();
    let hnsw = VectorIndex::build_hnsw(32, data, HnswParams::default()).unwrap();
    assert!(hnsw.is_hnsw() && !exact.is_hnsw());
    let recall = recall_at(&exact, &hnsw, &queries, 10);
    println!("recall@10 {recall:.3}");
    assert!(recall >= 0.95, "recall@10 {recall}");

    let back = VectorIndex::from_bytes(&hnsw.to_bytes().unwrap()).unwrap();
    for q in &queries {
        assert_eq!(back.search(q, 10, &|_| true), hnsw.search(q, 10, &|_| true));
    }
}

#[test]
fn int8_scan_recall_scores_scope_and_round_trip() {
    let data = random_unit_vectors(EXACT_LIMIT, 64, 9);
    let queries = random_unit_vectors(50, 64, 13);
    let exact = VectorIndex::build_exact(64, data.clone()).unwrap();
    let int8 = VectorIndex::build(64, data).unwrap();
    assert!(matches!(int8.kind, Kind::Int8 { .. }), "built by size");
    let recall = recall_at(&exact, &int8, &queries, 10);
    assert!(recall >= 0.95, "recall@10 {recall}");
    // Scores are cosines within quantization error.
    let (a, b) = (
        exact.search(&queries[0], 1, &|_| true),
        int8.search(&queries[0], 1, &|_| true),
    );
    assert_eq!(a[0].0, b[0].0);
    assert!((a[0].1 - b[0].1).abs() < 0.01, "{a:?} {b:?}");
    let scoped = int8.search(&queries[0], 3, &|id| id % 1000 == 7);
    assert_eq!(scoped.len(), 3);
    assert!(scoped.iter().all(|(id, _)| id % 1000 == 7));
    let back = VectorIndex::from_bytes(&int8.to_bytes().unwrap()).unwrap();
    for q in &queries {
        assert_eq!(back.search(q, 10, &|_| true), int8.search(q, 10, &|_| true));
    }
}

#[test]
fn extending_gives_the_same_index_as_building_at_once() {
    let data = random_unit_vectors(EXACT_LIMIT + 300, 16, 21);
    let queries = random_unit_vectors(10, 16, 23);
    let whole = VectorIndex::build(16, data.clone()).unwrap();
    let mut grown = VectorIndex::build(16, data[..100].to_vec()).unwrap();
    for part in data[100..].chunks(700) {
        grown.extend(part).unwrap();
    }
    assert_eq!(grown.len(), data.len());
    assert!(matches!(grown.kind, Kind::Int8 { .. }));
    for q in &queries {
        assert_eq!(
            grown.search(q, 10, &|_| true),
            whole.search(q, 10, &|_| true)
        );
    }
}

#[test]
fn int8_dot_matches_the_plain_sum_for_every_tail_length() {
    for n in 0..40 {
        let a: Vec<i8> = (0..n).map(|i| (i * 7 % 255 - 127) as i8).collect();
        let b: Vec<i8> = (0..n).map(|i| (127 - i * 5 % 255) as i8).collect();
        let plain: i32 = a
            .iter()
            .zip(&b)
            .map(|(x, y)| i32::from(*x) * i32::from(*y))
            .sum();
        assert_eq!(dot_i8(&a, &b), plain, "n={n}");
    }
}

#[test]
fn exact_search_ranks_by_cosine_and_respects_scope() {
    let v = vec![vec![1.0, 0.0], vec![0.0, 1.0], vec![0.6, 0.8]];
    let idx = VectorIndex::build(2, v).unwrap();
    let r = idx.search(&[1.0, 0.0], 2, &|_| true);
    assert_eq!(r.iter().map(|x| x.0).collect::<Vec<_>>(), [0, 2]);
    let scoped = idx.search(&[1.0, 0.0], 2, &|id| id == 1);
    assert_eq!(scoped, vec![(1, 0.0)]);
}

#[test]
fn a_narrow_scope_still_gets_k_results_from_hnsw() {
    let data = random_unit_vectors(2_000, 16, 3);
    let hnsw = VectorIndex::build_hnsw(16, data, HnswParams::default()).unwrap();
    let q = random_unit_vectors(1, 16, 5).remove(0);
    let r = hnsw.search(&q, 5, &|id| id % 400 == 0);
    assert_eq!(r.len(), 5);
    assert!(r.iter().all(|(id, _)| id % 400 == 0));
}

#[test]
fn another_format_version_is_refused() {
    let mut idx = VectorIndex::build_exact(2, vec![vec![1.0, 0.0]]).unwrap();
    idx.format = 99;
    let err = VectorIndex::from_bytes(&idx.to_bytes().unwrap())
        .err()
        .unwrap();
    assert!(err.to_string().contains("rebuild"), "{err}");
}

#[test]
fn dot_matches_the_plain_sum_for_every_tail_length() {
    for n in 0..20 {
        let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 - 3.0).collect();
        let b: Vec<f32> = (0..n).map(|i| 1.0 + i as f32).collect();
        let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot(&a, &b) - plain).abs() < 1e-3, "n={n}");
    }
}

#[test]
fn the_wide_dot_matches_the_plain_sum_for_every_tail_length() {
    for n in 0..40 {
        let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 - 3.0).collect();
        let b: Vec<f32> = (0..n).map(|i| 1.0 + i as f32).collect();
        let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((super::dot_wide(&a, &b) - plain).abs() < 1e-2, "n={n}");
    }
}

#[test]
fn wrong_dimension_is_an_error() {
    assert!(VectorIndex::build(3, vec![vec![1.0, 0.0]]).is_err());
}

#[test]
fn a_placeholder_is_replaced_in_place_in_both_scans() {
    let v = random_unit_vectors(3, 8, 7);
    for build in [VectorIndex::build_exact, VectorIndex::build_int8] {
        let mut index = build(8, vec![v[0].clone(), vec![0.0; 8]]).unwrap();
        index.set(1, &v[1]).unwrap();
        assert_eq!(index.search(&v[1], 1, &|_| true)[0].0, 1);
        assert!(index.set(2, &v[2]).is_err(), "out of range");
        assert!(index.set(0, &v[2][..4]).is_err(), "wrong dimension");
    }
    let mut hnsw = VectorIndex::build_hnsw(8, v.clone(), HnswParams::default()).unwrap();
    assert!(hnsw.set(0, &v[1]).is_err());
}
