//! The phrase-based baseline (the papers' Pharaoh / Moses reference system):
//! phrase extraction from the word alignment, optionally combined with a
//! sub-tree alignment (DirC / EWoS, Sun, Zhang & Tan 2010 §7), the phrase
//! table with its four scores, its Moses-style text form, and
//! [`PhraseSystem`], which trains, decodes ([`crate::mt::decoder`]) and tunes
//! ([`crate::mt::tune`]) the whole system.
//!
//! The steps, one module each: [`extract`](mod@extract) (phrase pairs from the word and
//! sub-tree alignments), [`table`] (scores, pruning, text form), [`decode`]
//! (the phrase-based model over the generic beam search of
//! [`crate::mt::decoder`]) and [`system`] (training, translating and tuning
//! the whole system).
//!
//! # Examples
//! ```
//! use treelink::mt::phrase::{consistent_pairs, SpanPair};
//! // "A B C D" / "w x y z": A-w, B-y, C-x; D and z unaligned; phrases of at most 2 words.
//! let pairs = consistent_pairs(4, 4, &[(0, 0), (1, 2), (2, 1)], 2);
//! assert_eq!(
//!     pairs,
//!     [
//!         SpanPair::new(0..1, 0..1), // A | w
//!         SpanPair::new(1..2, 2..3), // B | y
//!         SpanPair::new(1..2, 2..4), // B | y z
//!         SpanPair::new(1..3, 1..3), // B C | x y
//!         SpanPair::new(2..3, 1..2), // C | x
//!         SpanPair::new(2..4, 1..2), // C D | x
//!     ]
//! );
//! ```

pub mod decode;
pub mod extract;
pub mod moses;
pub mod system;
pub mod table;
pub mod unknown;

pub use decode::{
    decode_phrase, decode_phrase_words, default_phrase_weights, PhraseDecodeOptions, PhraseOption, PhraseSearch,
    PhraseState, PhraseStep, Translation, F_DIR_LEX, F_DIR_PHRASE, F_DISTORTION, F_INV_LEX, F_INV_PHRASE, F_LM,
    F_PHRASES, F_UNKNOWN, F_WORDS, NUM_PHRASE_FEATURES, PHRASE_FEATURE_NAMES,
};
pub use extract::{
    combine, consistent_pairs, extract, subtree_pairs, AlignedPair, ExtractMethod, ExtractOptions, SpanPair,
    UnknownMethod, DEFAULT_MAX_PHRASE_LEN,
};
pub use moses::{moses_entries, write_moses_phrase_table, MosesEntry};
pub use system::{gold_subtree_links, CountError, PhraseSystem, PhraseSystemConfig, PhraseSystemError};
pub use table::{
    read_phrase_table, write_phrase_table, PhraseEntry, PhraseTable, PhraseTableError, PhraseTableOptions,
    DEFAULT_TOP_K, DIR_LEX, DIR_PHRASE, INV_LEX, INV_PHRASE, LEX_FLOOR,
};
