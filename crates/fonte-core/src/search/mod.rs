//! Finding passages: chunking a page's text ([`chunk`]), the language of a passage or a
//! question ([`lang`]), the BM25 index ([`lexical`]), the vector index ([`vector`]), fusing the
//! two rankings ([`retrieve`]), and the corpus that holds a library's chunks and both indexes
//! ([`corpus`]).

pub mod chunk;
pub mod corpus;
pub mod lang;
pub mod lexical;
pub mod retrieve;
pub mod vector;
