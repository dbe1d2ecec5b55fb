use super::*;
use crate::embed::l2_normalize;
use crate::search::vector::random_unit_vectors;

fn unit(v: &[f32]) -> Vec<f32> {
    let mut v = v.to_vec();
    l2_normalize(&mut v);
    v
}

/// Each passage's mean cosine to its `k` nearest others, the plain way: the definition the
/// kept lists must agree with.
fn brute_force(vectors: &[Vec<f32>], direction: &[f32], k: usize) -> Vec<f32> {
    let project = |v: &Vec<f32>| {
        let mut p = if direction.is_empty() {
            v.clone()
        } else {
            crate::search::retrieve::without_axis(v, direction)
        };
        l2_normalize(&mut p);
        p
    };
    let units: Vec<Option<Vec<f32>>> = vectors
        .iter()
        .map(|v| (!v.is_empty()).then(|| project(v)))
        .collect();
    units
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let Some(u) = u else { return 0.0 };
            let mut sims: Vec<f32> = units
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .filter_map(|(_, w)| Some(u.iter().zip(w.as_ref()?).map(|(a, b)| a * b).sum()))
                .collect();
            sims.sort_by(|a, b| b.total_cmp(a));
            sims.truncate(k);
            if sims.is_empty() {
                0.0
            } else {
                sims.iter().sum::<f32>() / sims.len() as f32
            }
        })
        .collect()
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
}

#[test]
fn is_the_mean_cosine_to_the_nearest_others() {
    let vectors = vec![
        unit(&[1.0, 0.0, 0.0]),
        unit(&[1.0, 1.0, 0.0]),
        unit(&[0.0, 1.0, 0.0]),
        unit(&[0.0, 0.0, 1.0]),
    ];
    let h = Neighbours::compute(&vectors, &[], 2);
    let c45 = std::f32::consts::FRAC_1_SQRT_2;
    // Passage 0: nearest are 1 (cos 0.707) and then 2 or 3 (cos 0).
    assert!((h.hubness()[0] - c45 / 2.0).abs() < 1e-6, "{h:?}");
    // Passage 1 has two neighbours at 0.707.
    assert!((h.hubness()[1] - c45).abs() < 1e-6, "{h:?}");
    // Passage 3 is orthogonal to all.
    assert!(h.hubness()[3].abs() < 1e-6, "{h:?}");
}

#[test]
fn the_language_axis_is_taken_out_first_and_missing_vectors_count_for_nothing() {
    // Along axis z only the two passages agree; without it they are orthogonal.
    let axis = vec![0.0, 0.0, 1.0];
    let vectors = vec![unit(&[1.0, 0.0, 3.0]), unit(&[0.0, 1.0, 3.0]), Vec::new()];
    let with_axis = Neighbours::compute(&vectors, &[], 1);
    let without = Neighbours::compute(&vectors, &axis, 1);
    assert!(with_axis.hubness()[0] > 0.8, "{with_axis:?}");
    assert!(without.hubness()[0].abs() < 1e-6 && without.hubness()[1].abs() < 1e-6);
    assert_eq!(without.hubness()[2], 0.0);
}

#[test]
fn kept_up_to_date_it_equals_the_lists_computed_afresh() {
    let mut vectors = random_unit_vectors(120, 16, 7);
    let axis = unit(&random_unit_vectors(1, 16, 99)[0]);
    let k = 5;
    // From scratch, against the definition.
    let fresh = Neighbours::compute(&vectors, &axis, k);
    assert!(close(fresh.hubness(), &brute_force(&vectors, &axis, k)));

    // Added one by one, in another order than their numbers (a document embedded out of
    // order, a second one coming while the first is still embedding).
    let mut kept = Neighbours::compute(&[], &axis, k);
    kept.grow(vectors.len());
    for i in (0..vectors.len())
        .rev()
        .step_by(2)
        .chain((0..vectors.len()).step_by(2))
    {
        kept.add(&vectors, i);
    }
    assert_eq!(kept, fresh, "added one by one");

    // A document of 30 leaves: the others' lists are what they would be without it.
    let keep: Vec<bool> = (0..vectors.len()).map(|i| !(40..70).contains(&i)).collect();
    let gone: Vec<usize> = (40..70).collect();
    kept.forget(&vectors, &gone);
    kept.retain(&keep);
    let left: Vec<Vec<f32>> = vectors
        .iter()
        .zip(&keep)
        .filter(|(_, &k)| k)
        .map(|(v, _)| v.clone())
        .collect();
    // Those that had one of them among their nearest wait for `build`.
    assert!(!kept.is_complete());
    assert!(kept.build(&left, usize::MAX));
    assert_eq!(
        kept,
        Neighbours::compute(&left, &axis, k),
        "after a removal"
    );

    // A vector replaced in place (stored again after it was searchable): forget, then add.
    vectors = left;
    let replaced = random_unit_vectors(1, 16, 1234).remove(0);
    kept.forget(&vectors, &[3]);
    vectors[3] = replaced;
    kept.add(&vectors, 3);
    kept.build(&vectors, usize::MAX);
    assert_eq!(
        kept,
        Neighbours::compute(&vectors, &axis, k),
        "after a replacement"
    );
}

#[test]
fn saved_lists_come_back_and_damaged_ones_are_refused() {
    let vectors = random_unit_vectors(30, 8, 3);
    let n = Neighbours::compute(&vectors, &[], 4);
    assert_eq!(Neighbours::restore(n.saved(), &vectors), Some(n.clone()));
    // Another library's lists (another count) are not trusted.
    assert_eq!(Neighbours::restore(n.saved(), &vectors[..29]), None);
    let mut unsorted = n.saved();
    unsorted.lists[0].reverse();
    assert_eq!(Neighbours::restore(unsorted, &vectors), None);
}

#[test]
fn built_a_slice_at_a_time_while_the_library_changes_it_equals_the_lists_computed_afresh() {
    let mut vectors = random_unit_vectors(150, 16, 11);
    let axis = unit(&random_unit_vectors(1, 16, 12)[0]);
    let k = 6;
    let mut n = Neighbours::new(100, &axis, k);
    // The first slices: rows 0.. only; rows after wait and are nobody's neighbour.
    assert!(!n.build(&vectors[..100], 500));
    assert!(!n.is_complete());
    // A document comes meanwhile (rows 100..150): they wait for the build too.
    n.grow(150);
    for i in 100..150 {
        n.add(&vectors, i);
    }
    // One of the rows already built gets another vector (stored again).
    n.forget(&vectors, &[2]);
    vectors[2] = random_unit_vectors(1, 16, 13).remove(0);
    n.add(&vectors, 2);
    // A document leaves (rows 20..40, some built, some not).
    n.forget(&vectors, &(20..40).collect::<Vec<_>>());
    let keep: Vec<bool> = (0..150).map(|i| !(20..40).contains(&i)).collect();
    n.retain(&keep);
    vectors = vectors
        .into_iter()
        .zip(&keep)
        .filter(|(_, &k)| k)
        .map(|(v, _)| v)
        .collect();
    let mut slices = 0;
    while !n.build(&vectors, 300) {
        slices += 1;
    }
    assert!(slices > 5, "{slices} slices");
    assert_eq!(n, Neighbours::compute(&vectors, &axis, k));
}
