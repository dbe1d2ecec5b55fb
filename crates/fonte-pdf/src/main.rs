//! `fonte-pdf FILE.pdf [--password P]`: the text layer of each page on stdout (pages separated by
//! a form feed) and `FILE: N pages, report R` on stderr, R the report as JSON. The fidelity
//! scripts (crates/fonte-pdf/scripts/) compare this output with other readers'.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut file, mut password) = (None, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--password" => password = args.next(),
            "-h" | "--help" => {
                println!("usage: fonte-pdf FILE.pdf [--password P]");
                return ExitCode::SUCCESS;
            }
            _ if file.is_none() => file = Some(a),
            _ => {
                eprintln!("fonte-pdf: unexpected argument {a:?} (usage: fonte-pdf FILE.pdf [--password P])");
                return ExitCode::from(2);
            }
        }
    }
    let Some(file) = file else {
        eprintln!("usage: fonte-pdf FILE.pdf [--password P]");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(&file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let doc = fonte_pdf::extract(
        &bytes,
        password.as_deref().map(str::as_bytes),
        fonte_pdf::Limits::default(),
    );
    eprintln!(
        "{file}: {} pages, report {}",
        doc.page_count,
        serde_json::to_string(&doc.report).unwrap_or_default()
    );
    for d in &doc.dates {
        eprintln!(
            "{file}: date {} from {}",
            serde_json::to_string(&d.date).unwrap_or_default(),
            serde_json::to_string(&d.source).unwrap_or_default()
        );
    }
    for (i, page) in doc.pages.iter().enumerate() {
        if i > 0 {
            print!("\u{c}");
        }
        println!("{}", page.text);
    }
    ExitCode::SUCCESS
}
