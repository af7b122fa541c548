//! The page's file inputs ([`Slot`]s): the files last given to each, what
//! the file worker said of them, and the files in use, the last ones that
//! read: a file that does not read never replaces them. A file given is
//! routed to its slot by name (a `.json` file by its header), kept as
//! text and checked by the file worker ([`LoadRequest`], `ui::load`),
//! together with the files it is read with; the answer sets each slot's
//! status ([`Slots::answered`]), and the corpus it brings is the root's.

use super::{FileHandle, Shared};
use crate::app::files::{FileKind, SNIFF_BYTES};
use crate::corpus::{Corpus, TreePair};
use crate::io::links::swap_links_text;
use crate::tiger::{ImportOptions, PairIds};
use crate::ui::ids::JobId;
pub use crate::ui::load::Slot;
use crate::ui::load::{self, CorpusOrigin, FileText, HeldRole, LoadAnswer, LoadRequest};
use crate::ui::protocol::{CorpusText, LexiconFiles, NamedText};

/// Whether a `.json` file is a translation model, by its `format` header
/// (both model files write it first): a typed sniff, not a substring search.
pub fn is_mt_model(head: &str) -> bool {
    FileKind::sniff(FileKind::AlignmentModel, head) == FileKind::TranslationModel
}

/// A file the user gave, kept so a later file can complete it.
#[derive(Debug, Clone, PartialEq)]
pub struct Upload {
    pub name: String,
    pub text: Shared<str>,
}

impl Upload {
    pub(super) fn named(&self) -> NamedText {
        NamedText { name: self.name.clone(), text: self.text.to_string() }
    }
}

/// What a slot shows: the files last given and either a summary or an
/// error, and the files in use (the last ones that read): a file that does
/// not read never replaces them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SlotStatus {
    /// The files last given (being checked, or checked).
    pub files: Vec<Upload>,
    pub message: Option<Result<String, String>>,
    /// The file worker is checking its files.
    pub checking: bool,
    /// The files in use: the last ones that read without error.
    pub kept: Vec<Upload>,
    /// What the files in use were found to hold.
    pub kept_summary: Option<String>,
    /// A file that read but deserves a warning (a lexical table covering few words).
    pub warning: Option<String>,
    /// Counts the files given, so that an answer about files given before
    /// the last ones (several checks in flight) is not taken for theirs.
    pub given: u32,
    /// Trees that read but made no pairs (their other side is missing or
    /// was refused): kept for their pair, not in use.
    pub waiting: bool,
}

impl SlotStatus {
    /// The file in use (the last that read without error).
    pub(super) fn ok_file(&self) -> Option<&Upload> {
        self.kept.last()
    }

    /// After an error: what is still in use, shown next to the error.
    pub fn still_in_use(&self) -> Option<String> {
        match (&self.message, &self.kept_summary) {
            (Some(Err(_)), Some(summary)) if self.waiting => Some(format!("kept for its pair, not in use: {summary}")),
            (Some(Err(_)), Some(summary)) => Some(format!("still in use: {summary}")),
            _ => None,
        }
    }

    /// The checked files read: they are the ones in use now.
    pub(super) fn keep(&mut self, summary: &str) {
        self.kept = self.files.clone();
        self.kept_summary = Some(summary.to_string());
    }
}

/// A file dropped on the Data panel: the input it went to once read, or
/// why it went to none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    pub name: String,
    pub slot: Option<Slot>,
    pub refused: Option<String>,
}

/// The page's file inputs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Slots {
    /// Status of each [`Slot`], indexed as in [`Slot::ALL`].
    pub statuses: [SlotStatus; 16],
    /// A message about a file that fits no slot.
    pub stray: Option<String>,
    /// The files of the last drop on the Data panel and what became of
    /// each: the panel says so where they were dropped.
    pub dropped: Vec<Dropped>,
    /// The built-in sample is being read by the file worker (this request).
    pub sample_loading: Option<JobId>,
    /// The request whose pairs are shown: an answer to an older one (a
    /// set checked again before the sample, read on the page's thread,
    /// was asked for) does not replace them.
    pub(super) pairs_from: JobId,
    /// How TigerXML sets are imported: every link (the default), or as the
    /// shared data's bracketed files ([`ImportOptions::BRACKETED_DATA`]).
    pub tiger_options: ImportOptions,
    /// TigerXML files given together, gathered until all are read, so
    /// the set they make does not depend on the order they are read in.
    pub(super) tiger_batch: Option<TigerBatch>,
}

/// TigerXML files given together ([`LoadAction::FilesGiven`]) being read.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct TigerBatch {
    /// The files not yet read.
    expected: Vec<String>,
    read: Vec<Upload>,
    /// Files that could not be read, with why.
    failed: Vec<(String, String)>,
}

/// What the Data panel, the page's effects and the file worker's answers
/// do to the files: give them, read them, check them.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadAction {
    /// Files picked for `slot` (or dropped: routed by name), held unread by
    /// the page: each is read as text (`Effect::ReadFile`), or a
    /// translation model goes to the job worker unread.
    FilesGiven {
        files: Vec<(String, FileHandle)>,
        slot: Option<Slot>,
    },
    /// A file's text; `slot` when it was picked for one, else routed by name.
    FileRead {
        name: String,
        text: Shared<str>,
        slot: Option<Slot>,
    },
    /// A file that could not be read as text: the error (naming the file) goes
    /// next to the input it was meant for (picked for `slot`, or by its name).
    FileFailed {
        name: String,
        error: String,
        slot: Option<Slot>,
    },
    /// A translation model file, handed to the worker unread.
    MtFilePicked {
        name: String,
        file: FileHandle,
    },
    /// The file worker's answer to request `job`, with the corpus it built (received in parts).
    Loaded {
        job: JobId,
        answer: Box<LoadAnswer>,
        corpus: Option<(Corpus, Option<Vec<PairIds>>)>,
    },
    /// The file worker failed (or its answer did not decode): what it was checking stays unread.
    LoadFailed(String),
    LoadSample,
    /// Read the loaded pairs the other way (target as source), with every
    /// per-side file: trees, links, lexical tables, word links.
    SwapSides,
    /// How TigerXML sets are imported (the set in use is imported again).
    SetTigerOptions(ImportOptions),
    /// *Remove* next to the dev or test pairs given as files: their pairs go.
    RemoveHeld(HeldRole),
}

/// Where a file read goes once kept in its slot.
pub(super) enum Routed {
    /// To the file worker, to check this slot (with the files read with it).
    Check(Slot),
    /// A translation model's text, to the job worker, which reads and keeps it.
    TranslationModel { name: String, text: Shared<str> },
}

impl Slots {
    /// What the job worker said of the translation model file given: in
    /// use (kept), or why not.
    pub(super) fn model_read(&mut self, said: Result<String, String>) {
        let status = self.slot_mut(Slot::TranslationModel);
        if let Ok(message) = &said {
            status.keep(message);
        }
        status.message = Some(said);
    }

    pub fn slot(&self, slot: Slot) -> &SlotStatus {
        &self.statuses[slot as usize]
    }

    pub(super) fn slot_mut(&mut self, slot: Slot) -> &mut SlotStatus {
        &mut self.statuses[slot as usize]
    }

    /// The name of the slot's file, if it read without error.
    pub fn ok_name(&self, slot: Slot) -> Option<&str> {
        self.slot(slot).ok_file().map(|u| u.name.as_str())
    }

    /// The uploaded lexical files that read without error (copies: for a request).
    pub fn lexicon_files(&self) -> LexiconFiles {
        let ok = |s: Slot| self.slot(s).ok_file().map(Upload::named);
        let vcb = match self.slot(Slot::Vcb).kept.as_slice() {
            [a, b] => Some([a.named(), b.named()]),
            _ => None,
        };
        LexiconFiles { s2t: ok(Slot::LexS2t), t2s: ok(Slot::LexT2s), word_links: ok(Slot::WordLinks), vcb }
    }

    /// The uploaded ARPA language model, if it read without error (a copy: for a request).
    pub fn lm_file(&self) -> Option<NamedText> {
        self.slot(Slot::Lm).ok_file().map(Upload::named)
    }

    /// Files (or the sample) are being read: a restored session waits for them.
    pub fn reading(&self) -> bool {
        self.sample_loading.is_some() || Slot::ALL.iter().any(|&s| self.slot(s).checking)
    }

    /// Keeps a file's text in its slot, and says where it goes next: to
    /// the file worker, or (a translation model) to the job worker; `None`
    /// when it fits no slot (said in `stray`) or is empty.
    pub(super) fn file_read(&mut self, name: String, text: Shared<str>, slot: Option<Slot>) -> Option<Routed> {
        let dropped = slot.is_none();
        // Both model files are .json: the header says which one this is.
        let slot = match slot.or_else(|| Slot::of_file(&name)) {
            Some(Slot::Model) => {
                let head = text.get(..SNIFF_BYTES).unwrap_or(&text);
                Some(Slot::of_kind(FileKind::sniff(FileKind::AlignmentModel, head)))
            }
            other => other,
        };
        let Some(slot) = slot else {
            let why = format!(
                "{name}: expected a .src, .trg, .gold, TigerXML/STA .xml, .dublin, Moses lex.e2f/lex.f2e, GIZA++ .vcb, aligned.* word \
                 alignment, ARPA language model, or model or exercise .json file; nothing was loaded from it"
            );
            self.dropped_refused(&name, &why);
            self.stray = Some(why);
            return None;
        };
        self.stray = None;
        if dropped {
            self.dropped_into(&name, slot);
        }
        let text_is_empty = text.is_empty();
        let upload = Upload { name: name.clone(), text };
        if slot == Slot::Tiger && self.tiger_batch.as_ref().is_some_and(|b| b.expected.contains(&name)) {
            return self.batch_read(upload);
        }
        let status = self.slot_mut(slot);
        status.given = status.given.wrapping_add(1);
        match slot {
            // Tiger input takes three files; same-named files replace each
            // other, and a file after a complete set of three starts a new set.
            Slot::Tiger => {
                if status.files.len() >= 3 {
                    status.files.clear();
                }
                status.files.retain(|u| u.name != name);
                status.files.push(upload);
            }
            // A class's answers files gather; a file of the same name replaces its earlier copy.
            Slot::Answers => {
                status.files.retain(|u| u.name != name);
                status.files.push(upload);
            }
            // A set's three files gather; a file replaces the one of its ending,
            // and a file after a complete set starts a new one.
            Slot::DevSet | Slot::TestSet => return Self::held_set_file(status, slot, upload),
            Slot::Vcb => {
                if !Self::vocabulary_file(status, upload) {
                    return None;
                }
            }
            _ => status.files = vec![upload],
        }
        if slot == Slot::TranslationModel {
            if text_is_empty {
                status.message = Some(Err(format!("{name}:1:1: the file is empty; nothing was loaded from it")));
                return None;
            }
            // Read by the job worker, which keeps the model.
            status.message = Some(Ok(format!("{name}: reading it in the worker…")));
            return status
                .files
                .last()
                .map(|u| Routed::TranslationModel { name: u.name.clone(), text: u.text.clone() });
        }
        (status.message, status.checking) = (None, true);
        // Files of its group that were refused (gold links given before
        // their trees, a table of ids before its vocabularies, say) are
        // checked again with this one: the refusal may have been for want of it.
        let group = if Slot::LEXICON_GROUP.contains(&slot) { &Slot::LEXICON_GROUP[..] } else { &Slot::TREES_GROUP[..] };
        for &other in group {
            let s = self.slot_mut(other);
            if other != slot && matches!(s.message, Some(Err(_))) && s.files != s.kept {
                s.checking = true;
            }
        }
        Some(Routed::Check(slot))
    }

    /// A GIZA++ vocabulary ([`Slot::Vcb`]): the two are checked (with the
    /// tables) once both are there, in either order; until then the input
    /// says it waits, and the pair in use stays. A file after a complete
    /// pair starts a new one; one of the same name replaces its copy.
    /// Whether the pair is there to check.
    fn vocabulary_file(status: &mut SlotStatus, upload: Upload) -> bool {
        if upload.text.is_empty() {
            status.message = Some(Err(format!("{}:1:1: the file is empty; nothing was loaded from it", upload.name)));
            return false;
        }
        if status.files.len() >= 2 {
            status.files.clear();
        }
        status.files.retain(|u| u.name != upload.name);
        status.files.push(upload);
        if let [one] = status.files.as_slice() {
            status.checking = false;
            status.message = Some(Ok(format!(
                "{}: waiting for the other vocabulary (.vcb): the source's and the target's go together",
                one.name
            )));
            return false;
        }
        true
    }

    /// A file of a dev or test set ([`Slot::DevSet`], [`Slot::TestSet`]):
    /// the set is checked once its `.src`, `.trg` and `.gold` are there;
    /// until then its input says which are missing. A file of another kind
    /// is refused in words, and the set in use stays.
    fn held_set_file(status: &mut SlotStatus, slot: Slot, upload: Upload) -> Option<Routed> {
        let part = match load::held_set_part(&upload.name) {
            Ok(_) if upload.text.is_empty() => {
                Err(format!("{}:1:1: the file is empty; nothing was loaded from it", upload.name))
            }
            part => part,
        };
        let part = match part {
            Ok(part) => part,
            Err(why) => {
                status.message = Some(Err(why));
                return None;
            }
        };
        // Only files of a part are ever kept here.
        let parts = |files: &[Upload]| load::held_set_parts(files.iter().map(|u| u.name.as_str())).unwrap_or_default();
        if parts(&status.files).iter().all(Option::is_some) {
            status.files.clear();
        }
        status.files.retain(|u| load::held_set_part(&u.name) != Ok(part));
        status.files.push(upload);
        let parts = parts(&status.files);
        if parts.iter().any(Option::is_none) {
            let names: Vec<&str> = status.files.iter().map(|u| u.name.as_str()).collect();
            status.checking = false;
            status.message = Some(Ok(format!(
                "{}: waiting for the set's {} file",
                names.join(", "),
                load::held_set_missing(&parts)
            )));
            return None;
        }
        (status.message, status.checking) = (None, true);
        Some(Routed::Check(slot))
    }

    /// TigerXML files given together: each is gathered until the last is
    /// read (said while waiting); then, sorted by name, they are the
    /// input's files and are checked together — unless one could not be
    /// read, whose error is then the input's status (the set is not
    /// imported without it).
    pub(super) fn start_tiger_batch(&mut self, names: Vec<String>) {
        self.tiger_batch = Some(TigerBatch { expected: names, ..TigerBatch::default() });
        let status = self.slot_mut(Slot::Tiger);
        (status.message, status.checking) = (None, true);
    }

    fn batch_read(&mut self, upload: Upload) -> Option<Routed> {
        let batch = self.tiger_batch.as_mut()?;
        batch.expected.retain(|n| *n != upload.name);
        batch.read.push(upload);
        self.batch_step()
    }

    /// The batch after a file was read or failed: waiting, refused (a file
    /// failed), or its files to check.
    fn batch_step(&mut self) -> Option<Routed> {
        let batch = self.tiger_batch.as_ref()?;
        if !batch.expected.is_empty() {
            let (done, total) =
                (batch.read.len() + batch.failed.len(), batch.read.len() + batch.failed.len() + batch.expected.len());
            self.slot_mut(Slot::Tiger).message = Some(Ok(format!("reading the files given: {done} of {total}…")));
            return None;
        }
        let mut batch = self.tiger_batch.take()?;
        batch.read.sort_by(|a, b| a.name.cmp(&b.name));
        batch.failed.sort();
        let status = self.slot_mut(Slot::Tiger);
        status.given = status.given.wrapping_add(1);
        status.files = batch.read;
        if !batch.failed.is_empty() {
            status.checking = false;
            let errors: Vec<String> = batch.failed.into_iter().map(|(_, e)| e).collect();
            let others: Vec<&str> = status.files.iter().map(|u| u.name.as_str()).collect();
            let read = if others.is_empty() { String::new() } else { format!(" (read: {})", others.join(", ")) };
            status.message = Some(Err(format!("{}; the set was not imported{read}", errors.join("; "))));
            return None;
        }
        (status.message, status.checking) = (None, true);
        Some(Routed::Check(Slot::Tiger))
    }

    /// The files in use of `slot` checked again: a TigerXML set imported
    /// with other options, the vocabularies told apart again after a swap.
    pub(super) fn recheck(&mut self, slot: Slot) -> Option<Routed> {
        let status = self.slot_mut(slot);
        if status.kept.is_empty() {
            return None;
        }
        status.files = status.kept.clone();
        status.given = status.given.wrapping_add(1);
        (status.message, status.checking) = (None, true);
        Some(Routed::Check(slot))
    }

    /// A file that could not be read: what was loaded from its input stays;
    /// only its status says what went wrong.
    pub(super) fn file_failed(&mut self, name: &str, error: String, slot: Option<Slot>) {
        if slot.is_none() {
            self.dropped_refused(name, &error);
        }
        let tiger = slot.or_else(|| Slot::of_file(name)) == Some(Slot::Tiger);
        if let Some(batch) = self.tiger_batch.as_mut().filter(|b| tiger && b.expected.iter().any(|n| n == name)) {
            batch.expected.retain(|n| n != name);
            batch.failed.push((name.to_string(), error));
            self.stray = None;
            self.batch_step();
            return;
        }
        match slot.or_else(|| Slot::of_file(name)) {
            Some(slot) => {
                self.stray = None;
                self.slot_mut(slot).message = Some(Err(error));
            }
            None => self.stray = Some(error),
        }
    }

    /// The file worker failed: what it was checking stays unread.
    pub(super) fn load_failed(&mut self, message: &str) {
        self.sample_loading = None;
        for slot in Slot::ALL {
            let status = self.slot_mut(slot);
            if std::mem::take(&mut status.checking) {
                status.message = Some(Err(format!("not read: {message}")));
            }
        }
    }

    /// The slot's files are no longer in use (other pairs are shown, or the
    /// exercise was left): it holds nothing and says nothing, as if never
    /// given (its count of files given goes on, for answers in flight);
    /// files being checked for it stay.
    pub(super) fn not_in_use(&mut self, slot: Slot) {
        let status = self.slot_mut(slot);
        if !status.checking {
            *status = SlotStatus { given: status.given, ..SlotStatus::default() };
        }
    }

    /// The pairs shown come from the inputs `from`: the other inputs of
    /// pairs ([`Slot::PAIRS`]) go out of use.
    pub(super) fn pairs_from(&mut self, from: &[Slot]) {
        for slot in Slot::PAIRS.into_iter().filter(|slot| !from.contains(slot)) {
            self.not_in_use(slot);
        }
    }

    /// Files dropped on the Data panel: the report of the last drop starts
    /// afresh with them, none read yet.
    pub(super) fn drop_given(&mut self, names: impl IntoIterator<Item = String>) {
        self.dropped = names.into_iter().map(|name| Dropped { name, slot: None, refused: None }).collect();
    }

    fn dropped_waiting(&mut self, name: &str) -> Option<&mut Dropped> {
        self.dropped.iter_mut().find(|d| d.name == name && d.slot.is_none() && d.refused.is_none())
    }

    /// A dropped file was read and went to `slot`.
    fn dropped_into(&mut self, name: &str, slot: Slot) {
        if let Some(d) = self.dropped_waiting(name) {
            d.slot = Some(slot);
        }
    }

    /// A dropped file went to no input, for this reason.
    fn dropped_refused(&mut self, name: &str, why: &str) {
        if let Some(d) = self.dropped_waiting(name) {
            d.refused = Some(why.to_string());
        }
    }

    /// A translation model file given unread: the job worker reads it.
    pub(super) fn mt_file_picked(&mut self, name: &str) {
        self.dropped_into(name, Slot::TranslationModel);
        self.stray = None;
        let status = self.slot_mut(Slot::TranslationModel);
        status.files.clear();
        status.message = Some(Ok(format!("{name}: reading it in the worker…")));
    }

    /// What the file worker needs to check slot `changed`: its files and
    /// those checked with them; `corpus` is the pairs loaded now.
    pub(super) fn load_request(&self, changed: Slot, corpus: &Corpus) -> LoadRequest {
        let slots = changed.group();
        // The new files of the changed slot (and of those still being
        // checked: files dropped together), with the files in use of the others.
        // Refused files of the group checked again with it (see `file_read`).
        let retrying = |s: Slot| {
            let status = self.slot(s);
            s != changed && status.checking && matches!(status.message, Some(Err(_)))
        };
        let texts = |files: &[Upload]| -> Vec<FileText> {
            files.iter().map(|u| FileText { name: u.name.clone(), text: u.text.0.clone() }).collect()
        };
        let retry = slots.iter().filter(|&&s| retrying(s)).map(|&s| (s, texts(&self.slot(s).files))).collect();
        let files = slots
            .iter()
            .map(|&s| {
                let status = self.slot(s);
                (s, if s == changed || (status.checking && !retrying(s)) { &status.files } else { &status.kept })
            })
            .filter(|(_, files)| !files.is_empty())
            .map(|(s, files)| (s, texts(files)))
            .collect();
        // Gold links without uploaded trees go with the trees loaded now.
        let uploaded_trees = [Slot::Source, Slot::Target].iter().all(|&s| self.slot(s).ok_file().is_some());
        let current = (changed == Slot::Gold && !uploaded_trees).then(|| {
            let text = CorpusText::of(corpus);
            (text.source, text.target)
        });
        // A lexical table's coverage is counted over the pairs' words, and
        // they tell the two vocabularies apart.
        let side = |words: fn(&TreePair) -> &[String]| -> Vec<String> {
            corpus.pairs.iter().flat_map(|p| words(p).iter().cloned()).collect()
        };
        let (source_words, target_words) = match Slot::LEXICON_GROUP.contains(&changed) {
            true => (side(|p| p.source.words()), side(|p| p.target.words())),
            false => (Vec::new(), Vec::new()),
        };
        // Which slots' last given files go (the others' files in use).
        let given = (slots.iter())
            .filter(|&&s| s == changed || self.slot(s).checking)
            .map(|&s| (s, self.slot(s).given))
            .collect();
        LoadRequest {
            changed,
            files,
            current,
            lengths: corpus.sentence_lengths(),
            source_words,
            target_words,
            retry,
            given,
            tiger_options: self.tiger_options,
            ..LoadRequest::default()
        }
    }

    /// The file worker's answer, applied to each checked slot's status
    /// (the corpus it brings is the root's).
    pub(super) fn answered(&mut self, answer: &LoadAnswer) {
        let tiger_imported = matches!(answer.corpus, Some((CorpusOrigin::Tiger, _)));
        let new_corpus = answer.corpus.is_some();
        // The slots answered, and whether about files just given.
        let mut answered: Vec<(Slot, bool)> = Vec::new();
        for (slot, status) in answer.statuses.iter().cloned() {
            let s = self.slot_mut(slot);
            let about_given = answer.given.iter().find(|(g, _)| *g == slot).map(|&(_, n)| n);
            if about_given.is_some_and(|n| n != s.given) {
                continue; // files given since are being checked
            }
            answered.push((slot, about_given.is_some()));
            if about_given.is_some() {
                s.checking = false;
                // The warning goes with the files in use.
                if status.is_ok() {
                    s.warning = answer.warnings.iter().find(|(w, _)| *w == slot).map(|(_, w)| w.clone());
                }
                // Its new files were checked: in use if they read (a Tiger
                // set once it imported, not while it waits for its third file).
                if let (Ok(summary), true) = (&status, slot != Slot::Tiger || tiger_imported) {
                    s.keep(summary);
                }
                s.message = Some(status);
                continue;
            }
            // Checked again with the files in use: the last upload's error stays shown.
            match status {
                Ok(summary) => {
                    if !matches!(s.message, Some(Err(_))) {
                        s.message = Some(Ok(summary.clone()));
                    }
                    s.kept_summary = Some(summary);
                }
                Err(e) => {
                    // Word links that do not fit the new pairs are no longer in use.
                    if slot == Slot::WordLinks && new_corpus {
                        s.kept.clear();
                        s.kept_summary = None;
                    }
                    s.message = Some(Err(e));
                }
            }
        }
        let from_trees = matches!(answer.corpus, Some((CorpusOrigin::Trees { .. }, _)));
        self.mark_waiting_trees(&answered, from_trees);
        self.pair_tables();
    }

    /// Source or target trees that read but made no pairs are kept for
    /// their pair, and say so: the pairs shown are still the ones before.
    /// Pairs made from the trees (`from_trees`; not gold links for the trees
    /// shown) put both kept tree files in use.
    /// `answered`: the slots the answer was taken for, and whether about files just given.
    fn mark_waiting_trees(&mut self, answered: &[(Slot, bool)], from_trees: bool) {
        for (slot, other) in [(Slot::Source, Slot::Target), (Slot::Target, Slot::Source)] {
            let Some(&(_, given)) = answered.iter().find(|(s, _)| *s == slot) else { continue };
            if from_trees {
                self.slot_mut(slot).waiting = false;
                continue;
            }
            let kept_now = given && matches!(self.slot(slot).message, Some(Ok(_)));
            if !(kept_now || self.slot(slot).waiting) {
                continue;
            }
            let side = if other == Slot::Source { "source" } else { "target" };
            let why = if matches!(self.slot(other).message, Some(Err(_))) {
                format!("its {side} trees were refused")
            } else if matches!(self.slot(Slot::Gold).message, Some(Err(_))) && !self.slot(other).kept.is_empty() {
                "the gold links given with it were refused".to_string()
            } else if self.slot(other).kept.is_empty() {
                format!("no {side} trees yet")
            } else {
                continue;
            };
            let s = self.slot_mut(slot);
            s.waiting = true;
            if let (Some(Ok(_)), Some(summary)) = (&s.message, &s.kept_summary) {
                s.message = Some(Ok(format!("{summary}; not in use: {why} (the pairs shown stay)")));
            }
        }
    }

    /// Notes on a lone table that the other one is needed too.
    fn pair_tables(&mut self) {
        for (slot, other) in [(Slot::LexS2t, "p(s|t)"), (Slot::LexT2s, "p(t|s)")] {
            let partner = if slot == Slot::LexS2t { Slot::LexT2s } else { Slot::LexS2t };
            let has_partner = self.slot(partner).ok_file().is_some();
            if let Some(Ok(m)) = &mut self.slot_mut(slot).message {
                let waiting = format!(" (waiting for the {other} table)");
                if has_partner {
                    if let Some(stripped) = m.strip_suffix(&waiting) {
                        *m = stripped.to_string();
                    }
                } else if !m.ends_with(&waiting) {
                    m.push_str(&waiting);
                }
            }
        }
    }

    /// The pairs were swapped: trees and lexical tables trade slots, gold
    /// and word links are reversed ([`swap_links_text`]), so later loads
    /// and requests agree with the pairs. The vocabularies stay as given:
    /// the pairs' words tell them apart (checked again after a swap).
    pub(super) fn swap_sides(&mut self) {
        self.statuses.swap(Slot::Source as usize, Slot::Target as usize);
        self.statuses.swap(Slot::LexS2t as usize, Slot::LexT2s as usize);
        for slot in [Slot::Gold, Slot::WordLinks] {
            let status = self.slot_mut(slot);
            for u in status.files.iter_mut().chain(status.kept.iter_mut()) {
                u.text = swap_links_text(&u.text).into();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::corpus::SAMPLE_NAME;
    use super::super::testing::*;
    use super::super::*;
    use super::*;
    use crate::align::model::TrainOptions;
    use crate::io::links::write_links;
    use crate::ui::load;

    #[test]
    fn dropped_files_are_checked_by_the_file_worker_and_routed_by_kind() {
        let mut s = State::with_sample();
        // The reducer only keeps the text and asks for a check: nothing is parsed on the page.
        let effects = s.apply(file_read("x.src", "(S (A a))\n", None));
        let [Effect::Load(_, request)] = effects.as_slice() else { panic!("{effects:?}") };
        let file = FileText { name: "x.src".into(), text: "(S (A a))\n".into() };
        assert_eq!((request.changed, &request.files), (Slot::Source, &vec![(Slot::Source, vec![file])]));
        assert!(s.slots.slot(Slot::Source).checking && s.slots.slot(Slot::Source).message.is_none());
        let mut s = State::with_sample();
        read(&mut s, "x.src", "(S (A a))\n", None);
        // Alone, the source is kept for its target, not in use.
        assert_eq!(
            s.slots.slot(Slot::Source).message,
            Some(Ok("x.src: 1 tree, 2 nodes; not in use: no target trees yet (the pairs shown stay)".into()))
        );
        assert!(!s.slots.slot(Slot::Source).checking);
        read(&mut s, "x.trg", "(S (B b)\n", None);
        assert_refused(&s, Slot::Target, "x.trg:2:1: expected ')'");
        assert!(s.loaded.corpus.len() > 1, "a broken file keeps the corpus");
        let gen = s.loaded.gen;
        read(&mut s, "x.trg", "(S (B b))\n", None);
        assert_eq!(
            (s.loaded.corpus.len(), s.loaded.gen, s.loaded.name.as_str()),
            (1, gen.next(), "Uploaded x.src / x.trg")
        );
        // A link outside the trees: the error is shown by the file it is in (its typed origin).
        read(&mut s, "x.gold", "0-99\n", None);
        assert_refused(&s, Slot::Gold, "x.gold:1:1: link 0-99");
        assert_read(&s, Slot::Source, "");
        read(&mut s, "x.gold", "0-0\n", None);
        assert_eq!((s.loaded.corpus.gold_links(), s.loaded.gen), (1, gen.next()), "the same trees with gold links");
        assert!(read(&mut s, "notes.txt", "", None).is_empty());
        assert!(s.slots.stray.as_deref().is_some_and(|m| m.starts_with("notes.txt: expected")));
        // A .json file is told by its format header, not its name, and goes to the job worker unread.
        let mt = "{\"format\":\"treelink-mt\",\"version\":1}";
        let effects = read(&mut s, "m.json", mt, None);
        assert!(
            matches!(&effects[..], [Effect::Post(Request::LoadMt { model, .. })] if model.name == "m.json"),
            "{effects:?}"
        );
        assert!(s.mt.upload.as_ref().is_some_and(|u| u.name == "m.json"));
        assert_eq!(s.slots.slot(Slot::Model).files.len(), 0);
        assert_eq!(Slot::of_file("lex.e2f"), Some(Slot::LexS2t));
        assert_eq!(Slot::of_file("model.tlmt"), Some(Slot::TranslationModel));
        assert_eq!(Slot::of_file("aligned.grow-diag-final-and"), Some(Slot::WordLinks));
        // A lone lexical table waits for its partner.
        read(&mut s, "lex.e2f", "a b 0.5\n", None);
        assert_eq!(s.slots.slot(Slot::LexS2t).message, Some(Ok("lex.e2f: 1 entry; covers 0 of 1 source word types (0%) and 0 of 1 tokens (0%) (waiting for the p(s|t) table)".into())));
        // The file worker failing leaves what it was checking unread, and the corpus as it was.
        s.apply(file_read("y.src", "(S (A a))\n", None));
        s.apply(Action::Load(LoadAction::LoadFailed("the file worker stopped".into())));
        assert_eq!(s.slots.slot(Slot::Source).message, Some(Err("not read: the file worker stopped".into())));
        assert_eq!(s.loaded.name, "Uploaded x.src / x.trg");
    }

    /// The pairs loaded and the gold links they hold.
    fn pairs_and_links(s: &State) -> (usize, usize) {
        (s.loaded.corpus.len(), s.loaded.corpus.gold_links())
    }

    /// An alignment model file trained on the sample (the plain kernel, few examples: quick).
    fn small_alignment_model() -> String {
        use crate::app::alignment::{lexicon_source, train_model};
        let options = TrainOptions { spec: "plain".parse().unwrap(), max_examples: 40, ..TrainOptions::default() };
        let source = lexicon_source(None, None, Vec::new(), Default::default());
        let model = train_model(&load::sample(), None, source, &[options], &mut crate::progress::Quiet).unwrap();
        model.to_json()
    }

    /// What is in use from `slot`, as the requests and the views read it.
    fn in_use(s: &State, slot: Slot) -> String {
        let corpus =
            format!("{} {:?}", s.loaded.name, s.loaded.corpus.pairs.iter().map(|p| p.gold.len()).collect::<Vec<_>>());
        match slot {
            Slot::Source | Slot::Target | Slot::Gold | Slot::Tiger | Slot::Dublin => corpus,
            Slot::LexS2t | Slot::LexT2s | Slot::Vcb | Slot::WordLinks => format!("{:?}", s.slots.lexicon_files()),
            Slot::Lm => format!("{:?}", s.slots.lm_file()),
            Slot::Model => format!("{:?}", s.alignment.model),
            Slot::TranslationModel => format!("{:?}", s.mt.held.as_ref().map(|h| (&h.name, &h.summary))),
            Slot::DevSet | Slot::TestSet => format!("{:?}", s.loaded.held),
            Slot::Exercise | Slot::Answers => format!(
                "{:?} {:?}",
                s.classroom.open.as_ref().map(|o| &o.file),
                s.classroom.class.as_ref().map(|c| c.students.len())
            ),
        }
    }

    /// Item 7 of issue 14: for every input, a good file, then a bad one
    /// for the same input: what was loaded stays in use and the error is
    /// shown next to that input, with what is still in use.
    #[test]
    fn a_file_that_does_not_read_never_replaces_the_one_in_use_in_any_slot() {
        let lm = crate::mt::lm::write_arpa(&crate::mt::lm::NgramLm::train_text("a b c\nb c a\n", 2).unwrap());
        let model = small_alignment_model();
        let good_and_bad: [(Slot, &str, &str, &str); 9] = [
            // First: the trees after it make the pairs the rest is checked with.
            (
                Slot::Dublin,
                "y.dublin",
                "(S-1 (A-2 a) (B-3 b))\n(T-1 (C-2 c))\n1 1 3 2\n\n",
                "(S-1 (A-2 a)\n(T-1 (C-2 c))\n1 1\n\n",
            ),
            (Slot::Source, "y.src", "(S (A a) (B b))\n", "(S (A a)\n"),
            (Slot::Target, "y.trg", "(T (C c))\n", "(T (C c)\n"),
            (Slot::Gold, "y.gold", "0-0 1-1\n", "0-99\n"),
            (Slot::LexS2t, "lex.e2f", "c a 0.5\n", "c a 0.5 0.2\n"),
            (Slot::LexT2s, "lex.f2e", "a c 0.5\n", "a c two\n"),
            (Slot::WordLinks, "aligned.gdfa", "0-0\n", "0-0 7-7\n"),
            (Slot::Lm, "lm.arpa", &lm, "\\data\\\nngram 1=x\n"),
            (Slot::Model, "m.json", &model, "{\"format\": \"treelink-alignment-model\""),
        ];
        let mut s = State::with_sample();
        for &(slot, name, good, bad) in &good_and_bad {
            read(&mut s, name, good, Some(slot));
            assert_read(&s, slot, "");
            let (before, corpus) = (in_use(&s, slot), s.loaded.corpus.clone());
            read(&mut s, &format!("bad-{name}"), bad, Some(slot));
            // The error is shown next to its input, naming its file.
            assert_refused(&s, slot, &format!("bad-{name}:"));
            let status = s.slots.slot(slot);
            assert_eq!(in_use(&s, slot), before, "{slot:?}: the good file stays in use");
            assert!(Rc::ptr_eq(&corpus, &s.loaded.corpus), "{slot:?}: the pairs loaded stay");
            let still = status.still_in_use().unwrap_or_default();
            // A source alone makes no pairs: it is kept for its target, not in use.
            let kept = if slot == Slot::Source { "kept for its pair, not in use" } else { "still in use" };
            assert!(still.starts_with(&format!("{kept}: {name}")), "{slot:?}: {still}");
            // An empty file is refused alike.
            read(&mut s, name, "", Some(slot));
            assert_eq!(in_use(&s, slot), before, "{slot:?}: an empty file");
        }
        // The refused source was not used with the next good file: the pairs come from the good ones.
        assert_eq!(s.loaded.name, "Uploaded y.src / y.trg");
        read(&mut s, "z.gold", "0-0\n", Some(Slot::Gold));
        assert_eq!(pairs_and_links(&s), (1, 1), "{}", s.corpus_summary());
        assert!(s.slots.lexicon_files().s2t.is_some_and(|f| f.name == "lex.e2f"));
        // The translation model is read by the job worker: one that fails to read leaves the held one.
        let effects = read(&mut s, "mt.json", "{\"format\":\"treelink-mt\",\"version\":1}", None);
        let [Effect::Post(Request::LoadMt { job, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        answer(&mut s, Response::MtReady { job: *job, model: *job, summary: "MS".into(), json: None }, 1.0);
        let before = in_use(&s, Slot::TranslationModel);
        let effects = s.apply(Action::Load(LoadAction::MtFilePicked { name: "bad.tlmt".into(), file: FileHandle(3) }));
        let [Effect::PostFile(Request::LoadMtFile { job, .. }, _)] = effects.as_slice() else { panic!("{effects:?}") };
        let failed = Response::Failed { job: Some(*job), message: "bad.tlmt: not a translation model".into() };
        answer(&mut s, failed, 2.0);
        assert_eq!(in_use(&s, Slot::TranslationModel), before);
        assert_refused(&s, Slot::TranslationModel, "bad.tlmt:");
        let still = s.slots.slot(Slot::TranslationModel).still_in_use();
        assert_eq!(still.as_deref(), Some("still in use: mt.json: MS"));
        // The classroom's inputs: an exercise (its pairs become the corpus)
        // and students' answers to it.
        use crate::exercise::{Answers, Exercise};
        let exercise = Exercise::new(&load::sample(), &[1, 3], "Two pairs", "", false).unwrap();
        let answers = Answers::new(&exercise, "Ana", &[]).to_json();
        let exercise = exercise.to_json();
        let classroom: [(Slot, &str, &str, &str); 2] = [
            (Slot::Exercise, "ex.json", &exercise, "{\"format\": \"treelink-exercise\", \"version\": 1, \"pairs\": 3}"),
            (Slot::Answers, "ana.answers.json", &answers, "{\"format\": \"treelink-answers\""),
        ];
        for &(slot, name, good, bad) in &classroom {
            read(&mut s, name, good, Some(slot));
            assert_read(&s, slot, "");
            let (before, corpus) = (in_use(&s, slot), s.loaded.corpus.clone());
            read(&mut s, &format!("bad-{name}"), bad, Some(slot));
            let status = s.slots.slot(slot);
            assert!(
                // Answers gather: the class table counts the files that read.
                matches!(&status.message, Some(Err(e)) if e.starts_with(&format!("bad-{name}:"))
                    || e.starts_with(&format!("1 of 2 files not counted: bad-{name}:1:"))),
                "{slot:?}: {:?}",
                status.message
            );
            assert_eq!(in_use(&s, slot), before, "{slot:?}: the good file stays in use");
            assert!(Rc::ptr_eq(&corpus, &s.loaded.corpus), "{slot:?}: the pairs loaded stay");
        }
        assert_eq!((s.loaded.corpus.len(), s.classroom.class.as_ref().map(|c| c.students.len())), (2, Some(1)));
    }

    /// Files of the trees' group may come in any order: gold links given
    /// before their target trees are refused against the pairs loaded then,
    /// and taken once the trees come. A refused file that is refused again
    /// does not hold back the others: they go with the file in use.
    #[test]
    fn gold_links_before_their_trees_are_taken_when_the_trees_come() {
        let mut s = State::with_sample();
        read(&mut s, "x.src", "(S (A a) (B b))\n(S (A a))\n", Some(Slot::Source));
        read(&mut s, "x.gold", "0-0 1-1\n0-0\n", Some(Slot::Gold));
        assert_refused(&s, Slot::Gold, "");
        read(&mut s, "x.trg", "(T (C c) (D d))\n(T (C c))\n", Some(Slot::Target));
        assert_eq!(s.loaded.name, "Uploaded x.src / x.trg");
        assert_eq!(pairs_and_links(&s), (2, 3), "{}", s.corpus_summary());
        assert_read(&s, Slot::Gold, "");
        assert_eq!(s.slots.ok_name(Slot::Gold), Some("x.gold"));
        // Gold links that do not fit these trees stay refused; new trees
        // of the same shape still load, with the gold links in use.
        read(&mut s, "bad.gold", "0-99\n0-0\n", Some(Slot::Gold));
        assert_refused(&s, Slot::Gold, "bad.gold:1:");
        read(&mut s, "y.src", "(S (A x) (B y))\n(S (A z))\n", Some(Slot::Source));
        assert_eq!((s.loaded.name.as_str(), s.loaded.corpus.gold_links()), ("Uploaded y.src / x.trg", 3));
        assert_eq!(s.loaded.corpus.pairs[0].source.words(), ["x", "y"]);
        assert_refused(&s, Slot::Gold, "bad.gold:1:");
        assert_eq!(s.slots.ok_name(Slot::Gold), Some("x.gold"));
    }

    /// Trees that read alone but make no pairs (the other side missing or
    /// refused) are kept for their pair and say they are not in use; the
    /// pairs they then make put them in use, and an error after that says
    /// which files are still in use.
    #[test]
    fn trees_that_make_no_pairs_say_they_are_not_in_use() {
        let mut s = State::with_sample();
        let corpus = s.loaded.corpus.clone();
        read(&mut s, "x.trg", "(T (C c))\n(T (C c))\n", Some(Slot::Target));
        let unused = |why| format!("x.trg: 2 trees, 4 nodes; not in use: {why} (the pairs shown stay)");
        assert_eq!(message(&s, Slot::Target), unused("no source trees yet"));

        // A source over the page's limit: refused, and the target waits for one that reads.
        let wide = format!("(S (A a))\n(S {})\n", "(A a) ".repeat(1001));
        read(&mut s, "wide.src", &wide, Some(Slot::Source));
        assert_refused(&s, Slot::Source, "wide.src:2:1: this tree has 1001 words");
        assert_eq!(message(&s, Slot::Target), unused("its source trees were refused"));
        assert!(Rc::ptr_eq(&corpus, &s.loaded.corpus), "the pairs shown stay");
        // A bad target now: the one kept is named as kept, not as in use.
        read(&mut s, "bad.trg", "(T (C c)\n", Some(Slot::Target));
        let still = |s: &State, slot| s.slots.slot(slot).still_in_use();
        assert_eq!(still(&s, Slot::Target).as_deref(), Some("kept for its pair, not in use: x.trg: 2 trees, 4 nodes"));
        // A source that reads: the pairs are made with the target kept, both in use.
        read(&mut s, "x.src", "(S (A a))\n(S (B b))\n", Some(Slot::Source));
        assert_eq!(s.loaded.name, "Uploaded x.src / x.trg");
        assert_eq!(message(&s, Slot::Source), "x.src: 2 trees, 4 nodes");
        assert!(!s.slots.slot(Slot::Source).waiting && !s.slots.slot(Slot::Target).waiting);
        read(&mut s, "bad.src", "(S (A a)\n", Some(Slot::Source));
        assert_eq!(still(&s, Slot::Source).as_deref(), Some("still in use: x.src: 2 trees, 4 nodes"));
        // The target's last upload was refused; what it keeps is in use now.
        assert_eq!(still(&s, Slot::Target).as_deref(), Some("still in use: x.trg: 2 trees, 4 nodes"));
        // Gold links for the pairs shown make new pairs, but not from a waiting target.
        let mut s = State::with_sample();
        read(&mut s, "x.trg", "(T (C c))\n", Some(Slot::Target));
        let gold = write_links(&s.loaded.corpus.pairs.iter().map(|p| p.gold.clone()).collect::<Vec<_>>());
        read(&mut s, "again.gold", &gold, Some(Slot::Gold));
        assert_eq!(s.loaded.name, "Built-in sample (SQUOIA German–Spanish, dev) + gold links from again.gold");
        assert!(s.slots.slot(Slot::Target).waiting, "{:?}", s.slots.slot(Slot::Target).message);
    }

    /// Files picked one after another are checked while earlier checks are
    /// still in flight; an answer about files given before the last ones
    /// is not taken for theirs, after refused files of the same group.
    #[test]
    fn files_picked_while_others_are_checked_make_one_corpus_with_their_gold_links() {
        let mut s = State::with_sample();
        read(&mut s, "empty.trg", "", Some(Slot::Target));
        read(&mut s, "million.gold", "0-0\n0-0\n", Some(Slot::Gold));
        assert_refused(&s, Slot::Gold, "");
        let files = [
            (Slot::Source, "big.src", "(S (A a) (B b))\n(S (A a))\n"),
            (Slot::Target, "big.trg", "(T (C c) (D d))\n(T (C c))\n"),
            (Slot::Gold, "big.gold", "0-0 1-1\n0-0\n"),
        ];
        // The target is read before the source's answer comes, the gold
        // links after it and before the target's.
        let answer = |s: &mut State, effects: Vec<Effect>| {
            let [Effect::Load(job, request)] = &effects[..] else { panic!("{effects:?}") };
            answer_load(s, &(*job, request.clone()));
        };
        let pick = |s: &mut State, (slot, name, text): (Slot, &str, &str)| s.apply(file_read(name, text, Some(slot)));
        let source = pick(&mut s, files[0]);
        let target = pick(&mut s, files[1]);
        answer(&mut s, source);
        // What the source's check said of the target given before is not
        // shown for the one being checked.
        let target_status = s.slots.slot(Slot::Target);
        assert!(target_status.checking && target_status.message.is_none(), "{target_status:?}");
        let gold = pick(&mut s, files[2]);
        answer(&mut s, target);
        answer(&mut s, gold);
        assert_eq!(s.loaded.name, "Uploaded big.src / big.trg");
        assert_eq!(pairs_and_links(&s), (2, 3), "{}", s.corpus_summary());
        for (slot, name, _) in files {
            assert!(!s.slots.slot(slot).checking);
            assert_read(&s, slot, name);
            assert_eq!(s.slots.ok_name(slot), Some(name));
        }
    }

    #[test]
    fn a_lexical_table_reports_its_coverage_of_the_loaded_words_and_warns_when_low() {
        let mut s = State::with_sample();
        read_pairs(&mut s, &["(S (A a) (B b) (A a))\n", "(T (C c) (D d))\n"]);
        // p(t|s) is conditioned on source words: "a" (2 of 3 tokens) of {a, b}.
        read(&mut s, "lex.e2f", "c a 0.5\n", None);
        assert_read(
            &s,
            Slot::LexS2t,
            "lex.e2f: 1 entry; covers 1 of 2 source word types (50%) and 2 of 3 tokens (67%)",
        );
        assert!(s.slots.slot(Slot::LexS2t).warning.is_none(), "50% is not below 50%");
        // p(s|t) on target words: neither "c" nor "d".
        read(&mut s, "lex.f2e", "x y 0.5\n", None);
        assert_read(&s, Slot::LexT2s, "lex.f2e: 1 entry; covers 0 of 2 target word types (0%)");
        let warning = s.slots.slot(Slot::LexT2s).warning.clone().unwrap_or_default();
        assert!(warning.starts_with("lex.f2e covers less than 50%"), "{warning}");
    }

    /// GIZA++ t-tables of word ids with their two `.vcb` vocabularies, as
    /// `--lex-s2t F --lex-t2s F --vcb S.vcb T.vcb`: a table of ids before
    /// its vocabularies is refused in words (the tables in use stay), and
    /// read once both come, in either order; the lexicon is the CLI's.
    #[test]
    fn giza_tables_of_ids_wait_for_their_two_vocabularies_given_in_either_order() {
        use crate::app::files::{read_lex_table, TableSide};
        use crate::corpus::Named;
        use crate::lexicon::{read_giza_vocab, Lexicon};
        // The ids fit either way round: only the vocabularies tell them apart.
        let (de, es) = (("de.vcb", "2 das 4\n3 Haus 1\n"), ("es.vcb", "2 la 4\n3 casa 1\n"));
        // GIZA++ -s de.vcb -t es.vcb: `s t p(t|s)`; and back: `t s p(s|t)`.
        let (s2t, t2s) = ("0 3 0.25\n2 2 0.75\n3 3 1\n", "2 2 0.5\n2 3 0.5\n3 3 1\n");
        let cli = {
            let (sv, tv) = (read_giza_vocab(de.1, de.0).unwrap(), read_giza_vocab(es.1, es.0).unwrap());
            let table = |name, text, side| read_lex_table(Named { name, text }, Some((&sv, &tv)), side).unwrap();
            Lexicon::new(table("s2t.t3.final", s2t, TableSide::S2t), table("t2s.t3.final", t2s, TableSide::T2s))
        };
        assert_eq!((cli.p_t_given_s("casa", "Haus"), cli.p_s_given_t("Haus", "la")), (1.0, 0.5));
        for vcbs in [[de, es], [es, de]] {
            let mut s = State::with_sample();
            read_pairs(&mut s, &["(S (A das) (B Haus))\n", "(T (C la) (D casa))\n"]);
            read(&mut s, "lex.e2f", "la das 1\n", None);
            read(&mut s, "lex.f2e", "das la 1\n", None);
            let before = s.slots.lexicon_files();
            assert!(before.s2t.is_some() && before.t2s.is_some() && before.vcb.is_none());
            read(&mut s, "s2t.t3.final", s2t, Some(Slot::LexS2t));
            read(&mut s, "t2s.t3.final", t2s, Some(Slot::LexT2s));
            for slot in [Slot::LexS2t, Slot::LexT2s] {
                let status = s.slots.slot(slot);
                assert!(
                    matches!(&status.message, Some(Err(e)) if e.contains(".t3.final:1:1: a GIZA++ t-table of word ids (not words): expected its two vocabulary files")),
                    "{slot:?}: {:?}",
                    status.message
                );
                assert!(status.still_in_use().is_some_and(|k| k.starts_with("still in use: lex.")));
            }
            assert_eq!(s.slots.lexicon_files(), before, "a refused table never replaces the one in use");
            // Dropped: routed by their ending; the first waits for the second.
            read(&mut s, vcbs[0].0, vcbs[0].1, None);
            let first = vcbs[0].0;
            let waiting =
                format!("{first}: waiting for the other vocabulary (.vcb): the source's and the target's go together");
            assert_eq!(s.slots.slot(Slot::Vcb).message, Some(Ok(waiting)));
            assert_eq!(s.slots.lexicon_files(), before);
            read(&mut s, vcbs[1].0, vcbs[1].1, None);
            assert_eq!(
                s.slots.slot(Slot::Vcb).message,
                Some(Ok("source de.vcb: 2 words, 100% of the source tokens; target es.vcb: 2 words, 100% of the target tokens".into()))
            );
            // The refused tables were checked again with them, and are in use now.
            let covered = "s2t.t3.final: 3 entries; covers 2 of 2 source word types (100%) and 2 of 2 tokens (100%)";
            assert_eq!(s.slots.slot(Slot::LexS2t).message, Some(Ok(covered.into())));
            assert_read(&s, Slot::LexT2s, "t2s.t3.final: 3 entries; covers 2 of 2 target word types");
            let files = s.slots.lexicon_files();
            let names = files.vcb.as_ref().map(|v| v.iter().map(|f| f.name.clone()).collect::<Vec<_>>());
            assert_eq!(names, Some(vec![vcbs[0].0.to_string(), vcbs[1].0.to_string()]), "kept as given");
            assert_eq!(files.tables_lexicon(&s.loaded.corpus).unwrap(), Some(cli.clone()));
            // Swapped, the tables trade slots, the vocabularies are told apart again: the same entries.
            run(&mut s, Action::Load(LoadAction::SwapSides));
            assert_read(&s, Slot::Vcb, "source es.vcb");
            let swapped = s.slots.lexicon_files().tables_lexicon(&s.loaded.corpus).unwrap().unwrap();
            assert_eq!((swapped.p_t_given_s("Haus", "la"), swapped.p_s_given_t("la", "das")), (0.5, 0.75));
            // A new vocabulary waits for its partner; the pair in use stays.
            read(&mut s, "other.vcb", "2 x 1\n", None);
            assert_eq!(s.slots.lexicon_files().vcb, files.vcb);
        }
    }

    /// Two vocabularies picked together, after one alone: a pair, in
    /// whichever order the browser reads them (a CI run read the second
    /// first, and the first then waited alone for ever).
    #[test]
    fn two_vocabularies_given_together_pair_in_either_read_order() {
        let (de, es) = (("de.vcb", "2 das 4\n3 Haus 1\n"), ("es.vcb", "2 la 4\n3 casa 1\n"));
        for order in [[0, 1], [1, 0]] {
            let mut s = State::with_sample();
            read_pairs(&mut s, &["(S (A das) (B Haus))\n", "(T (C la) (D casa))\n"]);
            read(&mut s, es.0, es.1, Some(Slot::Vcb));
            let files = [es, de].map(|(n, t)| (n.to_string(), Some(t.to_string())));
            give_together(&mut s, &files, &order, Some(Slot::Vcb));
            assert_read(&s, Slot::Vcb, "source de.vcb: 2 words, 100% of the source tokens; target es.vcb");
        }
    }

    #[test]
    fn tiger_files_wait_for_three_then_import_through_the_application_layer() {
        let mut s = State::with_sample();
        // Too few files: nothing changes yet.
        read(&mut s, "a.xml", "<corpus/>", None);
        assert_eq!(s.slots.slot(Slot::Tiger).files.len(), 1);
        assert!(s.loaded.tiger_ids.is_none());
        read(&mut s, "b.xml", "<corpus/>", None);
        read(&mut s, "c.xml", "<corpus/>", None);
        let message = s.slots.slot(Slot::Tiger).message.clone();
        assert_eq!(
            message,
            Some(Err("expected one Stockholm TreeAligner file (<treealign>) among the XML files, found 0".into()))
        );
    }

    /// The nl-en TigerXML set of `../shared/data`, renamed as a user might have it.
    #[cfg(not(target_arch = "wasm32"))]
    fn renamed_nl_en() -> Vec<(String, Option<String>)> {
        let read = |f: &str| Some(shared_data(&format!("lingua-align-nl-en-125/raw/{f}")));
        vec![
            ("nl.xml".into(), read("ep-00-12-15.125.nl.tiger")),
            ("en.xml".into(), read("ep-00-12-15.125.en.tiger")),
            ("align.sta.xml".into(), read("nl-en_125.xml")),
        ]
    }

    /// Gives `files` at once (dropped, or picked for `slot`) and reads them
    /// in `order`; a `None` text could not be read.
    fn give_together(s: &mut State, files: &[(String, Option<String>)], order: &[usize], slot: Option<Slot>) {
        let handles = files.iter().enumerate().map(|(k, (n, _))| (n.clone(), FileHandle(k as u32))).collect();
        s.apply(Action::Load(LoadAction::FilesGiven { files: handles, slot }));
        for &k in order {
            let (name, text) = &files[k];
            let failed = LoadAction::FileFailed { name: name.clone(), error: format!("{name}:3:7: bad byte"), slot };
            run(s, text.as_ref().map_or(Action::Load(failed), |text| file_read(name, text, slot)));
        }
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // reads ../shared/data from disk
    fn a_tiger_set_given_together_imports_the_same_way_round_in_any_order() {
        let files = renamed_nl_en();
        let mut seen = Vec::new();
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0], [1, 0, 2]] {
            let mut s = State::with_sample();
            give_together(&mut s, &files, &order, None);
            assert_eq!(s.loaded.corpus.len(), 125, "{order:?}: {:?}", s.slots.slot(Slot::Tiger).message);
            // The alignment declares English first: English is the source, whatever the order.
            let first = s.loaded.corpus.pairs[0].source.words().join(" ");
            assert!(first.starts_with("I sense that"), "{order:?}: {first}");
            let t = s.loaded.tiger_import.clone().unwrap();
            assert_eq!((t.origin.source.id.as_str(), t.originals[0].name.as_str()), ("en", "en.xml"));
            assert!(t.report.iter().any(|l| l.contains("was discontinuous")));
            // Every link the trees hold, by default (4118: POS links too), 148 of them set
            // aside with the ids (a node's yield changed), the rest gold.
            assert_eq!(s.loaded.corpus.gold_links(), 3970);
            let ids = s.loaded.tiger_ids.as_deref().unwrap();
            assert_eq!(ids.iter().map(|p| p.set_aside.len()).sum::<usize>(), 148);
            seen.push(s.loaded.tiger_ids.clone());
        }
        assert!(seen.windows(2).all(|w| w[0] == w[1]));
        // As the shared data's bracketed files: 1380 links, read again from the set in use.
        let mut s = State::with_sample();
        give_together(&mut s, &files, &[0, 1, 2], None);
        run(&mut s, Action::Load(LoadAction::SetTigerOptions(crate::tiger::ImportOptions::BRACKETED_DATA)));
        assert_eq!(pairs_and_links(&s), (125, 1380));
    }

    /// Issue 39: a TigerXML import's word links are the pairs' own word
    /// links, as `train` reads a set's `PREFIX.words`: said by its input,
    /// swapped with the pairs, and given word links win.
    #[test]
    #[cfg(not(target_arch = "wasm32"))] // reads ../shared/data from disk
    fn a_tiger_imports_word_links_are_the_word_alignment_unless_word_links_are_given() {
        let mut s = State::with_sample();
        give_together(&mut s, &renamed_nl_en(), &[0, 1, 2], None);
        assert_read(&s, Slot::Tiger, "");
        let message = message(&s, Slot::Tiger);
        assert!(
            message.ends_with("its 2327 word links are the word alignment unless word links are given"),
            "{message}"
        );
        let own = s.lexicon_files().word_links.unwrap();
        assert_eq!((own.name.as_str(), own.text.lines().count()), ("align.sta.xml.words", 125));
        let links: Vec<&str> = own.text.split_whitespace().collect();
        assert_eq!(links.len(), 2327);
        // English is the source here: the first pair's links as `import tiger --reverse` wrote them, reversed.
        assert!(
            own.text.starts_with("0-0 1-1 1-2 1-3 2-4 5-11? 5-12? 7-13? 8-8? 8-9 10-7 11-10 13-5 14-6 15-14\n"),
            "{}",
            own.text
        );
        run(&mut s, Action::Load(LoadAction::SwapSides));
        let swapped = s.lexicon_files().word_links.unwrap().text;
        assert!(
            swapped.starts_with("0-0 1-1 2-1 3-1 4-2 11-5? 12-5? 13-7? 8-8? 9-8 7-10 10-11 5-13 6-14 14-15\n"),
            "{swapped}"
        );
        let given = "0-0\n".repeat(125);
        read(&mut s, "given.align", &given, Some(Slot::WordLinks));
        let used = s.lexicon_files().word_links.unwrap();
        assert_eq!((used.name.as_str(), used.text.as_str()), ("given.align", given.as_str()));
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // reads ../shared/data from disk
    fn trees_and_gold_links_given_one_after_another_make_their_pairs_however_reads_and_answers_interleave() {
        let files = [("all.src", Slot::Source), ("all.trg", Slot::Target), ("all.gold", Slot::Gold)]
            .map(|(n, slot)| (n.to_string(), shared_data(&format!("lingua-align-nl-en-125/bracketed/{n}")), slot));
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        // Each schedule: the files read in `order`; after the k-th read, `answers[k]` answers are taken.
        let mut schedules = Vec::new();
        for order in orders {
            for a0 in 0..=1 {
                for a1 in 0..=2 {
                    schedules.push((order, [a0, a1]));
                }
            }
        }
        for (order, answers) in schedules {
            let mut s = State::with_sample();
            run(&mut s, Action::Load(LoadAction::LoadSample));
            let mut pending: std::collections::VecDeque<Asked> = Default::default();
            for (k, &f) in order.iter().enumerate() {
                let (name, text, slot) = &files[f];
                pending.extend(loads(&s.apply(file_read(name, text, Some(*slot)))));
                for _ in 0..*answers.get(k).unwrap_or(&0) {
                    if let Some(r) = pending.pop_front() {
                        // What an answer asks next goes to the back of the queue.
                        pending.extend(answer_one(&mut s, &r));
                    }
                }
            }
            while let Some(r) = pending.pop_front() {
                pending.extend(answer_one(&mut s, &r));
            }
            let checking: Vec<Slot> = Slot::ALL.iter().copied().filter(|&x| s.slots.slot(x).checking).collect();
            let said: Vec<_> = Slot::TREES_GROUP.iter().map(|&x| s.slots.slot(x).message.clone()).collect();
            assert_eq!(checking, Vec::<Slot>::new(), "{order:?} {answers:?}: {said:?}");
            assert_eq!(pairs_and_links(&s), (125, 1380), "{order:?} {answers:?}: {said:?}");
        }
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // reads ../shared/data from disk
    fn a_new_set_given_while_the_set_in_use_is_checked_again_is_the_one_imported_whatever_answers_first() {
        let squoia = ["LAI_SQUOIA_DE.xml", "LAI_SQUOIA_ES.xml", "LAI_alignments_squoia_de_es.xml"]
            .map(|f| (f.to_string(), shared_data(&format!("squoia-de-es/raw/{f}"))));
        // 0: the recheck answers before the new set is read; 1: while it is
        // read; 2: after the new set's request was sent.
        for when in 0..3 {
            let mut s = State::with_sample();
            give_together(&mut s, &renamed_nl_en(), &[0, 1, 2], None);
            assert_eq!(s.loaded.corpus.len(), 125);
            // The option changed: the set in use is checked again (request A)...
            let options = LoadAction::SetTigerOptions(crate::tiger::ImportOptions::BRACKETED_DATA);
            let a = loads(&s.apply(Action::Load(options)));
            assert_eq!(a.len(), 1);
            // ... while a new set is given.
            let handles = squoia.iter().enumerate().map(|(k, (n, _))| (n.clone(), FileHandle(k as u32))).collect();
            s.apply(Action::Load(LoadAction::FilesGiven { files: handles, slot: None }));
            let mut b = Vec::new();
            for (k, (name, text)) in squoia.iter().enumerate() {
                if when == 0 && k == 0 || when == 1 && k == 1 {
                    answer_load(&mut s, &a[0]);
                }
                b.extend(loads(&s.apply(file_read(name, text, None))));
            }
            assert_eq!(b.len(), 1, "{when}: the new set is checked once");
            if when == 2 {
                answer_load(&mut s, &a[0]);
            }
            answer_load(&mut s, &b[0]);
            let status = s.slots.slot(Slot::Tiger);
            assert!(!status.checking, "{when}: {:?}", status.message);
            assert_eq!(pairs_and_links(&s), (157, 1218), "{when}: {:?}", status.message);
        }
    }
    /// The e2e keyboard test's failure in CI: the import option unticked
    /// (the set checked again by the file worker), then *Load the sample*,
    /// read on the page's thread and shown first; the set's answer comes
    /// after and must not replace it.
    #[test]
    #[cfg(not(target_arch = "wasm32"))] // reads ../shared/data from disk
    fn the_sample_asked_for_after_a_set_is_checked_again_stays_whichever_answers_first() {
        for sample_first in [true, false] {
            let mut s = State::with_sample();
            give_together(&mut s, &renamed_nl_en(), &[0, 1, 2], None);
            assert_eq!(s.loaded.corpus.len(), 125);
            let options = LoadAction::SetTigerOptions(crate::tiger::ImportOptions::BRACKETED_DATA);
            let recheck = loads(&s.apply(Action::Load(options)));
            let sample = loads(&s.apply(Action::Load(LoadAction::LoadSample)));
            let order = if sample_first { [&sample[0], &recheck[0]] } else { [&recheck[0], &sample[0]] };
            for asked in order {
                answer_load(&mut s, asked);
            }
            assert_eq!((s.loaded.name.as_str(), s.loaded.corpus.gold_links()), (SAMPLE_NAME, 1218), "{sample_first}");
            assert_eq!(s.slots.slot(Slot::Tiger).message, None, "{sample_first}: the set is not in use");
        }
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // reads ../shared/data from disk
    fn a_set_with_a_file_that_does_not_read_shows_its_error_and_two_sets_are_refused_in_words() {
        let set = renamed_nl_en();
        let mut files = set.clone();
        files[0].1 = None;
        for order in [[0, 1, 2], [1, 2, 0]] {
            let mut s = State::with_sample();
            let corpus = s.loaded.corpus.clone();
            give_together(&mut s, &files, &order, None);
            let status = s.slots.slot(Slot::Tiger);
            assert_eq!(
                status.message,
                Some(Err("nl.xml:3:7: bad byte; the set was not imported (read: align.sta.xml, en.xml)".into()))
            );
            assert!(!status.checking && Rc::ptr_eq(&corpus, &s.loaded.corpus));
        }
        // Two sets: named by their alignments' declarations, refused with what was found.
        let mut two: Vec<(String, Option<String>)> = Vec::new();
        for (prefix, (name, text)) in
            [("a", &set[0]), ("a", &set[1]), ("a", &set[2]), ("b", &set[0]), ("b", &set[1]), ("b", &set[2])]
        {
            let text = text.as_deref().unwrap().replace("ep-00-12-15.125.", &format!("{prefix}-"));
            let name = if name.ends_with("sta.xml") {
                format!("{prefix}-align.sta.xml")
            } else {
                format!("{prefix}-{}", name.replace(".xml", ".tiger"))
            };
            two.push((name, Some(text)));
        }
        let mut outcomes = Vec::new();
        for order in [[0, 1, 2, 3, 4, 5], [5, 3, 1, 0, 2, 4]] {
            let mut s = State::with_sample();
            give_together(&mut s, &two, &order, None);
            outcomes.push(s.slots.slot(Slot::Tiger).message.clone());
        }
        assert_eq!(outcomes[0], outcomes[1]);
        let message = outcomes[0].clone().unwrap().unwrap_err();
        assert!(message.starts_with("6 files make 2 TigerXML sets (a-align.sta.xml with a-en.tiger, a-nl.tiger; b-align.sta.xml with b-en.tiger, b-nl.tiger)"), "{message}");
    }

    #[test]
    fn files_given_are_read_by_an_effect_and_a_translation_model_goes_unread() {
        let mut s = State::with_sample();
        let names = ["a.src", "m.json", "big.tlmt", "x.txt"];
        let files = names.into_iter().zip(1..).map(|(n, k)| (n.into(), FileHandle(k))).collect();
        let effects = s.apply(Action::Load(LoadAction::FilesGiven { files, slot: None }));
        let read = |file, name: &str, slot, sniff_mt| Effect::ReadFile {
            file: FileHandle(file),
            name: name.into(),
            slot,
            sniff_mt,
        };
        assert_eq!(effects.len(), 4, "{effects:?}");
        assert_eq!(effects[0], read(1, "a.src", None, false));
        assert_eq!(effects[1], read(2, "m.json", None, true), "a .json file's head says which model it is");
        assert!(
            matches!(&effects[2], Effect::PostFile(Request::LoadMtFile { name, .. }, FileHandle(3)) if name == "big.tlmt")
        );
        assert_eq!(effects[3], read(4, "x.txt", None, false), "routed once read (a stray, then)");
        // Picked for a slot: read for it, whatever the name.
        let picked = vec![("a.txt".into(), FileHandle(5))];
        let effects = s.apply(Action::Load(LoadAction::FilesGiven { files: picked, slot: Some(Slot::Gold) }));
        assert_eq!(effects, vec![read(5, "a.txt", Some(Slot::Gold), false)]);
    }
}
