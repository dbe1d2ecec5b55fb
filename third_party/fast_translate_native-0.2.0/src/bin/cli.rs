//! Validation CLI: reads model dir + reads lines from stdin, prints translations.
//! Usage: tl-cli <model_dir>   (lines on stdin)

use fast_translate_native::Direction;
use std::io::{self, BufRead, Write};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 2 {
        eprintln!("usage: tl-cli <model_dir>");
        std::process::exit(1);
    }
    let t0 = std::time::Instant::now();
    let dir = Direction::load(&args[1]).expect("load failed");
    eprintln!("[tl-cli] loaded in {:?}", t0.elapsed());

    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        if line.trim().is_empty() {
            writeln!(out).unwrap();
            continue;
        }
        match dir.translate(&line) {
            Ok(t) => writeln!(out, "{t}").unwrap(),
            Err(e) => writeln!(out, "[ERR] {e}").unwrap(),
        }
    }
}
