//! Finding passages: chunking a page's text ([`chunk`]) with the model's tokens
//! ([`tokenize`]), the BM25 index ([`lexical`]), the vector index ([`vector`]), fusing the two
//! rankings ([`retrieve`]), and the corpus that holds a library's chunks and both indexes
//! ([`corpus`]).

pub mod chunk;
pub mod corpus;
pub mod lexical;
pub mod retrieve;
pub mod tokenize;
pub mod vector;
