//! Hybrid retrieval: BM25 and dense rankings fused by reciprocal rank fusion, restricted to the
//! documents in scope, then cut to an evidence budget in characters (what the prompt can hold).

use std::collections::HashMap;

use crate::lang::Lang;
use crate::lexical::Bm25;
use crate::vector::VectorIndex;

/// Which rankings to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// BM25 alone.
    Lexical,
    /// Embeddings alone.
    Dense,
    /// Both, fused by RRF.
    Hybrid,
}

/// The RRF constant: how much the first ranks outweigh the later ones. Cormack et al. (2009)
/// use 60; on the Debian FAQ questions 20 beat both BM25 and dense alone in every language pair
/// while 60 did not (docs/QUALITY.md): with a budget of a few passages, what each ranking puts
/// first must make it into the evidence.
pub const RRF_K: f32 = 20.0;

/// One retrieved chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Chunk number.
    pub chunk: u32,
    /// Fused score (RRF), or the single ranking's score.
    pub score: f32,
    /// 1-based rank in the BM25 list, if it was there.
    pub lexical_rank: Option<u32>,
    /// 1-based rank in the dense list, if it was there.
    pub dense_rank: Option<u32>,
}

/// How hybrid retrieval fuses its two rankings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fusion {
    /// RRF constant.
    pub k: f32,
    /// Weight of the dense ranking (BM25's is 1).
    pub dense_weight: f32,
    /// How the dense ranking treats passages of different languages.
    pub languages: Languages,
    /// The model's [`crate::embed::ModelManifest::language_gap`], for [`Languages::Offset`].
    pub language_gap: f32,
}

/// How the dense ranking treats a library that mixes languages. A bilingual model puts a
/// passage in the question's language closer to it than the passage in the other language
/// that answers it, so in one joint ranking an English answer to a Portuguese question sinks
/// below Portuguese passages about something else (docs/QUALITY.md §4, "A mixed library").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Languages {
    /// One dense ranking over every passage.
    Joint,
    /// One dense ranking per passage language, each fused as a list of its own with the dense
    /// weight: each language's best passages reach the fusion.
    PerLanguage,
    /// The per-language rankings interleaved (first of each, then second of each…) into one
    /// dense list.
    Interleaved,
    /// One ranking of the cosines less the mean cosine of that language's top passages: a
    /// language prior taken off the scores, per question.
    Centered,
    /// One ranking, the model's language gap added to the cosine of every passage in the
    /// other language than the question's: a language prior of the model, the same for every
    /// question (none when the question's language cannot be told).
    Offset,
}

impl Fusion {
    /// The fusion measured for a model: [`RRF_K`], the manifest's dense weight, and for a
    /// model with a language gap (a bilingual one) [`Languages::Offset`] by that gap.
    pub fn for_model(manifest: &crate::embed::ModelManifest) -> Self {
        Self {
            k: RRF_K,
            dense_weight: manifest.dense_weight,
            language_gap: manifest.language_gap,
            languages: if manifest.language_gap > 0.0 {
                Languages::Offset
            } else {
                Languages::Joint
            },
        }
    }
}

impl Default for Fusion {
    fn default() -> Self {
        Self {
            k: RRF_K,
            dense_weight: 1.0,
            languages: Languages::Joint,
            language_gap: 0.0,
        }
    }
}

/// Reciprocal rank fusion of ranked id lists: `score(d) = sum 1 / (k + rank)`, ties broken by
/// id so results are deterministic.
pub fn rrf(lists: &[Vec<u32>], k: f32) -> Vec<(u32, f32)> {
    let weighted: Vec<(&[u32], f32)> = lists.iter().map(|l| (l.as_slice(), 1.0)).collect();
    rrf_weighted(&weighted, k)
}

/// [`rrf`] with a weight per list: `score(d) = sum w / (k + rank)`.
pub fn rrf_weighted(lists: &[(&[u32], f32)], k: f32) -> Vec<(u32, f32)> {
    let mut scores: HashMap<u32, f32> = HashMap::new();
    for (list, weight) in lists {
        for (rank, id) in list.iter().enumerate() {
            *scores.entry(*id).or_default() += weight / (k + rank as f32 + 1.0);
        }
    }
    let mut fused: Vec<(u32, f32)> = scores.into_iter().collect();
    fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    fused
}

/// Keeps hits in rank order while their text fits in `budget` characters; a hit too long for
/// what is left is skipped so a shorter one further down can still use the room.
pub fn within_budget(hits: &[Hit], chars: impl Fn(u32) -> usize, budget: usize) -> Vec<Hit> {
    let mut used = 0;
    let mut out = Vec::new();
    for h in hits {
        let n = chars(h.chunk);
        if used + n <= budget {
            used += n;
            out.push(h.clone());
        }
    }
    out
}

/// One search: what to look for and how.
#[derive(Debug, Clone, Copy)]
pub struct Search<'a> {
    /// The question as typed (for BM25 and highlighting).
    pub question: &'a str,
    /// Its embedding; `None` searches lexically only.
    pub vector: Option<&'a [f32]>,
    /// Which rankings to use.
    pub mode: Mode,
    /// How many hits each ranking contributes.
    pub depth: usize,
    /// Document numbers to search (None: all).
    pub scope: Option<&'a [u32]>,
}

impl<'a> Search<'a> {
    /// Hybrid when there is a vector, lexical without; 10 deep; the whole corpus.
    pub fn new(question: &'a str, vector: Option<&'a [f32]>) -> Self {
        Self {
            question,
            vector,
            mode: if vector.is_some() {
                Mode::Hybrid
            } else {
                Mode::Lexical
            },
            depth: 10,
            scope: None,
        }
    }

    /// With these rankings.
    pub fn mode(self, mode: Mode) -> Self {
        Self { mode, ..self }
    }

    /// With this many hits per ranking.
    pub fn depth(self, depth: usize) -> Self {
        Self { depth, ..self }
    }

    /// Within these document numbers (None: all).
    pub fn scope(self, scope: Option<&'a [u32]>) -> Self {
        Self { scope, ..self }
    }
}

/// BM25 + vectors over the same chunk numbering, with each chunk's document.
pub struct Retriever<'a> {
    /// Lexical index.
    pub lexical: &'a Bm25,
    /// Dense index.
    pub dense: &'a VectorIndex,
    /// Document number of each chunk, for scoping.
    pub chunk_doc: &'a [u32],
    /// Language of each chunk ([`crate::lang::passage_languages`]).
    pub chunk_lang: &'a [Option<Lang>],
    /// Per chunk, whether its vector is still to come (kept out of the dense ranking); empty
    /// when every chunk has one.
    pub pending: &'a [bool],
    /// How [`Mode::Hybrid`] fuses.
    pub fusion: Fusion,
}

impl Retriever<'_> {
    /// Ranks chunks for a question ([`Search`]).
    pub fn search(&self, search: &Search<'_>) -> Vec<Hit> {
        let Search {
            question,
            vector: question_vector,
            mode,
            depth,
            scope,
        } = *search;
        let allow = |chunk: u32| match scope {
            None => true,
            Some(docs) => docs.contains(&self.chunk_doc[chunk as usize]),
        };
        let lexical = match mode {
            Mode::Lexical | Mode::Hybrid => self.lexical.search(question, depth, &allow),
            Mode::Dense => Vec::new(),
        };
        let embedded = |chunk: u32| allow(chunk) && self.pending.get(chunk as usize) != Some(&true);
        let dense: Vec<Vec<(u32, f32)>> = match (mode, question_vector) {
            (Mode::Dense | Mode::Hybrid, Some(q)) => {
                self.dense_lists(question, q, depth, &embedded)
            }
            _ => Vec::new(),
        };
        let rank_of = |list: &[(u32, f32)], id: u32| {
            list.iter().position(|x| x.0 == id).map(|p| p as u32 + 1)
        };
        let dense_rank = |id: u32| dense.iter().find_map(|l| rank_of(l, id));
        let dense_ids: Vec<Vec<u32>> = dense
            .iter()
            .map(|l| l.iter().map(|x| x.0).collect())
            .collect();
        let scored: Vec<(u32, f32)> = match mode {
            Mode::Lexical => lexical.clone(),
            Mode::Dense if dense.len() == 1 => dense[0].clone(),
            Mode::Dense => {
                let lists: Vec<(&[u32], f32)> =
                    dense_ids.iter().map(|l| (l.as_slice(), 1.0)).collect();
                rrf_weighted(&lists, self.fusion.k)
            }
            Mode::Hybrid => {
                let lexical_ids: Vec<u32> = lexical.iter().map(|x| x.0).collect();
                let mut lists = vec![(lexical_ids.as_slice(), 1.0)];
                lists.extend(
                    dense_ids
                        .iter()
                        .map(|l| (l.as_slice(), self.fusion.dense_weight)),
                );
                let mut fused = rrf_weighted(&lists, self.fusion.k);
                self.impute_pending(&mut fused, &lexical, dense_ids.len());
                fused
            }
        };
        scored
            .into_iter()
            .map(|(chunk, score)| Hit {
                chunk,
                score,
                lexical_rank: rank_of(&lexical, chunk),
                dense_rank: dense_rank(chunk),
            })
            .collect()
    }

    /// A chunk whose vector has not come yet cannot be in the dense ranking(s); ranked as if
    /// the model had found it irrelevant, a document still embedding would lose every passage
    /// to the ones embedded before it (their dense ranks weigh `dense_weight` times BM25's).
    /// So it takes, in each dense ranking, the rank it has in BM25's: the one estimate there is.
    fn impute_pending(&self, fused: &mut [(u32, f32)], lexical: &[(u32, f32)], dense_lists: usize) {
        if self.pending.is_empty() || dense_lists == 0 {
            return;
        }
        let weight = self.fusion.dense_weight * dense_lists as f32;
        let mut changed = false;
        for (chunk, score) in fused.iter_mut() {
            if self.pending.get(*chunk as usize) != Some(&true) {
                continue;
            }
            if let Some(rank) = lexical.iter().position(|x| x.0 == *chunk) {
                *score += weight / (self.fusion.k + rank as f32 + 1.0);
                changed = true;
            }
        }
        if changed {
            fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        }
    }

    /// The dense ranking(s) [`Fusion::languages`] asks for, `depth` deep each: one list, or
    /// one per passage language present in scope (a language with no passage gives none).
    fn dense_lists(
        &self,
        question: &str,
        q: &[f32],
        depth: usize,
        allow: &dyn Fn(u32) -> bool,
    ) -> Vec<Vec<(u32, f32)>> {
        if self.fusion.languages == Languages::Joint {
            return vec![self.dense.search(q, depth, allow)];
        }
        let asked = Lang::detect(question);
        let (per_language, offsets): (Vec<Vec<(u32, f32)>>, Vec<f32>) =
            [Some(Lang::En), Some(Lang::Pt), None]
                .into_iter()
                .filter_map(|lang| {
                    let own = |c: u32| allow(c) && self.chunk_lang.get(c as usize) == Some(&lang);
                    let list = self.dense.search(q, depth, &own);
                    let other = asked.is_some() && lang.is_some() && lang != asked;
                    let gap = if other { self.fusion.language_gap } else { 0.0 };
                    (!list.is_empty()).then_some((list, gap))
                })
                .unzip();
        match self.fusion.languages {
            Languages::PerLanguage => per_language,
            Languages::Interleaved => vec![interleave(&per_language, depth)],
            Languages::Centered => vec![centered(per_language, depth)],
            Languages::Offset => vec![offset(per_language, &offsets, depth)],
            Languages::Joint => unreachable!("returned above"),
        }
    }
}

/// First of each list, then second of each…, `depth` in all.
fn interleave(lists: &[Vec<(u32, f32)>], depth: usize) -> Vec<(u32, f32)> {
    let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
    (0..longest)
        .flat_map(|rank| lists.iter().filter_map(move |l| l.get(rank).copied()))
        .take(depth)
        .collect()
}

/// The lists merged by score plus each list's offset, `depth` in all.
fn offset(lists: Vec<Vec<(u32, f32)>>, offsets: &[f32], depth: usize) -> Vec<(u32, f32)> {
    let mut all: Vec<(u32, f32)> = lists
        .into_iter()
        .zip(offsets)
        .flat_map(|(l, &o)| l.into_iter().map(move |(c, s)| (c, s + o)))
        .collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(depth);
    all
}

/// The lists merged by score less their own mean score, `depth` in all.
fn centered(lists: Vec<Vec<(u32, f32)>>, depth: usize) -> Vec<(u32, f32)> {
    let means: Vec<f32> = lists
        .iter()
        .map(|l| -l.iter().map(|x| x.1).sum::<f32>() / l.len().max(1) as f32)
        .collect();
    offset(lists, &means, depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexical::Bm25Params;

    #[test]
    fn rrf_rewards_agreement() {
        // 7 is 2nd in both lists; 1 and 9 are 1st in one list only.
        let fused = rrf(&[vec![1, 7, 3], vec![9, 7, 4]], 60.0);
        assert_eq!(fused[0].0, 7);
        assert!((fused[0].1 - 2.0 / 62.0).abs() < 1e-7);
        assert_eq!((fused[1].0, fused[2].0), (1, 9), "ties broken by id");
        assert!((fused[1].1 - 1.0 / 61.0).abs() < 1e-7);
        assert_eq!(fused.len(), 5);
        // Ranks 1 and 3 together beat rank 2 twice, just: 1/61 + 1/63 > 2/62.
        let close = rrf(&[vec![1, 7], vec![8, 7, 1]], 60.0);
        assert_eq!(close[0].0, 1);
    }

    #[test]
    fn budget_keeps_order_and_skips_what_does_not_fit() {
        let hit = |chunk| Hit {
            chunk,
            score: 0.0,
            lexical_rank: None,
            dense_rank: None,
        };
        let hits = [hit(0), hit(1), hit(2), hit(3)];
        let len = [1500, 3000, 2000, 400];
        let kept = within_budget(&hits, |c| len[c as usize], 4000);
        assert_eq!(kept.iter().map(|h| h.chunk).collect::<Vec<_>>(), [0, 2, 3]);
        assert!(within_budget(&hits, |c| len[c as usize], 100).is_empty());
    }

    #[test]
    fn hybrid_search_fuses_and_scopes() {
        let texts = [
            "prazo de rescisão do contrato",
            "entrega em trinta dias",
            "rescisão por justa causa",
        ];
        let lexical = Bm25::build(texts, Bm25Params::default());
        let dense =
            VectorIndex::build(2, vec![vec![1.0, 0.0], vec![0.0, 1.0], vec![0.8, 0.6]]).unwrap();
        let chunk_doc = [0, 0, 1];
        let r = Retriever {
            lexical: &lexical,
            dense: &dense,
            chunk_doc: &chunk_doc,
            chunk_lang: &[None; 3],
            pending: &[],
            fusion: Fusion::default(),
        };
        let hits = r.search(&Search::new("rescisão", Some(&[0.0, 1.0])));
        assert_eq!(hits.len(), 3);
        let h2 = hits.iter().find(|h| h.chunk == 2).unwrap();
        assert_eq!(h2.dense_rank, Some(2));
        assert!(h2.lexical_rank.is_some());
        let scoped = r.search(&Search::new("rescisão", Some(&[0.0, 1.0])).scope(Some(&[1])));
        assert_eq!(scoped.iter().map(|h| h.chunk).collect::<Vec<_>>(), [2]);
        let lexical_only = r.search(&Search::new("entrega", None));
        assert_eq!(
            lexical_only.iter().map(|h| h.chunk).collect::<Vec<_>>(),
            [1]
        );
    }

    #[test]
    fn the_language_gap_lets_an_answer_in_the_other_language_reach_the_top() {
        // A Portuguese question; the answer is only in the English passage (0), which the
        // bilingual model puts a little farther than two Portuguese passages on other topics,
        // as it does (docs/QUALITY.md §4): cosines 0.80 against 0.82 and 0.81.
        let texts = [
            "To remove all objects in the current environment, you can use rm with ls.",
            "O pacote é instalado com o dpkg, que não resolve as dependências.",
            "Os arquivos de configuração ficam em /etc e não são apagados com o pacote.",
        ];
        let unit = |c: f32| vec![c, (1.0 - c * c).sqrt()];
        let lexical = Bm25::build(texts, Bm25Params::default());
        let dense = VectorIndex::build(2, vec![unit(0.80), unit(0.82), unit(0.81)]).unwrap();
        let chunk_lang = crate::lang::passage_languages(texts);
        assert_eq!(chunk_lang, [Some(Lang::En), Some(Lang::Pt), Some(Lang::Pt)]);
        let chunk_doc = [0, 1, 1];
        let ranked = |question: &str, languages, language_gap| {
            let r = Retriever {
                lexical: &lexical,
                dense: &dense,
                chunk_doc: &chunk_doc,
                chunk_lang: &chunk_lang,
                pending: &[],
                fusion: Fusion {
                    languages,
                    language_gap,
                    ..Fusion::default()
                },
            };
            let q = [1.0, 0.0];
            let hits = r.search(&Search::new(question, Some(&q)).mode(Mode::Dense));
            hits.iter().map(|h| h.chunk).collect::<Vec<_>>()
        };
        let pt = "Como apago todos os objetos da sessão?";
        assert_eq!(ranked(pt, Languages::Joint, 0.036), [1, 2, 0]);
        assert_eq!(ranked(pt, Languages::Offset, 0.036), [0, 1, 2]);
        assert_eq!(
            ranked(pt, Languages::Offset, 0.0),
            [1, 2, 0],
            "no gap, no change"
        );
        assert_eq!(
            ranked(pt, Languages::PerLanguage, 0.0)[0],
            0,
            "ties broken by id"
        );
        // The same question in English: no offset for its own language.
        assert_eq!(
            ranked(
                "How do I delete every object of the session?",
                Languages::Offset,
                0.036
            )[0],
            1,
            "Portuguese passages get the gap for an English question"
        );
    }

    #[test]
    fn a_chunk_without_its_vector_yet_takes_its_lexical_rank_in_the_dense_ranking() {
        // Chunk 2 (the only one with the words asked) has no vector yet: its dense slot is a
        // zero placeholder. Chunks 0 and 1 are embedded and close to the question's vector.
        let texts = [
            "An introduction to the class and its options.",
            "How to write the title page of a thesis.",
            "Fundação Intituto Brasileiro de Geografia e Estatística, 1993.",
        ];
        let lexical = Bm25::build(texts, Bm25Params::default());
        let dense =
            VectorIndex::build(2, vec![vec![1.0, 0.0], vec![0.8, 0.6], vec![0.0, 0.0]]).unwrap();
        let chunk_lang = [None; 3];
        let ranked = |pending: &[bool]| {
            let r = Retriever {
                lexical: &lexical,
                dense: &dense,
                chunk_doc: &[0, 0, 0],
                chunk_lang: &chunk_lang,
                pending,
                fusion: Fusion {
                    dense_weight: 2.0,
                    ..Fusion::default()
                },
            };
            let q = [1.0, 0.0];
            r.search(&Search::new("Intituto Brasileiro de Geografia", Some(&q)))
        };
        let hits = ranked(&[false, false, true]);
        assert_eq!(hits[0].chunk, 2, "{hits:?}");
        assert_eq!(hits[0].dense_rank, None, "found by its words alone");
        assert!(
            !ranked(&[false, false, true])
                .iter()
                .skip(1)
                .any(|h| h.chunk == 2),
            "listed once"
        );
    }
}
