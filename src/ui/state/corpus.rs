//! The pairs loaded, the root's part of the state: what a [`LoadAction`]
//! does to the page (its files' part is [`Slots`](super::Slots)'s), a new
//! corpus and what it resets, and reading the pairs the other way.

use std::rc::Rc;

use super::slots::{LoadAction, Routed, Slot, Upload};
use super::{Effect, HeldSets, LoadedAlignmentModel, ModelOrigin, MtSource, MtUpload, Shared, State, Teach};
use crate::app::files::WORDS;
use crate::corpus::{Corpus, PairIndex, TreePair};
use crate::io::links::swap_links_text;
use crate::io::text::counted;
use crate::tiger::{ImportOrigin, PairIds};
use crate::ui::classroom::ExerciseAction;
use crate::ui::ids::{CorpusGen, JobId};
use crate::ui::load::{CorpusOrigin, LoadAnswer, LoadRequest};
use crate::ui::protocol::{LexiconFiles, NamedText};

pub(super) const SAMPLE_NAME: &str = "Built-in sample (SQUOIA German–Spanish, dev)";

/// What the page keeps of a TigerXML import besides its pairs and ids:
/// where it came from (what its exports declare and name), every change the
/// import made (the loader's disclosure), and the two original treebanks
/// (the TigerXML export writes their sentences as they are).
#[derive(Debug, Clone, PartialEq)]
pub struct TigerKept {
    pub origin: ImportOrigin,
    pub report: Vec<String>,
    /// The alignment's word links, a line per pair (`PREFIX.words`), if any.
    pub words: Option<Shared<str>>,
    /// The source and the target treebank, as given.
    pub originals: [Upload; 2],
}

/// The pairs loaded: the trees with their gold links, what they are
/// called, where they came from, and the dev and test sets among them.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub corpus: Rc<Corpus>,
    pub name: String,
    /// Changes whenever the trees change (not when only gold links do).
    pub gen: CorpusGen,
    /// The source and target texts the trees of `gen` were read
    /// from: a corpus read again from the same texts (gold links given
    /// after the trees) has the same trees, known without comparing them.
    pub trees_read_from: Option<(CorpusGen, Shared<str>, Shared<str>)>,
    /// Tiger ids of the pairs, when they came from TigerXML.
    pub tiger_ids: Option<Rc<Vec<PairIds>>>,
    /// The rest of a TigerXML import: its origin, its changes and the
    /// original treebanks ([`TigerKept`]).
    pub tiger_import: Option<Shared<TigerKept>>,
    /// The loaded pairs are read target → source (swapped by the user).
    pub sides_swapped: bool,
    /// Dev and test pairs given as their own files: the last pairs shown.
    pub held: HeldSets,
}

impl Default for Loaded {
    fn default() -> Self {
        Loaded {
            corpus: Rc::default(),
            name: SAMPLE_NAME.into(),
            gen: CorpusGen::default(),
            trees_read_from: None,
            tiger_ids: None,
            tiger_import: None,
            sides_swapped: false,
            held: HeldSets::default(),
        }
    }
}

impl Loaded {
    /// Whether `corpus` has the trees shown (its gold links may differ).
    pub(super) fn same_trees(&self, corpus: &Corpus) -> bool {
        corpus.len() == self.corpus.len()
            && corpus.pairs.iter().zip(&self.corpus.pairs).all(|(a, b)| a.source == b.source && a.target == b.target)
    }

    /// The pairs read the other way ([`Corpus::swapped`]), a new generation.
    pub(super) fn swap(&mut self) {
        self.corpus = Rc::new(self.corpus.swapped());
        self.gen = self.gen.next();
        self.sides_swapped = !self.sides_swapped;
        self.tiger_ids = self.tiger_ids.as_ref().map(|ids| Rc::new(ids.iter().map(PairIds::swapped).collect()));
        self.tiger_import = self.tiger_import.as_ref().map(|t| {
            let mut t = (*t.0).clone();
            std::mem::swap(&mut t.origin.source, &mut t.origin.target);
            t.originals.swap(0, 1);
            t.words = t.words.as_deref().map(|w| swap_links_text(w).into());
            Shared(Rc::new(t))
        });
    }
}

impl State {
    /// The lexical files a job reads (cross-part: the inputs', and the pairs'
    /// own word links when none are given, [`State::import_word_links`]).
    pub fn lexicon_files(&self) -> LexiconFiles {
        let mut files = self.slots.lexicon_files();
        if files.word_links.is_none() {
            files.word_links = self.import_word_links().map(|(name, text)| NamedText { name, text: text.to_string() });
        }
        files
    }

    /// A TigerXML import's word links, named as `import tiger` writes them:
    /// the pairs' own, as `train` and `align` read a set's `PREFIX.words`
    /// (for every pair shown: not with dev or test sets given as files).
    pub fn import_word_links(&self) -> Option<(String, &Shared<str>)> {
        let import = self.loaded.tiger_import.as_ref().filter(|_| self.loaded.held.total() == 0)?;
        let alignment = import.origin.alignment.as_deref().unwrap_or("the alignment");
        Some((format!("{alignment}.{WORDS}"), import.words.as_ref()?))
    }

    /// The pair shown.
    pub fn current_pair(&self) -> Option<Rc<TreePair>> {
        self.loaded.corpus.pair(self.selection.pair).cloned().map(Rc::new)
    }

    /// What is loaded, for the page's first line: the language pair when
    /// known (the built-in sample's), else where the pairs came from, and
    /// how many.
    pub fn corpus_line(&self) -> String {
        let n = self.loaded.corpus.len();
        if self.loaded.corpus.is_empty() && (self.slots.sample_loading.is_some() || self.keeping.restoring.is_some()) {
            return "loading the built-in German → Spanish sample…".into();
        }
        let pairs = format!("{n} {}", counted(n, "pairs"));
        if self.loaded.name.starts_with(SAMPLE_NAME) {
            let (from, to) = if self.loaded.sides_swapped { ("Spanish", "German") } else { ("German", "Spanish") };
            return format!("{from} → {to}, {pairs}");
        }
        let swapped = if self.loaded.sides_swapped { ", sides swapped" } else { "" };
        // The files' names in the direction read: "x.src → x.trg".
        let name = match self.loaded.name.strip_prefix("Uploaded ").and_then(|n| n.split_once(" / ")) {
            Some((source, target)) => format!("{source} → {target}"),
            None => self.loaded.name.clone(),
        };
        format!("{name}, {pairs}{swapped}")
    }

    /// The corpus loaded, in a line; while the built-in sample is read, that
    /// (not the counts of the pairs it will replace).
    pub fn corpus_summary(&self) -> String {
        if self.slots.sample_loading.is_some() {
            return format!("{SAMPLE_NAME}: reading it…");
        }
        let c = &self.loaded.corpus;
        let nodes: usize = c.pairs.iter().map(|p| p.source.len() + p.target.len()).sum();
        let swapped = if self.loaded.sides_swapped { " (sides swapped)" } else { "" };
        let (pairs, links) = (c.len(), c.gold_links());
        let held = match self.loaded.held_line() {
            line if line.is_empty() => line,
            line => format!("; {line}"),
        };
        format!(
            "{}: {pairs} {}, {nodes} {}, {links} gold {}{swapped}{held}",
            self.loaded.name,
            counted(pairs, "pairs"),
            counted(nodes, "nodes"),
            counted(links, "links")
        )
    }

    /// A load action: the files' part is [`Slots`](super::Slots)'s; a request id, the
    /// translation model read by the job worker and the corpus the files
    /// make are the page's.
    pub(super) fn load(&mut self, action: LoadAction) -> Vec<Effect> {
        let mut effects = Vec::new();
        match action {
            LoadAction::FilesGiven { files, slot } => {
                if slot.is_none() {
                    self.slots.drop_given(files.iter().map(|(name, _)| name.clone()));
                }
                let routed = |name: &str| slot.or_else(|| Slot::of_file(name));
                // TigerXML files given together are read before any is checked.
                let tiger: Vec<String> = (files.iter())
                    .filter(|(name, _)| routed(name) == Some(Slot::Tiger))
                    .map(|(name, _)| name.clone())
                    .collect();
                if tiger.len() > 1 {
                    self.slots.start_tiger_batch(tiger);
                }
                // Two vocabularies given together are a pair, whichever is read first.
                if files.iter().filter(|(name, _)| routed(name) == Some(Slot::Vcb)).count() > 1 {
                    self.slots.slot_mut(Slot::Vcb).files.clear();
                }
                for (name, file) in files {
                    let routed = routed(&name);
                    if routed == Some(Slot::TranslationModel) {
                        effects.extend(self.load(LoadAction::MtFilePicked { name, file }));
                    } else {
                        let sniff_mt = routed == Some(Slot::Model);
                        effects.push(Effect::ReadFile { file, name, slot, sniff_mt });
                    }
                }
            }
            LoadAction::FileRead { name, text, slot } => match self.slots.file_read(name, text, slot) {
                Some(Routed::Check(slot)) => effects.push(self.check(slot)),
                Some(Routed::TranslationModel { name, text }) => {
                    effects.push(self.upload_mt(MtUpload { name, source: MtSource::Text(text) }))
                }
                None => {}
            },
            LoadAction::FileFailed { name, error, slot } => self.slots.file_failed(&name, error, slot),
            LoadAction::MtFilePicked { name, file } => {
                self.slots.mt_file_picked(&name);
                effects.push(self.upload_mt(MtUpload { name, source: MtSource::File(file) }));
            }
            LoadAction::Loaded { job, answer, corpus } => effects.extend(self.loaded(job, *answer, corpus)),
            LoadAction::LoadFailed(message) => {
                self.slots.load_failed(&message);
                effects.extend(self.finish_restore());
            }
            LoadAction::LoadSample => {
                let id = self.jobs.next_id();
                self.slots.sample_loading = Some(id);
                effects.push(Effect::Load(id, LoadRequest::sample()));
            }
            LoadAction::SwapSides => effects.extend(self.swap_sides_checked()),
            LoadAction::RemoveHeld(role) => effects.extend(self.remove_held(role)),
            LoadAction::SetTigerOptions(options) => {
                self.slots.tiger_options = options;
                if let Some(Routed::Check(slot)) = self.slots.recheck(Slot::Tiger) {
                    effects.push(self.check(slot));
                }
            }
        }
        effects
    }

    /// The file worker's answer: each checked slot's status, the model
    /// file's description, and the corpus the files make (its pairs
    /// received in parts, with their Tiger ids). Pairs from one kind of
    /// input put the others' trees out of use (so the session keeps the
    /// files of the pairs shown, and a reload shows them).
    fn loaded(
        &mut self,
        job: JobId,
        answer: LoadAnswer,
        corpus: Option<(Corpus, Option<Vec<PairIds>>)>,
    ) -> Vec<Effect> {
        let mut effects = Vec::new();
        self.slots.answered(&answer);
        // Pairs asked for before those shown (the file worker answers in
        // order; the sample is read on the page's thread) are not shown,
        // and their files are not in use.
        let replaces_pairs = !matches!(answer.corpus, Some((CorpusOrigin::Held { .. }, _)) | None);
        let (answer, corpus) = if replaces_pairs && job < self.slots.pairs_from {
            for (slot, _) in answer.statuses.iter().filter(|(slot, _)| Slot::PAIRS.contains(slot)) {
                self.slots.not_in_use(*slot);
            }
            (LoadAnswer { corpus: None, ..answer }, None)
        } else {
            if replaces_pairs {
                self.slots.pairs_from = job;
            }
            (answer, corpus)
        };
        if let (Some(summary), Some(u)) = (answer.model, self.slots.slot(Slot::Model).ok_file().cloned()) {
            self.alignment.model = Some(LoadedAlignmentModel {
                json: u.text.clone(),
                origin: ModelOrigin::Uploaded(u.name.clone()),
                summary,
                trained_on: None,
                kept: None,
            });
        }
        if let Some(class) = answer.class {
            self.classroom.class = Some(Rc::new(class));
        }
        if let (Some((origin, _)), Some((corpus, ids))) = (answer.corpus, corpus) {
            // Pairs read from the training files: the dev and test sets given as files still follow them.
            let corpus = match origin {
                CorpusOrigin::Exercise(_) | CorpusOrigin::Held { .. } => corpus,
                _ => self.loaded.with_held(corpus),
            };
            match origin {
                CorpusOrigin::Exercise(file) => {
                    if let Some((_, exercise)) = answer.exercise {
                        effects.extend(self.open_exercise(file, exercise, corpus));
                    }
                }
                // Pairs read from files: their names say the direction again.
                CorpusOrigin::Trees { source, target } => {
                    self.slots.pairs_from(&[Slot::Source, Slot::Target, Slot::Gold]);
                    let name = format!("Uploaded {source} / {target}");
                    let texts = self.slots.slot(Slot::Source).ok_file().zip(self.slots.slot(Slot::Target).ok_file());
                    let texts = texts.map(|(s, t)| (s.text.clone(), t.text.clone()));
                    let same_texts = matches!((&self.loaded.trees_read_from, &texts),
                        (Some((generation, s, t)), Some((s2, t2))) if *generation == self.loaded.gen && s == s2 && t == t2);
                    self.loaded.sides_swapped = false;
                    // (Swapping the sides makes a new generation.) Comparing
                    // 10⁷ nodes instead held the page's thread for 0.4 s.
                    if same_texts {
                        self.replace_gold(corpus, name);
                    } else {
                        self.replace_corpus(corpus, name);
                    }
                    self.loaded.trees_read_from = texts.map(|(s, t)| (self.loaded.gen, s, t));
                }
                CorpusOrigin::Tiger => {
                    self.slots.pairs_from(&[Slot::Tiger]);
                    self.loaded.sides_swapped = false;
                    self.replace_corpus(corpus, "Uploaded TigerXML pair".into());
                    self.loaded.tiger_ids = ids.map(Rc::new);
                    // The originals are the set in use: the files the import named.
                    let kept = &self.slots.slot(Slot::Tiger).kept;
                    let file = |path: &Option<String>| kept.iter().find(|u| Some(&u.name) == path.as_ref()).cloned();
                    self.loaded.tiger_import = answer.tiger.map(|t| *t).and_then(|t| {
                        let originals = [file(&t.origin.source.path)?, file(&t.origin.target.path)?];
                        let words = t.words.map(Shared::from);
                        Some(Shared(Rc::new(TigerKept { origin: t.origin, report: t.report, words, originals })))
                    });
                }
                CorpusOrigin::Sample => {
                    self.slots.sample_loading = None;
                    self.slots.pairs_from(&[]);
                    self.loaded.sides_swapped = false;
                    self.replace_corpus(corpus, SAMPLE_NAME.into());
                }
                // A Dublin file's pairs: the first tree of each pair the source, as `import dublin`.
                CorpusOrigin::Dublin(file) => {
                    self.slots.pairs_from(&[Slot::Dublin]);
                    self.loaded.sides_swapped = false;
                    self.replace_corpus(corpus, format!("Uploaded Dublin file {file}"));
                }
                CorpusOrigin::Held { role, name } if self.classroom.open.is_none() => {
                    effects.extend(self.replace_held(role, Some((corpus, name))));
                }
                CorpusOrigin::Held { role, .. } => {
                    let status = self.slots.slot_mut(role.slot());
                    status.kept.clear();
                    status.kept_summary = None;
                    status.message = Some(Err(format!(
                        "not in use while an exercise is open: leave the exercise, then give the {} pairs again",
                        role.name()
                    )));
                }
                CorpusOrigin::GoldFor(gold) => {
                    let base = self.loaded.name.split(" + gold links from ").next().unwrap_or_default().to_string();
                    self.replace_gold(corpus, format!("{base} + gold links from {gold}"));
                }
            }
        }
        if !self.slots.reading() {
            effects.extend(self.finish_restore());
        }
        effects
    }

    /// Other pairs: what belonged to the last ones goes (the hand links,
    /// the selection); an open exercise is closed (its hand links kept for
    /// it) and what was shown before it no longer comes back; the find box
    /// searches the new ones.
    pub(super) fn replace_corpus(&mut self, corpus: Corpus, name: String) {
        if self.loaded.same_trees(&corpus) {
            self.replace_gold(corpus, name);
            return;
        }
        if self.classroom.open.is_some() {
            self.classroom.apply(ExerciseAction::Close, &self.loaded.corpus, &self.teach.links);
            self.slots.not_in_use(Slot::Exercise);
            self.slots.not_in_use(Slot::Answers);
        }
        self.before_exercise = None;
        self.show_pairs(corpus, name);
    }

    /// `corpus` is shown from its first pair (or the pair the address
    /// asked for), with nothing of the last pairs'.
    pub(super) fn show_pairs(&mut self, corpus: Corpus, name: String) {
        self.loaded.corpus = Rc::new(corpus);
        self.loaded.name = name;
        self.loaded.gen = self.loaded.gen.next();
        self.classroom.checks = None;
        self.loaded.tiger_ids = None;
        self.loaded.tiger_import = None;
        self.loaded.sides_swapped = false;
        self.selection.pair = PairIndex::FIRST;
        self.teach = Teach::default();
        self.annotation = super::Annotation::default();
        self.clear_selection();
        self.find.search_again(&self.loaded.corpus);
        if let Some(p) = self.selection.wanted_pair.filter(|&p| p.index() < self.loaded.corpus.len()) {
            self.selection.pair = p;
            self.selection.wanted_pair = None;
        }
    }

    /// The same trees with other gold links: results are scored again.
    pub(super) fn replace_gold(&mut self, corpus: Corpus, name: String) {
        self.loaded.corpus = Rc::new(corpus);
        self.loaded.name = name;
        self.alignment.rescore(&self.loaded.corpus, self.loaded.gen);
    }

    /// [`LoadAction::SwapSides`]: [`State::swap_sides`], then the
    /// vocabularies checked again: the pairs' words tell them apart, so
    /// their input says again which is now the source's.
    pub(super) fn swap_sides_checked(&mut self) -> Vec<Effect> {
        self.swap_sides();
        match self.slots.recheck(Slot::Vcb) {
            Some(Routed::Check(slot)) => vec![self.check(slot)],
            _ => Vec::new(),
        }
    }

    /// The pairs ([`Corpus::swapped`]) and every
    /// file kept per side change sides ([`Slots::swap_sides`](super::Slots::swap_sides)), so later
    /// loads and requests agree with them; hand links are reversed; results
    /// of the other direction no longer apply.
    pub(super) fn swap_sides(&mut self) {
        self.loaded.swap();
        self.slots.swap_sides();
        let history = &mut self.teach.history;
        let edits = history.undo.iter_mut().chain(history.redo.iter_mut());
        let lists = self.teach.links.values_mut().chain(edits.flat_map(|e| [&mut e.before, &mut e.after]));
        for links in lists {
            for l in links.iter_mut() {
                *l = (l.1, l.0);
            }
        }
        self.clear_selection();
        self.teach.message = None;
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;

    #[test]
    fn swapping_sides_swaps_every_per_side_file_and_twice_is_the_identity() {
        let mut s = State::with_sample();
        read_pairs(&mut s, &["(S (A a) (B b))\n", "(T (C c))\n", "0-0 2-1?\n"]);
        read(&mut s, "lex.e2f", "c a 0.5\n", None);
        read(&mut s, "aligned.gdfa", "1-0\n", None);
        hand_link(&mut s, 0);
        let before = s.clone();
        s.apply(Action::Load(LoadAction::SwapSides));
        assert_eq!(s.loaded.corpus.pairs[0].source.to_bracketed(), "(T (C c))");
        assert_eq!(s.loaded.corpus.pairs[0].gold[1].source, NodeId::new(1));
        assert_eq!(s.slots.ok_name(Slot::Source), Some("x.trg"));
        assert_eq!(s.slots.lexicon_files().t2s.map(|f| f.name), Some("lex.e2f".to_string()));
        assert_eq!(s.slots.lexicon_files().word_links.map(|f| f.text), Some("0-1\n".to_string()));
        assert_eq!(s.slots.slot(Slot::Gold).kept[0].text.to_string(), "0-0 1-2?\n");
        assert_eq!(s.student_links(), [(NodeId::new(0), NodeId::new(0))]);
        assert_ne!(s.loaded.gen, before.loaded.gen, "results of the other direction no longer apply");
        assert!(s.corpus_summary().ends_with("(sides swapped)"), "{}", s.corpus_summary());
        s.apply(Action::Load(LoadAction::SwapSides));
        let shown = |s: &State| (s.loaded.corpus.clone(), s.loaded.name.clone(), s.teach.links.clone());
        assert_eq!(shown(&s), shown(&before));
        // (Texts compare by pointer in the state: compare what they hold.)
        assert_eq!(format!("{:?}", s.slots.statuses), format!("{:?}", before.slots.statuses));
        assert_eq!((&s.loaded.tiger_ids, s.loaded.sides_swapped), (&before.loaded.tiger_ids, false));
        // Files given after a swap are checked with the swapped ones: gold links for the swapped trees.
        s.apply(Action::Load(LoadAction::SwapSides));
        read(&mut s, "y.gold", "0-1\n", None);
        assert_read(&s, Slot::Gold, "");
        assert_eq!(s.loaded.corpus.pairs[0].source.to_bracketed(), "(T (C c))");
        let summary = "Uploaded x.trg / x.src: 1 pair, 5 nodes, 1 gold link";
        assert_eq!(s.corpus_summary(), summary, "the files' names say the direction now");
    }

    /// Gold links given after their trees: the trees stay (known from the
    /// texts they were read from, without comparing them), and so do the
    /// hand links; trees read again from other texts are compared, and
    /// only other trees make a new generation.
    #[test]
    fn gold_links_after_their_trees_keep_the_trees_and_the_hand_links() {
        let mut s = State::with_sample();
        read_pairs(&mut s, &["(S (A a) (B b))\n", "(T (C c))\n"]);
        let generation = s.loaded.gen;
        let from = s.loaded.trees_read_from.clone().map(|(g, src, trg)| (g, src.to_string(), trg.to_string()));
        assert_eq!(from, Some((generation, "(S (A a) (B b))\n".into(), "(T (C c))\n".into())));
        hand_link(&mut s, 0);
        read(&mut s, "x.gold", "0-0 2-1?\n", None);
        assert_eq!((s.loaded.gen, s.loaded.corpus.gold_links()), (generation, 2));
        assert_eq!(s.student_links(), [(NodeId::new(0), NodeId::new(0))]);
        assert_eq!(s.corpus_summary(), "Uploaded x.src / x.trg: 1 pair, 5 nodes, 2 gold links");
        // The same trees from another file: compared, the same.
        read(&mut s, "y.src", "(S (A a) (B b))\n", None);
        assert_eq!((s.loaded.gen, s.student_links().len()), (generation, 1));
        // Other trees: a new generation, without the last pairs' links.
        read(&mut s, "z.src", "(S (A a) (D d))\n", None);
        assert_ne!(s.loaded.gen, generation);
        assert!(s.student_links().is_empty());
    }

    /// The built-in sample again after uploaded trees: the trees' inputs are
    /// no longer in use, so the session keeps none of them and a reload
    /// shows the sample, as the page does.
    #[test]
    fn pairs_from_one_input_put_the_others_trees_out_of_use() {
        let mut s = State::with_sample();
        read_pairs(&mut s, &["(S (A a))\n", "(T (B b))\n", "0-0\n"]);
        assert_eq!(s.session().texts.files.len(), 3);
        run(&mut s, Action::Load(LoadAction::LoadSample));
        assert_eq!(s.loaded.name, SAMPLE_NAME);
        assert!(s.session().texts.files.is_empty(), "{:?}", s.session().texts.files);
        assert_eq!((s.slots.slot(Slot::Source).message.clone(), s.slots.slot(Slot::Gold).kept.len()), (None, 0));
        let r = restored(s.session());
        assert_eq!((r.loaded.corpus.as_ref(), r.loaded.name.as_str()), (s.loaded.corpus.as_ref(), SAMPLE_NAME));
    }

    #[test]
    fn the_first_line_names_the_language_pair_and_the_count() {
        let mut s = State::new();
        run(&mut s, Action::Load(LoadAction::LoadSample));
        assert_eq!(s.corpus_line(), "German → Spanish, 157 pairs");
        s.apply(Action::Load(LoadAction::SwapSides));
        assert_eq!(s.corpus_line(), "Spanish → German, 157 pairs");
        read_pairs(&mut s, &["(S (A a))\n", "(T (B b))\n"]);
        assert_eq!(s.corpus_line(), "x.src → x.trg, 1 pair");
        let mut loading = State::new();
        loading.apply(Action::Load(LoadAction::LoadSample));
        assert_eq!(loading.corpus_line(), "loading the built-in German → Spanish sample…");
    }

    #[test]
    fn gold_links_alone_go_with_the_sample_trees() {
        let mut s = State::with_sample();
        let n = s.loaded.corpus.len();
        let gold = "0-0\n".repeat(n);
        let effects = read(&mut s, "only.gold", &gold, None);
        let [Effect::Load(_, request)] = effects.as_slice() else { panic!("{effects:?}") };
        assert!(request.current.is_some(), "the trees loaded now are sent along");
        assert_eq!((s.loaded.corpus.len(), s.loaded.corpus.gold_links(), s.loaded.gen), (n, n, CorpusGen(0)));
        assert!(s.loaded.name.ends_with(" + gold links from only.gold"), "{}", s.loaded.name);
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // reads ../shared/data from disk
    fn a_tiger_pair_dropped_with_its_alignment_first_replaces_the_corpus() {
        let mut s = State::with_sample();
        for name in ["nl-en_125.xml", "ep-00-12-15.125.nl.tiger", "ep-00-12-15.125.en.tiger"] {
            read(&mut s, name, &shared_data(&format!("lingua-align-nl-en-125/raw/{name}")), Some(Slot::Tiger));
        }
        assert_read(&s, Slot::Tiger, "");
        assert_eq!((s.loaded.corpus.len(), s.loaded.name.as_str()), (125, "Uploaded TigerXML pair"));
        assert_eq!(s.loaded.tiger_ids.as_ref().map(|ids| ids.len()), Some(125));
        // A set that does not import leaves the imported pair in use.
        let (corpus, ids) = (s.loaded.corpus.clone(), s.loaded.tiger_ids.clone());
        for name in ["a.xml", "b.xml", "c.xml"] {
            read(&mut s, name, "<corpus>", Some(Slot::Tiger));
        }
        assert!(Rc::ptr_eq(&corpus, &s.loaded.corpus) && ids == s.loaded.tiger_ids);
        assert_refused(&s, Slot::Tiger, "");
        let still = s.slots.slot(Slot::Tiger).still_in_use();
        assert!(still.as_deref().is_some_and(|m| m.starts_with("still in use: ")), "{still:?}");
    }
}
