//! The endpoints people use, so the settings start from a working base URL: each names its
//! API family, its usual base URL and whether it needs a key. Product names are data, not
//! wording: the page translates everything around them.

use super::Api;

/// Whether a preset's server needs an API key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A hosted API: no answer without one.
    Required,
    /// A local server: none unless it was started with one.
    Optional,
    /// No server at all: the model runs in the page.
    None,
}

/// A known endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// Stable id (settings and tests).
    pub id: &'static str,
    /// The product's name.
    pub name: &'static str,
    /// Its API family.
    pub api: Api,
    /// Its usual base URL (empty for "other": the user types it).
    pub base_url: &'static str,
    /// Whether it needs a key.
    pub key: Key,
}

/// The base URL of the model that runs in the page ([`IN_PAGE`]): a scheme `fetch` refuses
/// outright, so a request meant for it can never reach the network, even if it were sent to
/// the wrong transport. The page's transport answers it in place of a server, with the same
/// OpenAI-compatible stream.
pub const IN_PAGE_BASE_URL: &str = "fonte-browser:/v1";

/// The id of the preset whose model runs in the page (a GGUF file the user picks, run by
/// wllama): nothing is sent anywhere.
pub const IN_PAGE: &str = "browser";

/// The presets, in the order the settings list them.
pub const PRESETS: [Preset; 9] = [
    Preset {
        id: IN_PAGE,
        // Worded by the page (it is not a product name).
        name: "",
        api: Api::OpenAi,
        base_url: IN_PAGE_BASE_URL,
        key: Key::None,
    },
    Preset {
        id: "llamacpp",
        name: "llama.cpp (llama-server)",
        api: Api::OpenAi,
        base_url: "http://127.0.0.1:8080/v1",
        key: Key::Optional,
    },
    Preset {
        id: "ollama",
        name: "Ollama",
        api: Api::OpenAi,
        base_url: "http://127.0.0.1:11434/v1",
        key: Key::Optional,
    },
    Preset {
        id: "lmstudio",
        name: "LM Studio",
        api: Api::OpenAi,
        base_url: "http://127.0.0.1:1234/v1",
        key: Key::Optional,
    },
    Preset {
        id: "vllm",
        name: "vLLM",
        api: Api::OpenAi,
        base_url: "http://127.0.0.1:8000/v1",
        key: Key::Optional,
    },
    Preset {
        id: "openai",
        name: "OpenAI",
        api: Api::OpenAi,
        base_url: "https://api.openai.com/v1",
        key: Key::Required,
    },
    Preset {
        id: "groq",
        name: "Groq",
        api: Api::OpenAi,
        base_url: "https://api.groq.com/openai/v1",
        key: Key::Required,
    },
    Preset {
        id: "anthropic",
        name: "Anthropic",
        api: Api::Anthropic,
        base_url: "https://api.anthropic.com",
        key: Key::Required,
    },
    Preset {
        id: "other",
        name: "OpenAI-compatible",
        api: Api::OpenAi,
        base_url: "",
        key: Key::Optional,
    },
];

/// The preset with `id`, else "other".
pub fn preset(id: &str) -> Preset {
    PRESETS
        .iter()
        .copied()
        .find(|p| p.id == id)
        .unwrap_or(PRESETS[PRESETS.len() - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_unknown_ones_fall_back_to_other() {
        let mut ids: Vec<_> = PRESETS.iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), PRESETS.len());
        assert_eq!(preset("nope").id, "other");
        assert_eq!(preset("anthropic").api, Api::Anthropic);
        assert_eq!(preset(IN_PAGE).key, Key::None);
    }

    #[test]
    fn every_openai_preset_base_ends_where_its_paths_start() {
        // `/chat/completions` and `/models` are appended to these.
        for p in PRESETS
            .iter()
            .filter(|p| p.api == Api::OpenAi && !p.base_url.is_empty())
        {
            assert!(p.base_url.ends_with("/v1"), "{}", p.id);
        }
    }
}
