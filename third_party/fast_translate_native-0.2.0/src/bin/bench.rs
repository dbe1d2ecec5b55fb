//! Timing breakdown: encode vs decode. Usage: bench <model_dir> <sentences_file>
use fast_translate_native::engine::{Engine, EOS};
use fast_translate_native::model::Model;
use fast_translate_native::shortlist::Shortlist;
use std::time::Instant;
use tokenizers::Tokenizer;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let dir = &a[1];
    let mut mp = String::new();
    let mut sp = String::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let n = e.unwrap().file_name().to_string_lossy().into_owned();
        if n.ends_with(".intgemm.alphas.bin") {
            mp = format!("{dir}/{n}");
        } else if n.starts_with("lex.") && n.ends_with(".bin") {
            sp = format!("{dir}/{n}");
        }
    }
    let model = Model::load(&mp).unwrap();
    let sl = Shortlist::load(&sp).unwrap();
    let eng = Engine::new(model, Some(sl));
    let tok = Tokenizer::from_file(format!("{dir}/tokenizer.json")).unwrap();

    let lines: Vec<String> = std::fs::read_to_string(&a[2])
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|s| s.to_string())
        .collect();

    // warm
    for s in lines.iter().take(10) {
        let mut ids: Vec<u32> = tok.encode(s.as_str(), false).unwrap().get_ids().to_vec();
        ids.push(EOS);
        let e = eng.encode(&ids);
        eng.decode_greedy(&e, &ids, (2.5 * ids.len() as f32).ceil() as usize);
    }

    let mut t_tok = 0f64;
    let mut t_enc = 0f64;
    let mut t_dec = 0f64;
    let mut steps = 0usize;
    let mut ntok = 0usize;
    let reps = 5;
    for _ in 0..reps {
        for s in &lines {
            let t0 = Instant::now();
            let mut ids: Vec<u32> = tok.encode(s.as_str(), false).unwrap().get_ids().to_vec();
            ids.push(EOS);
            t_tok += t0.elapsed().as_secs_f64();
            ntok += ids.len();
            let t1 = Instant::now();
            let e = eng.encode(&ids);
            t_enc += t1.elapsed().as_secs_f64();
            let t2 = Instant::now();
            let out = eng.decode_greedy(&e, &ids, (2.5 * ids.len() as f32).ceil() as usize);
            t_dec += t2.elapsed().as_secs_f64();
            steps += out.len();
        }
    }
    let n = (lines.len() * reps) as f64;
    println!(
        "per-sentence: tok={:.3}ms enc={:.3}ms dec={:.3}ms total={:.3}ms",
        1000.0 * t_tok / n,
        1000.0 * t_enc / n,
        1000.0 * t_dec / n,
        1000.0 * (t_tok + t_enc + t_dec) / n
    );
    println!(
        "avg src tokens={:.1} avg out steps={:.1}  dec per-step={:.4}ms",
        ntok as f64 / n,
        steps as f64 / n,
        1000.0 * t_dec / (steps as f64)
    );
}
