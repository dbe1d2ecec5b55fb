//! `fonte ask` against a scripted HTTP server speaking the OpenAI-compatible streaming
//! protocol on loopback: the answer streams, citations are checked, weak evidence abstains
//! without a request, and each endpoint failure exits non-zero with its kind. The corpus is
//! the Debian FAQ indexed with the real MiniLM model (installed by scripts/setup.sh).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fonte(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fonte"))
        .args(args)
        .current_dir(root())
        .env_remove("FONTE_API_KEY")
        .output()
        .expect("runs")
}

/// The Debian FAQ indexed once per test binary.
fn corpus() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let shared = std::env::var_os("FONTE_SHARED")
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join("../shared"));
        let pdf = shared.join("fixtures/pdfs/en/debian-faq.en.pdf");
        // Cargo's scratch folder for integration tests, inside the target dir: rewritten by each
        // run instead of left behind in the system's temp dir.
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ask-test.corpus");
        let o = fonte(&["index", pdf.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out.to_string_lossy().into_owned()
    })
}

/// A server answering each connection with the next scripted response (status line,
/// headers, body pieces); it records the request bodies.
struct Server {
    url: String,
    bodies: Arc<Mutex<Vec<String>>>,
}

fn serve(replies: Vec<(&'static str, Vec<String>)>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let seen = bodies.clone();
    thread::spawn(move || {
        for (head, pieces) in replies {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
                if line == "\r\n" || line.is_empty() {
                    break;
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            seen.lock().unwrap().push(String::from_utf8(body).unwrap());
            let mut stream = stream;
            let _ = stream.write_all(format!("{head}\r\nconnection: close\r\n\r\n").as_bytes());
            for p in pieces {
                let _ = stream.write_all(p.as_bytes());
                let _ = stream.flush();
                thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    });
    Server { url, bodies }
}

fn sse(texts: &[&str], done: bool) -> Vec<String> {
    let mut out: Vec<String> = texts
        .iter()
        .map(|t| {
            let v = serde_json::json!({ "choices": [{ "delta": { "content": t } }] });
            format!("data: {v}\n\n")
        })
        .collect();
    if done {
        out.push("data: [DONE]\n\n".into());
    }
    out
}

const OK: &str = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream";
const QUESTION: &str = "What is Debian?";

#[test]
fn an_answer_streams_and_its_citations_are_checked() {
    let server = serve(vec![(
        OK,
        sse(
            &[
                "Debian is a free ",
                "operating system [1]. ",
                "It flies [99].",
            ],
            true,
        ),
    )]);
    let o = fonte(&[
        "ask",
        corpus(),
        QUESTION,
        "--endpoint",
        &server.url,
        "--llm-model",
        "tiny",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.starts_with("Debian is a free operating system [1]. It flies [99]."),
        "{out}"
    );
    assert!(
        out.contains("  [1] valid: The Debian GNU/Linux FAQ, page "),
        "{out}"
    );
    assert!(out.contains("  [99] unsupported: no such source"), "{out}");
    assert!(
        out.contains("(1 with low support)") || out.contains("(2 with low support)"),
        "{out}"
    );
    let bodies = server.bodies.lock().unwrap();
    let body: serde_json::Value = serde_json::from_str(&bodies[0]).unwrap();
    assert_eq!(body["model"], "tiny");
    assert_eq!(body["stream"], true);
    let user = body["messages"][1]["content"].as_str().unwrap();
    assert!(user.contains("<source id=\"1\" doc=\"The Debian GNU/Linux FAQ\" page=\""));
    assert!(user.ends_with("Question: What is Debian?"));
}

#[test]
fn a_question_the_library_does_not_cover_abstains_without_a_request() {
    let server = serve(vec![(OK, sse(&["never sent"], true))]);
    let o = fonte(&[
        "ask",
        corpus(),
        "Which grapes are used to make port wine?",
        "--endpoint",
        &server.url,
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(out.starts_with("abstained: "), "{out}");
    assert!(
        out.contains("[1] The Debian GNU/Linux FAQ, page "),
        "nearest passages shown"
    );
    assert!(server.bodies.lock().unwrap().is_empty(), "no request");
}

#[test]
fn questions_about_the_library_are_answered_from_its_records_without_a_request() {
    let server = serve(vec![(OK, sse(&["never sent"], true))]);
    let ask = |q: &str| {
        let o = fonte(&["ask", corpus(), q, "--endpoint", &server.url]);
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{out}");
        assert!(out.starts_with("about the library"), "{out}");
        out
    };
    assert!(ask("How many documents are there?").contains("\ndocuments: 1\n"));
    let listed = ask("Quais documentos mencionam dpkg?");
    let row = listed
        .lines()
        .find(|l| l.contains("debian-faq.en.pdf"))
        .unwrap_or_else(|| panic!("{listed}"));
    let mentions: usize = row
        .rsplit(": ")
        .next()
        .and_then(|m| m.strip_suffix(" mentions"))
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("{row}"));
    assert!(mentions > 1, "{row}");
    assert!(ask("Which documents mention xylophone?").contains("documents: 0"));
    assert!(server.bodies.lock().unwrap().is_empty(), "no request");
}

#[test]
fn each_endpoint_failure_exits_with_its_kind() {
    let cases: Vec<(&str, Vec<String>, &str)> = vec![
        (
            "HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json",
            vec![r#"{"error":{"message":"Invalid API key"}}"#.into()],
            "error (unauthorized): the endpoint refused the key (HTTP 401): Invalid API key",
        ),
        (
            "HTTP/1.1 429 Too Many Requests\r\nretry-after: 12",
            vec!["slow down".into()],
            "error (rate-limited): rate limited (HTTP 429), retry after Some(12) s",
        ),
        (
            OK,
            sse(&["Debian is "], false),
            "error (cut): the answer was cut off mid-way",
        ),
        (
            "HTTP/1.1 404 Not Found\r\ncontent-type: application/json",
            vec![r#"{"error":{"message":"model 'x' not found"}}"#.into()],
            "error (not-found)",
        ),
    ];
    for (head, body, want) in cases {
        let server = serve(vec![(head, body)]);
        let o = fonte(&["ask", corpus(), QUESTION, "--endpoint", &server.url]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{head}");
        assert!(err.contains(want), "{head}: {err}");
    }
    let o = fonte(&[
        "ask",
        corpus(),
        QUESTION,
        "--endpoint",
        "http://127.0.0.1:9/v1",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("error (unreachable)"));
}

#[test]
fn a_question_in_the_other_language_is_searched_with_its_translation_too() {
    let question = "O que é o Debian?";
    let server = serve(vec![
        (OK, sse(&["Translation: ", "\"What is Debian?\""], true)),
        (
            OK,
            sse(&["O Debian é um sistema operacional livre [1]."], true),
        ),
    ]);
    let o = fonte(&["ask", corpus(), question, "--endpoint", &server.url]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.starts_with("searched also in English: What is Debian?\n"),
        "{out}"
    );
    assert!(
        out.contains("  [1] valid: The Debian GNU/Linux FAQ, page "),
        "{out}"
    );
    let bodies = server.bodies.lock().unwrap();
    assert_eq!(bodies.len(), 2, "the translation, then the question");
    let asked: serde_json::Value = serde_json::from_str(&bodies[0]).unwrap();
    assert_eq!(asked["temperature"], 0.0);
    assert!(asked["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("into English"));
    assert_eq!(
        asked["messages"].as_array().unwrap().last().unwrap()["content"],
        question
    );
    let answer: serde_json::Value = serde_json::from_str(&bodies[1]).unwrap();
    let user = answer["messages"][1]["content"].as_str().unwrap();
    assert!(user.ends_with(&format!("Pergunta: {question}")), "{user}");

    // A translation that fails is skipped: the question is still searched (and asked, unless
    // its evidence alone is too weak), as typed.
    let server = serve(vec![
        ("HTTP/1.1 500 Internal Server Error", vec!["boom".into()]),
        (OK, sse(&["O Debian é livre [1]."], true)),
    ]);
    let o = fonte(&["ask", corpus(), question, "--endpoint", &server.url]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(!out.contains("searched also"), "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("translation into English skipped: error (server)"),
        "{err}"
    );

    // Turned off: no translation is asked for.
    let server = serve(vec![(OK, sse(&["O Debian é livre [1]."], true))]);
    let o = fonte(&[
        "ask",
        corpus(),
        question,
        "--endpoint",
        &server.url,
        "--translate",
        "off",
    ]);
    assert!(o.status.success());
    let bodies = server.bodies.lock().unwrap();
    assert!(
        bodies.iter().all(|b| !b.contains("Translate the user")),
        "{bodies:?}"
    );
}

#[test]
fn without_an_endpoint_the_best_passages_answer() {
    let o = fonte(&["ask", corpus(), "How do I upgrade Debian to a new release?"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(out.starts_with("no endpoint: "), "{out}");
    assert!(out.contains("» "), "best sentences marked: {out}");
}

/// llama.cpp's server with SmolLM2-135M-Instruct (scripts/llm_setup.sh), on a free loopback
/// port, until dropped.
struct Llama {
    child: std::process::Child,
    url: String,
}

impl Drop for Llama {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn llama() -> Llama {
    let server =
        std::env::var("FONTE_LLAMA_SERVER").expect("FONTE_LLAMA_SERVER (source scripts/env.sh)");
    let gguf = std::env::var("FONTE_LLM_GGUF").expect("FONTE_LLM_GGUF (source scripts/env.sh)");
    assert!(
        std::path::Path::new(&server).exists(),
        "{server} missing: run scripts/setup.sh"
    );
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(server)
        .args([
            "-m",
            &gguf,
            "--host",
            "127.0.0.1",
            "--port",
            &port.to_string(),
        ])
        .args(["-c", "4096", "-t", "2", "-np", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("llama-server starts");
    let llama = Llama {
        child,
        url: format!("http://127.0.0.1:{port}/v1"),
    };
    // Ready once /health answers 200 (the model is loaded).
    for _ in 0..600 {
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            let _ = s.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            let mut reply = String::new();
            let _ = s.read_to_string(&mut reply);
            if reply.starts_with("HTTP/1.1 200") {
                return llama;
            }
        }
        thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("llama-server did not become ready");
}

#[test]
fn a_real_llama_server_answers_from_the_evidence_with_checked_citations() {
    let server = llama();
    let o = fonte(&[
        "ask",
        corpus(),
        "What is Debian?",
        "--endpoint",
        &server.url,
        "--llm-model",
        "smollm2",
        "--temperature",
        "0",
        "--max-tokens",
        "120",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The tiny model's words are not judged, only the mechanics: a streamed answer, then
    // each citation checked against the sources given, then the sources.
    let (answer, report) = out
        .split_once("\ncitations:\n")
        .expect("a citations section");
    assert!(answer.trim().len() > 10, "{out}");
    assert!(
        report.contains("sources:\n  [1] The Debian GNU/Linux FAQ, page "),
        "{out}"
    );
    for line in report.lines().take_while(|l| l.starts_with("  [")) {
        assert!(
            line.contains("] valid: ")
                || line.contains("] unsupported: ")
                || line.contains("] matched by Fonte (uncited by the model): "),
            "{line}"
        );
    }
}
