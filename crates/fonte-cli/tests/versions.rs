//! `fonte index --group/--date` and `fonte search --all-versions` on the generated editions of
//! one text (tests/fixtures/versions) with the real MiniLM model: grouped, the older edition is
//! left out of the results and each result names its version; with `--all-versions` both
//! show; a group naming a file not indexed, or a date that is not one, is refused with why.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fonte(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fonte"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn grouped_editions_leave_the_older_out_unless_all_versions_are_asked_for() {
    let out = std::env::temp_dir()
        .join(format!("fonte-versions-{}.idx", std::process::id()))
        .to_string_lossy()
        .into_owned();
    let group = "House rules=house-rules-2023.pdf,house-rules-2025.pdf";
    let indexed = fonte(&[
        "index",
        "tests/fixtures/versions",
        "-o",
        &out,
        "--group",
        group,
    ]);
    assert!(indexed.status.success(), "{}", text(&indexed));

    let current = fonte(&["search", &out, "monthly maintenance fee", "-k", "5"]);
    let shown = text(&current);
    assert!(current.status.success(), "{shown}");
    assert!(
        shown.contains("house-rules-2025.pdf") && !shown.contains("house-rules-2023.pdf"),
        "{shown}"
    );
    assert!(
        shown.contains("version of 2025-02, supersedes 2023-03"),
        "{shown}"
    );

    let all = fonte(&[
        "search",
        &out,
        "monthly maintenance fee",
        "-k",
        "5",
        "--all-versions",
    ]);
    let shown = text(&all);
    assert!(shown.contains("house-rules-2023.pdf"), "{shown}");
    assert!(
        shown.contains("older version (2023-03), superseded by 2025-02"),
        "{shown}"
    );

    // Ungrouped, the editions are proposed with the command that would group them.
    let proposed = fonte(&["index", "tests/fixtures/versions", "-o", &out]);
    assert!(
        text(&proposed).contains("these look like versions of one text"),
        "{}",
        text(&proposed)
    );

    let unknown = fonte(&[
        "index",
        "tests/fixtures/versions",
        "-o",
        &out,
        "--group",
        "x=house-rules-2023.pdf,nope.pdf",
    ]);
    assert!(!unknown.status.success());
    assert!(
        text(&unknown).contains("nope.pdf: not among the indexed documents"),
        "{}",
        text(&unknown)
    );
    let bad_date = fonte(&[
        "index",
        "tests/fixtures/versions",
        "-o",
        &out,
        "--date",
        "compostagem.pdf=May",
    ]);
    assert!(!bad_date.status.success());
    assert!(
        text(&bad_date).contains("is not a date"),
        "{}",
        text(&bad_date)
    );
    let _ = std::fs::remove_file(&out);
}
