//! Answering from the evidence only: the abstention threshold ([`abstain`]), the question's
//! translation ([`translate`]), the evidence-only prompt ([`prompt`]), the LLM wire formats and
//! streaming ([`llm`]), citation checks ([`cite`]), sources that disagree ([`conflict`]), and the one asking pipeline that chains
//! them ([`ask`]); questions about the library itself, answered from its records
//! ([`library`]).

pub mod abstain;
pub mod ask;
pub mod cite;
pub mod conflict;
pub mod library;
pub mod llm;
pub mod prompt;
pub mod translate;
