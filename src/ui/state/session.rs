//! What the page keeps for the next visit ([`Session`]: the files in use
//! as given, a model trained here, the hand links, the pair, the mode and
//! the settings), restored through the normal load path; *start fresh*;
//! and the page's address (`#pair=12&mode=teach`, `?exercise=FILE.json`).

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::{
    Annotation, Effect, FileHandle, Lambda, LoadAction, Loaded, LoadedAlignmentModel, Mode, ModelOrigin, MtChoices,
    MtSource, MtUpload, SelectAction, Selection, Shared, Slot, Slots, State, Teach, TrainForm, TrainedOn, Upload,
};
use crate::corpus::PairIndex;
use crate::tree::NodeId;
use crate::ui::classroom::{Classroom, ExerciseAction};
use crate::ui::folds::{Folds, SavedFolds};

/// Where the page's address points: a pair (0-based) and a mode, each if given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Location {
    pub pair: Option<PairIndex>,
    pub mode: Option<Mode>,
}

impl Location {
    /// Reads an address's fragment, `#pair=12&mode=teach` (pair numbers
    /// from 1, as the page shows them); what it does not know is ignored.
    pub fn parse(hash: &str) -> Location {
        let mut location = Location::default();
        for field in hash.trim_start_matches('#').split('&') {
            match field.split_once('=') {
                Some(("pair", n)) => location.pair = n.parse::<usize>().ok().and_then(PairIndex::from_number),
                Some(("mode", m)) => location.mode = Mode::ALL.into_iter().find(|mode| mode.name() == m),
                _ => {}
            }
        }
        location
    }
}

/// What survives a reload ([`State::session`], kept by the page in
/// IndexedDB): each part's kept fields, as the part serialises them.
/// The files in use come back as they were given (replayed through the
/// normal load path, so nothing is read differently), then what was shown
/// on their pairs ([`Shown`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub version: u32,
    #[serde(flatten)]
    pub texts: SessionFiles,
    #[serde(flatten)]
    pub shown: Shown,
    #[serde(flatten)]
    pub form: TrainForm,
    pub lambda: Lambda,
    #[serde(flatten)]
    pub mt: MtChoices,
    #[serde(flatten)]
    pub classroom: Classroom,
}

/// The large part of a [`Session`], kept apart from the rest (which
/// changes with every click): the files in use and the models' texts.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SessionFiles {
    /// The files in use, as given (before any swap), in the order to load them.
    pub files: Vec<SavedFile>,
    /// An alignment model trained in the page: (summary, file text).
    pub alignment_model: Option<(String, String)>,
    /// Its kept configuration's options (*Annotate* updates the model with them).
    #[serde(default)]
    pub alignment_model_kept: Option<String>,
    /// The translation model held: its file name and, unless the page holds
    /// it as a file (kept apart, as a file), its text.
    pub translation_model: Option<(String, Option<String>)>,
}

/// What a session keeps of what was shown on the pairs, applied once its
/// files have made them again (while they load, [`Keeping::restoring`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shown {
    /// Read the pairs the other way once loaded.
    pub sides_swapped: bool,
    pub pair: PairIndex,
    pub mode: Mode,
    /// The hand links.
    #[serde(with = "pair_list")]
    pub links: BTreeMap<PairIndex, Vec<(NodeId, NodeId)>>,
    pub reveal_gold: bool,
    /// The folded sub-trees, on the pairs as shown (after any swap).
    #[serde(default)]
    pub folds: Vec<SavedFolds>,
    /// The alignment model trained in the page saw the pairs (as shown)
    /// before this one, if it was trained on the pairs the files make: its
    /// `TrainedOn::first_unseen`.
    #[serde(default, rename = "alignment_model_seen")]
    pub model_first_unseen: Option<usize>,
    /// And the pairs accepted that *Annotate*'s updates trained it on: `TrainedOn::annotated`.
    #[serde(default, rename = "alignment_model_annotated")]
    pub model_annotated: Vec<usize>,
    /// What was shown before the open exercise (*Leave the exercise* brings it back).
    #[serde(default)]
    pub before_exercise: Option<Box<Shown>>,
    /// The open exercise's links were checked (*Check*), and are not changed since.
    #[serde(default)]
    pub checked: bool,
    /// The annotation: edits, pairs accepted, the order.
    #[serde(default)]
    pub annotation: Annotation,
}

impl Shown {
    /// What is shown of `loaded`: the pair, the mode, the hand links and
    /// the folds (nothing before an exercise, no model, no check).
    pub(super) fn of(loaded: &Loaded, selection: &Selection, teach: &Teach, folds: &Folds) -> Shown {
        Shown {
            sides_swapped: loaded.sides_swapped,
            pair: selection.pair,
            mode: selection.mode,
            links: teach.links.clone(),
            reveal_gold: teach.reveal_gold,
            folds: folds.saved(loaded.gen),
            model_first_unseen: None,
            model_annotated: Vec::new(),
            before_exercise: None,
            checked: false,
            annotation: Annotation::default(),
        }
    }
}

/// A map kept as a list of (key, value) pairs: JSON names an object's
/// fields by text only.
pub(crate) mod pair_list {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<K: Serialize, V: Serialize, S: Serializer>(map: &BTreeMap<K, V>, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(map)
    }

    pub fn deserialize<'de, K, V, D>(d: D) -> Result<BTreeMap<K, V>, D::Error>
    where
        K: Deserialize<'de> + Ord,
        V: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        Vec::<(K, V)>::deserialize(d).map(|pairs| pairs.into_iter().collect())
    }
}

impl Session {
    /// The layout of [`Session`]; a session of another version is not restored.
    pub const VERSION: u32 = 1;

    /// The session without its files and models' texts, and those.
    pub fn split(mut self) -> (Session, SessionFiles) {
        let texts = std::mem::take(&mut self.texts);
        (self, texts)
    }

    /// A session put together from its two parts ([`Session::split`]).
    pub fn join(self, texts: SessionFiles) -> Session {
        Session { texts, ..self }
    }
}

/// What the files of a session are, cheaply (each text by its place in
/// memory and its length, as the state shares texts and never changes
/// one in place): a session's [`SessionFiles`] are written again only
/// when this changes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FilesKey(Vec<(String, usize, usize)>);

/// A file in use, as the user gave it (its text shared with the state's,
/// so that keeping a session copies no file).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedFile {
    pub slot: Slot,
    pub name: String,
    pub text: Rc<str>,
}

/// Why the session could not be kept for the next visit (the page's
/// persistence says so, `SessionAction::Kept`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeepProblem {
    /// The browser refused to write it (why).
    Failed(String),
    /// Another tab (or window) changed what is kept since this one read or
    /// wrote it: this tab's work is not written over it unless asked.
    OtherTab,
}

/// Reading the session kept from the last visit, and keeping this one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Keeping {
    /// The page has read what it kept from the last visit (restored, or
    /// nothing kept): until then it shows that it is loading, so nothing
    /// done on the pairs is overwritten by the session arriving.
    pub read: bool,
    /// A session being restored: what it shows once its files are loaded.
    pub restoring: Option<Shown>,
    /// The last attempt's problem; `None` once kept.
    pub problem: Option<KeepProblem>,
    /// Asked to write again (*Try again*, *Keep this tab's work*): the page
    /// writes whenever this changes.
    pub attempt: u32,
    /// The next write replaces what another tab kept.
    pub overwrite: bool,
}

/// The exercise file a page address's query names (`?exercise=FILE.json`),
/// percent-decoded (as `decodeURIComponent`; kept as written if that fails).
pub fn exercise_address(query: &str) -> Option<String> {
    let value = query.trim_start_matches('?').split('&').find_map(|kv| kv.strip_prefix("exercise="))?;
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[k], bytes.get(k + 1).copied().and_then(hex), bytes.get(k + 2).copied().and_then(hex)) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                k += 3;
            }
            (b'%', ..) => return Some(value.to_string()),
            (b, ..) => {
                out.push(b);
                k += 1;
            }
        }
    }
    Some(String::from_utf8(out).unwrap_or_else(|_| value.to_string()))
}

/// The files in use of `slots`, in the order to load them (an open
/// exercise's after the trees: its pairs are the ones shown, and hand
/// links are on them; its answers after it).
fn kept_files(slots: &Slots, exercise_open: bool) -> impl Iterator<Item = (Slot, &Upload)> {
    const ORDER: [Slot; 15] = [
        Slot::Source,
        Slot::Target,
        Slot::Gold,
        Slot::Tiger,
        Slot::Dublin,
        // The dev and test sets given as files follow the pairs loaded.
        Slot::DevSet,
        Slot::TestSet,
        Slot::WordLinks,
        // The vocabularies before the tables of ids read with them.
        Slot::Vcb,
        Slot::LexS2t,
        Slot::LexT2s,
        Slot::Model,
        Slot::Lm,
        // An open exercise after the trees: its pairs are the ones shown (and hand links are on them).
        Slot::Exercise,
        Slot::Answers,
    ];
    ORDER
        .into_iter()
        .filter(move |&slot| exercise_open || !matches!(slot, Slot::Exercise | Slot::Answers))
        .flat_map(move |slot| slots.slot(slot).kept.iter().map(move |u| (slot, u)))
}

/// What the page asks of its session and its address.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionAction {
    /// The session kept from the last visit, with the translation model file kept apart.
    Restore { session: Box<Session>, mt_file: Option<FileHandle> },
    /// Nothing was kept from a last visit (or it could not be read).
    NothingKept,
    /// Start fresh: the built-in sample and the default settings (the page forgets the kept session).
    StartFresh,
    /// The page's address changed (on load, back/forward, a shared link): its fragment.
    OpenLocation(String),
    /// The page's address query on start (`?exercise=FILE.json` opens that exercise).
    OpenQuery(String),
    /// How the last attempt to keep the session went (from the page's persistence).
    Kept(Result<(), KeepProblem>),
    /// Write the session again (after a failure); `overwrite`: over what another tab kept.
    KeepAgain { overwrite: bool },
    /// Load what another tab kept instead of this tab's work (the page reloads).
    LoadKept,
}

impl State {
    /// The page's address fragment for the pair and mode shown.
    pub fn location(&self) -> String {
        format!("#pair={}&mode={}", self.selection.pair.number(), self.selection.mode.name())
    }

    /// What a session keeps for the next visit (see [`Session`]).
    pub fn session(&self) -> Session {
        self.session_light().join(self.session_files())
    }

    /// Whether the pairs in use are read the other way (the files are kept as given):
    /// those shown, or those shown before the open exercise.
    fn files_swapped(&self) -> bool {
        self.before_exercise.as_ref().map_or(self.loaded.sides_swapped, |b| b.loaded.sides_swapped)
    }

    /// What identifies [`State::session_files`], cheaply (see [`FilesKey`]).
    pub fn files_key(&self) -> FilesKey {
        let text = |t: &str| (t.as_ptr() as usize, t.len());
        // The files in use as the slots hold them now.
        let mut key: Vec<(String, usize, usize)> = kept_files(&self.slots, self.classroom.open.is_some())
            .map(|(slot, u)| (format!("{slot:?} {}", u.name), text(&u.text).0, text(&u.text).1))
            .collect();
        key.push((format!("swapped {}", self.files_swapped()), 0, 0));
        if let Some(m) = self.trained_model() {
            key.push((format!("model {}", m.summary), text(&m.json).0, text(&m.json).1));
        }
        if let Some(h) = &self.mt.held {
            let (at, len) = match &h.source {
                MtSource::Text(t) => text(t),
                MtSource::File(f) => (f.0 as usize, 0),
            };
            key.push((format!("mt {}", h.name), at, len));
        }
        FilesKey(key)
    }

    /// The alignment model trained in this page, which the session keeps (an uploaded one is kept as its file).
    fn trained_model(&self) -> Option<&LoadedAlignmentModel> {
        self.alignment.model.as_ref().filter(|m| m.origin == ModelOrigin::TrainedHere)
    }

    /// The large part of the session: the files in use as given (a swap
    /// is done again after they load) and the models' texts.
    pub fn session_files(&self) -> SessionFiles {
        let saved = |(slot, u): (Slot, &Upload)| SavedFile { slot, name: u.name.clone(), text: u.text.0.clone() };
        let mut given = self.slots.clone();
        if self.files_swapped() {
            given.swap_sides();
        }
        let files = kept_files(&given, self.classroom.open.is_some()).map(saved).collect();
        SessionFiles {
            files,
            alignment_model: self.trained_model().map(|m| (m.summary.clone(), m.json.to_string())),
            alignment_model_kept: self.trained_model().and_then(|m| m.kept.clone()),
            translation_model: self.mt.held.as_ref().map(|h| {
                let text = match &h.source {
                    MtSource::Text(t) => Some(t.to_string()),
                    MtSource::File(_) => None,
                };
                (h.name.clone(), text)
            }),
        }
    }

    /// The session without its files and models' texts (see [`SessionFiles`]).
    pub fn session_light(&self) -> Session {
        let trained_on = self.trained_model().and_then(|m| m.trained_on.as_ref()).filter(|t| t.gen == self.loaded.gen);
        Session {
            version: Session::VERSION,
            texts: SessionFiles::default(),
            shown: Shown {
                model_first_unseen: trained_on.map(|t| t.first_unseen),
                model_annotated: trained_on.map_or_else(Vec::new, |t| t.annotated.to_vec()),
                before_exercise: self.before_exercise.as_ref().map(|b| Box::new(b.saved())),
                checked: self.classroom.checks.is_some(),
                annotation: self.annotation.clone(),
                ..Shown::of(&self.loaded, &self.selection, &self.teach, &self.folds)
            },
            form: TrainForm { advanced: false, ..self.form.clone() },
            lambda: self.lambda.clone(),
            mt: self.mt.choices,
            classroom: self.classroom.kept(),
        }
    }

    /// [`SessionAction::Restore`]: the parts' settings at once, the files
    /// through the normal load path, then what was shown on their pairs.
    fn restore(&mut self, session: Session, mt_file: Option<FileHandle>) -> Vec<Effect> {
        if session.version != Session::VERSION {
            return Vec::new();
        }
        let mut effects = Vec::new();
        (self.form, self.lambda, self.mt.choices) = (session.form, session.lambda, session.mt);
        self.form.advanced = self.form.sets_advanced();
        self.classroom = session.classroom;
        let texts = session.texts;
        if let Some((summary, json)) = texts.alignment_model {
            self.alignment.model = Some(LoadedAlignmentModel {
                json: json.into(),
                origin: ModelOrigin::TrainedHere,
                summary,
                trained_on: None,
                kept: texts.alignment_model_kept,
            });
        }
        match (texts.translation_model, mt_file) {
            (Some((name, _)), Some(file)) => {
                effects.extend(self.load(LoadAction::MtFilePicked { name, file }));
            }
            (Some((name, Some(text))), None) => {
                effects.push(self.upload_mt(MtUpload { name, source: MtSource::Text(text.into()) }));
            }
            _ => {}
        }
        self.keeping.restoring = Some(session.shown);
        for f in texts.files {
            effects.extend(self.load(LoadAction::FileRead { name: f.name, text: Shared(f.text), slot: Some(f.slot) }));
        }
        if !self.slots.reading() {
            effects.extend(self.finish_restore());
        }
        effects
    }

    /// The rest of a restored session, once its files are loaded (and,
    /// after a swap, the vocabularies checked again).
    pub(super) fn finish_restore(&mut self) -> Vec<Effect> {
        let Some(r) = self.keeping.restoring.take() else { return Vec::new() };
        let mut effects = Vec::new();
        if r.sides_swapped {
            effects = self.swap_sides_checked();
        }
        // What was shown before the open exercise: its files were loaded as
        // given, so their inputs are swapped again if its pairs were.
        if let (Some(before), Some(saved)) = (&mut self.before_exercise, r.before_exercise) {
            if saved.sides_swapped && !before.loaded.sides_swapped {
                self.slots.swap_sides();
            }
            before.restore(*saved);
        }
        // The model saw these pairs again (a new generation of the same trees).
        if let (Some(m), Some(first_unseen)) = (&mut self.alignment.model, r.model_first_unseen) {
            if m.origin == ModelOrigin::TrainedHere {
                let mut annotated = r.model_annotated;
                annotated.sort_unstable();
                annotated.dedup();
                let annotated = annotated.into();
                m.trained_on = Some(TrainedOn { gen: self.loaded.gen, first_unseen, annotated });
            }
        }
        (self.teach.links, self.teach.reveal_gold) = (r.links, r.reveal_gold);
        self.annotation = r.annotation;
        self.folds = Folds::restored(self.loaded.gen, &r.folds, &self.loaded.corpus);
        self.selection.mode = r.mode;
        self.clear_selection();
        if r.pair.index() < self.loaded.corpus.len() {
            self.select_pair(r.pair);
        } else {
            self.selection.wanted_pair = Some(r.pair);
        }
        if r.checked {
            self.classroom.apply(ExerciseAction::Check, &self.loaded.corpus, &self.teach.links);
        }
        effects
    }

    /// A [`SessionAction`].
    pub(super) fn session_action(&mut self, action: SessionAction) -> Vec<Effect> {
        match action {
            SessionAction::Restore { session, mt_file } => {
                self.keeping.read = true;
                return self.restore(*session, mt_file);
            }
            SessionAction::NothingKept => self.keeping.read = true,
            SessionAction::StartFresh => {
                let (worker_gen, last_id) = (self.jobs.worker_gen.next(), self.jobs.last_id);
                *self = State::new();
                (self.jobs.worker_gen, self.jobs.last_id) = (worker_gen, last_id);
                self.keeping.read = true;
                let mut effects =
                    vec![Effect::ForgetSession, Effect::RestartJobWorker, Effect::SetLocation(self.location())];
                effects.extend(self.load(LoadAction::LoadSample));
                return effects;
            }
            SessionAction::OpenLocation(hash) => {
                let location = Location::parse(&hash);
                // The address wins over the session being restored.
                if let Some(r) = &mut self.keeping.restoring {
                    r.pair = location.pair.unwrap_or(r.pair);
                    r.mode = location.mode.unwrap_or(r.mode);
                }
                if let Some(mode) = location.mode {
                    self.select(SelectAction::SetMode(mode));
                }
                match location.pair {
                    Some(p) if p.index() >= self.loaded.corpus.len() => self.selection.wanted_pair = Some(p),
                    Some(p) => {
                        self.selection.wanted_pair = None;
                        self.select_pair(p);
                    }
                    None => {}
                }
            }
            SessionAction::OpenQuery(query) => {
                return exercise_address(&query).map(Effect::FetchExercise).into_iter().collect()
            }
            SessionAction::Kept(result) => {
                self.keeping.problem = result.err();
                if self.keeping.problem.is_none() {
                    self.keeping.overwrite = false;
                }
            }
            SessionAction::KeepAgain { overwrite } => {
                self.keeping.attempt = self.keeping.attempt.wrapping_add(1);
                self.keeping.overwrite = overwrite;
            }
            SessionAction::LoadKept => return vec![Effect::Reload],
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;
    use crate::align::primal::Solver;
    use crate::lexicon::WordModel;
    use crate::mt::model::SystemKind;
    use crate::mt::phrase::ExtractMethod;
    use crate::ui::folds::Side;
    use crate::ui::state::corpus::SAMPLE_NAME;

    #[test]
    fn the_address_names_the_pair_and_mode_and_opens_them() {
        let mut s = State::with_sample();
        assert_eq!(select_pair(&mut s, 11), vec![Effect::SetLocation("#pair=12&mode=inspect".into())]);
        assert_eq!(set_mode(&mut s, Mode::Teach), vec![Effect::SetLocation("#pair=12&mode=teach".into())]);
        assert!(select_pair(&mut s, 11).is_empty(), "no change, no new history entry");
        // Opening an address (back/forward, a shared link) adds no entry of its own.
        assert!(s.apply(Action::Session(SessionAction::OpenLocation("#pair=3&mode=steps".into()))).is_empty());
        assert_eq!((s.selection.pair.index(), s.selection.mode), (2, Mode::Steps));
        s.apply(Action::Session(SessionAction::OpenLocation("#mode=inspect&junk=1&pair=x".into())));
        assert_eq!((s.selection.pair.index(), s.selection.mode), (2, Mode::Inspect));
        s.apply(Action::Session(SessionAction::OpenLocation("#pair=0".into())));
        assert_eq!(s.selection.pair.index(), 2, "pairs count from 1");
        let fifth_taught = Location { pair: Some(PairIndex::new(4)), mode: Some(Mode::Teach) };
        assert_eq!(Location::parse("pair=5&mode=teach"), fifth_taught);
        // A pair beyond those loaded opens when pairs that have it arrive.
        let n = s.loaded.corpus.len();
        s.apply(Action::Session(SessionAction::OpenLocation(format!("#pair={}", n + 2))));
        assert_eq!((s.selection.pair.index(), s.selection.wanted_pair.map(PairIndex::index)), (2, Some(n + 1)));
        let many: String = (0..n + 5).map(|k| format!("(S (A a{k}))\n")).collect();
        read(&mut s, "m.src", &many, None);
        read(&mut s, "m.trg", &many, None);
        assert_eq!((s.selection.pair.index(), s.selection.wanted_pair.map(PairIndex::index)), (n + 1, None));
    }

    /// GIZA++ tables of ids and their two vocabularies are kept as given
    /// and read again on a reload, the swap done again after them.
    #[test]
    fn giza_tables_of_ids_and_their_vocabularies_are_kept_with_the_session() {
        let mut s = State::with_sample();
        read_pairs(&mut s, &["(S (A das) (B Haus))\n", "(T (C la) (D casa))\n"]);
        read(&mut s, "s2t.t3.final", "2 2 1\n3 3 1\n", Some(Slot::LexS2t));
        read(&mut s, "t2s.t3.final", "2 2 0.5\n3 3 1\n", Some(Slot::LexT2s));
        read(&mut s, "es.vcb", "2 la 1\n3 casa 1\n", None);
        read(&mut s, "de.vcb", "2 das 1\n3 Haus 1\n", None);
        run(&mut s, Action::Load(LoadAction::SwapSides));
        let lexicon = s.slots.lexicon_files().tables_lexicon(&s.loaded.corpus).unwrap().unwrap();
        // Swapped: p(t|s) is the t2s file's, conditioned on the Spanish words.
        assert_eq!((lexicon.p_t_given_s("das", "la"), lexicon.p_s_given_t("la", "das")), (0.5, 1.0));
        let session: Session = serde_json::from_str(&serde_json::to_string(&s.session()).unwrap()).unwrap();
        let kept: Vec<_> = session.texts.files.iter().map(|f| (f.slot, f.name.as_str())).collect();
        let slots = [Slot::Source, Slot::Target, Slot::Vcb, Slot::Vcb, Slot::LexS2t, Slot::LexT2s];
        let names = ["x.src", "x.trg", "es.vcb", "de.vcb", "s2t.t3.final", "t2s.t3.final"];
        assert_eq!(kept, slots.into_iter().zip(names).collect::<Vec<_>>());
        let r = restored(session);
        assert!(r.keeping.restoring.is_none() && r.loaded.sides_swapped);
        assert_eq!(format!("{:?}", r.slots.lexicon_files()), format!("{:?}", s.slots.lexicon_files()));
        assert_eq!(r.slots.lexicon_files().tables_lexicon(&r.loaded.corpus).unwrap(), Some(lexicon));
        for slot in [Slot::Vcb, Slot::LexS2t, Slot::LexT2s] {
            assert_eq!(r.slots.slot(slot).message, s.slots.slot(slot).message, "{slot:?}");
        }
        assert_read(&r, Slot::Vcb, "source es.vcb");
    }

    #[test]
    fn a_session_survives_a_reload_through_the_normal_load_path() {
        let mut s = State::with_sample();
        read_pairs(&mut s, &["(S (A a) (B b))\n(S (A c))\n", "(T (C c))\n(T (D d) (E e))\n", "0-0\n0-0\n"]);
        read(&mut s, "lex.e2f", "c a 0.5\n", None);
        read(&mut s, "lex.e2f", "broken", None); // refused: the good one is kept
        train_a_model(&mut s, 0.0);
        s.apply(Action::Job(JobAction::Cancel(None)));
        s.apply(Action::Train(TrainAction::Form(FormAction::SetField(Field::SEED, "9".into()))));
        s.apply(Action::SetLambda("0.3".into()));
        s.apply(Action::Translate(TranslateAction::SetWordModel(Some(WordModel::Hmm))));
        s.apply(Action::Translate(TranslateAction::SetTune(false)));
        s.apply(Action::Load(LoadAction::SwapSides));
        hand_link(&mut s, 1);
        s.apply(Action::Fold(FoldAction::Toggle(Side::Target, NodeId::new(0))));
        assert_eq!(s.folds.saved(s.loaded.gen), [(PairIndex::new(1), vec![], vec![NodeId::new(0)])]);
        let session = s.session();
        let json = serde_json::to_string(&session).unwrap();
        let session: Session = serde_json::from_str(&json).unwrap();
        let names: Vec<_> = session.texts.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["x.src", "x.trg", "x.gold", "lex.e2f"]);
        assert_eq!(session.texts.files[3].slot, Slot::LexS2t, "kept as given, before the swap");
        let r = restored(session);
        assert!(r.keeping.restoring.is_none());
        assert_eq!(
            (&r.loaded.corpus, &r.loaded.name, r.loaded.sides_swapped),
            (&s.loaded.corpus, &s.loaded.name, true)
        );
        assert_eq!((r.selection.pair.index(), r.selection.mode, &r.teach.links), (1, Mode::Teach, &s.teach.links));
        assert_eq!(r.student_links(), [(NodeId::new(0), NodeId::new(0))]);
        assert_eq!(r.folds.saved(r.loaded.gen), s.folds.saved(s.loaded.gen), "the folds, on the swapped pairs");
        assert!(r.form.advanced, "the seed typed: the Advanced settings open");
        let form = TrainForm { advanced: false, ..r.form.clone() };
        assert_eq!((&form, &r.lambda.text, r.lambda.value), (&s.form, &s.lambda.text, 0.3));
        let pinned = MtChoices { word_model: Some(WordModel::Hmm), tune: false, ..MtChoices::default() };
        assert_eq!(r.mt.choices, pinned);
        // The model was trained before the swap: the pairs as shown are not the ones it saw.
        let trained_on = s.alignment.model.as_ref().and_then(|m| m.trained_on.as_ref());
        assert_eq!(trained_on.map(|t| t.gen == s.loaded.gen), Some(false));
        let unmarked = s.alignment.model.clone().map(|m| LoadedAlignmentModel { trained_on: None, ..m });
        assert_eq!(format!("{:?}", r.alignment.model), format!("{unmarked:?}"));
        assert_eq!(format!("{:?}", r.slots.lexicon_files()), format!("{:?}", s.slots.lexicon_files()));
        // The address wins over the session's pair and mode.
        let mut r = State::with_sample();
        let effects =
            r.apply(Action::Session(SessionAction::Restore { session: Box::new(s.session()), mt_file: None }));
        r.apply(Action::Session(SessionAction::OpenLocation("#pair=1&mode=inspect".into())));
        for asked in loads(&effects) {
            answer_load(&mut r, &asked);
        }
        assert_eq!((r.selection.pair.index(), r.selection.mode), (0, Mode::Inspect));
        // Start fresh: the sample and the defaults, and the kept session forgotten.
        let effects = r.apply(Action::Session(SessionAction::StartFresh));
        assert!(effects.contains(&Effect::ForgetSession), "{effects:?}");
        assert_eq!((r.loaded.name.as_str(), r.teach.links.len(), r.alignment.model.is_none()), (SAMPLE_NAME, 0, true));
    }

    #[test]
    fn the_address_query_opens_the_exercise_it_names() {
        let mut s = State::with_sample();
        assert!(s.apply(Action::Session(SessionAction::OpenQuery(String::new()))).is_empty());
        assert!(s.apply(Action::Session(SessionAction::OpenQuery("?lang=de".into()))).is_empty());
        let effects = s.apply(Action::Session(SessionAction::OpenQuery("?a=1&exercise=week%201%2Fe.json".into())));
        assert_eq!(effects, vec![Effect::FetchExercise("week 1/e.json".into())]);
        assert_eq!(exercise_address("?exercise=bad%zz.json"), Some("bad%zz.json".into()), "kept as written");
        assert_eq!(exercise_address("?exercise=%C3%A9.json"), Some("é.json".into()));
    }

    #[test]
    fn the_page_starts_by_reading_the_sample_and_a_session_waits_for_it() {
        let mut s = State::new();
        assert!(s.loaded.corpus.is_empty());
        let effects = s.apply(Action::Load(LoadAction::LoadSample));
        let [Effect::Load(job, request)] = effects.as_slice() else { panic!("{effects:?}") };
        assert!(request.sample && request.files.is_empty());
        assert_eq!(s.corpus_summary(), format!("{SAMPLE_NAME}: reading it…"), "not the counts of the pairs shown");
        // Hand links on the sample, kept from the last visit, restored before the sample arrives.
        let mut kept = State::with_sample();
        hand_link(&mut kept, 2);
        let session = kept.session();
        assert!(session.texts.files.is_empty());
        s.apply(Action::Session(SessionAction::Restore { session: Box::new(session), mt_file: None }));
        assert!(s.keeping.restoring.is_some(), "the session waits for the sample");
        answer_load(&mut s, &(*job, request.clone()));
        assert_eq!((s.loaded.corpus.as_ref(), s.loaded.name.as_str()), (kept.loaded.corpus.as_ref(), SAMPLE_NAME));
        let root = [(NodeId::new(0), NodeId::new(0))];
        assert_eq!((s.selection.pair.index(), s.selection.mode, s.student_links()), (2, Mode::Teach, &root[..]));
        assert!(s.keeping.restoring.is_none() && s.slots.sample_loading.is_none());
        assert!(s.corpus_summary().ends_with(": 157 pairs, 10920 nodes, 1218 gold links"), "{}", s.corpus_summary());
    }

    /// A session kept by the current version (the page's own JSON, kept
    /// before the parts serialised themselves) restores every setting.
    #[test]
    fn a_session_kept_by_this_version_restores() {
        let json = include_str!("../../../tests/data/page-session-v1.json");
        let session: Session = serde_json::from_str(json).unwrap();
        let r = restored(session.clone());
        assert!(r.keeping.restoring.is_none() && r.keeping.read);
        assert_eq!(r.loaded.name, "Uploaded x.src / x.trg");
        assert_eq!((r.loaded.corpus.len(), r.loaded.sides_swapped), (2, true));
        assert_eq!((r.selection.pair.index(), r.selection.mode), (1, Mode::Teach));
        assert_eq!(r.student_links(), [(NodeId::new(0), NodeId::new(0))]);
        assert!(r.teach.reveal_gold);
        assert_eq!(r.folds.saved(r.loaded.gen), [(PairIndex::new(1), vec![], vec![NodeId::new(0)])]);
        let form = &r.form;
        assert_eq!((form.value(Field::SEED), form.value(Field::MAX_EXAMPLES)), ("9", "all"));
        assert_eq!(
            (form.setting, form.solver, form.word_model),
            (Setting::Paper, Solver::Linear, Some(WordModel::Hmm))
        );
        assert!(form.stem_backoff && form.calibrate && form.test);
        assert!(form.advanced, "a kept session that sets Advanced settings shows them");
        assert!(!TrainForm::default().sets_advanced() && !State::with_sample().form.advanced);
        assert_eq!((r.lambda.text.as_str(), r.lambda.value), ("0.3", 0.3));
        assert_eq!((r.mt.choices.system, r.mt.choices.extract), (SystemKind::Ms, Some(ExtractMethod::Word)));
        assert_eq!((r.classroom.student.as_str(), r.classroom.form.pairs.as_str()), ("Ana", "1, 2"));
        assert_eq!(r.alignment.model.as_ref().map(|m| m.summary.as_str()), Some("a model"));
        let given = [Slot::LexS2t, Slot::LexT2s].map(|x| r.slots.slot(x).ok_file().map(|u| u.name.as_str()));
        assert_eq!(given, [None, Some("lex.e2f")], "swapped: the table given as p(t|s) is the other side's now");
        // What it keeps again is what it read.
        assert_eq!(r.session(), session);
        // What was shown before an open exercise, as this version kept it, reads as what is shown.
        let before =
            r#"{"pair":2,"mode":"Teach","links":[[2,[[0,0]]]],"reveal_gold":false,"folds":[],"sides_swapped":true}"#;
        let before: Shown = serde_json::from_str(before).unwrap();
        assert_eq!((before.pair.index(), before.mode, before.sides_swapped), (2, Mode::Teach, true));
        assert_eq!(before.links[&PairIndex::new(2)], [(NodeId::new(0), NodeId::new(0))]);
    }
}
