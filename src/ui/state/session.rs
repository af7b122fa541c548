//! What the page keeps for the next visit ([`Session`]: the files in use
//! as given, a model trained here, the hand links, the pair, the mode and
//! the settings), restored through the normal load path; *start fresh*;
//! and the page's address (`#pair=12&mode=teach`, `?exercise=FILE.json`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    Effect, Field, FileHandle, LoadAction, LoadedAlignmentModel, Mode, ModelOrigin, MtSource, MtUpload, SelectAction,
    Slot, State, TrainedOn,
};
use crate::lexicon::WordModel;
use crate::mt::model::SystemKind;
use crate::mt::phrase::ExtractMethod;
use crate::tree::NodeId;
use crate::ui::folds::{Folds, SavedFolds};

/// Where the page's address points: a pair (0-based) and a mode, each if given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Location {
    pub pair: Option<usize>,
    pub mode: Option<Mode>,
}

impl Location {
    /// Reads an address's fragment, `#pair=12&mode=teach` (pair numbers
    /// from 1, as the page shows them); what it does not know is ignored.
    pub fn parse(hash: &str) -> Location {
        let mut location = Location::default();
        for field in hash.trim_start_matches('#').split('&') {
            match field.split_once('=') {
                Some(("pair", n)) => location.pair = n.parse::<usize>().ok().and_then(|n| n.checked_sub(1)),
                Some(("mode", m)) => location.mode = Mode::ALL.into_iter().find(|mode| mode.name() == m),
                _ => {}
            }
        }
        location
    }
}

/// What survives a reload ([`State::session`], kept by the page in
/// IndexedDB): the files in use as they were given (replayed through the
/// normal load path, so nothing is read differently), a model trained in
/// the page, the hand links, the pair, the mode and the settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub version: u32,
    /// The files in use, as given (before any swap), in the order to load them.
    pub files: Vec<SavedFile>,
    /// Read the pairs the other way once loaded.
    pub sides_swapped: bool,
    /// An alignment model trained in the page: (summary, file text).
    pub alignment_model: Option<(String, String)>,
    /// The translation model held: its file name and, unless the page holds
    /// it as a file (kept apart, as a file), its text.
    pub translation_model: Option<(String, Option<String>)>,
    pub pair: usize,
    pub mode: Mode,
    pub links: Vec<(usize, Vec<(NodeId, NodeId)>)>,
    pub reveal_gold: bool,
    pub form: Vec<(Field, String)>,
    pub lambda: String,
    pub mt_system: SystemKind,
    pub mt_extract: ExtractMethod,
    /// The folded sub-trees, on the pairs as shown (after any swap).
    #[serde(default)]
    pub folds: Vec<SavedFolds>,
    /// The training form's choices beyond its fields.
    #[serde(default)]
    pub word_model: WordModel,
    #[serde(default)]
    pub stem_backoff: bool,
    #[serde(default)]
    pub calibrate: bool,
    #[serde(default)]
    pub test: bool,
    /// The alignment model trained in the page saw the pairs (as shown)
    /// before this one, if it was trained on the pairs the files make: its
    /// `TrainedOn::first_unseen` (named as kept sessions name it).
    #[serde(default)]
    pub alignment_model_seen: Option<usize>,
    /// The student's name for the open exercise's answers.
    #[serde(default)]
    pub student: String,
}

/// A file in use, as the user gave it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedFile {
    pub slot: Slot,
    pub name: String,
    pub text: String,
}

impl Session {
    /// The layout of [`Session`]; a session of another version is not restored.
    pub const VERSION: u32 = 1;
}

/// What a restored session still applies once its files are loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct Restoring {
    /// The restored alignment model was trained on the pairs before this one.
    pub model_first_unseen: Option<usize>,
    pub sides_swapped: bool,
    pub pair: usize,
    pub mode: Mode,
    pub links: BTreeMap<usize, Vec<(NodeId, NodeId)>>,
    pub folds: Vec<SavedFolds>,
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

/// What the page asks of its session and its address.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionAction {
    /// The session kept from the last visit, with the translation model file kept apart.
    Restore { session: Box<Session>, mt_file: Option<FileHandle> },
    /// Start fresh: the built-in sample and the default settings (the page forgets the kept session).
    StartFresh,
    /// The page's address changed (on load, back/forward, a shared link): its fragment.
    OpenLocation(String),
    /// The page's address query on start (`?exercise=FILE.json` opens that exercise).
    OpenQuery(String),
}

impl State {
    /// The page's address fragment for the pair and mode shown.
    pub fn location(&self) -> String {
        format!("#pair={}&mode={}", self.selection.pair + 1, self.selection.mode.name())
    }

    /// What a session keeps for the next visit (see [`Session`]).
    pub fn session(&self) -> Session {
        // The files as given: a swap is done again after they load.
        let mut given = self.clone();
        if given.sides_swapped {
            given.swap_sides();
        }
        let order = [
            Slot::Source,
            Slot::Target,
            Slot::Gold,
            Slot::Tiger,
            Slot::WordLinks,
            Slot::LexS2t,
            Slot::LexT2s,
            Slot::Model,
            Slot::Lm,
            // An open exercise after the trees: its pairs are the ones shown (and hand links are on them).
            Slot::Exercise,
            Slot::Answers,
        ];
        let exercise_open = self.classroom.open.is_some();
        let files = order
            .iter()
            .filter(|&&slot| exercise_open || !matches!(slot, Slot::Exercise | Slot::Answers))
            .flat_map(|&slot| {
                let kept = &given.slots.slot(slot).kept;
                kept.iter().map(move |u| SavedFile { slot, name: u.name.clone(), text: u.text.to_string() })
            })
            .collect();
        let trained = self.alignment.model.as_ref().filter(|m| m.origin == ModelOrigin::TrainedHere);
        Session {
            version: Session::VERSION,
            files,
            sides_swapped: self.sides_swapped,
            alignment_model: trained.map(|m| (m.summary.clone(), m.json.to_string())),
            translation_model: self.mt.held.as_ref().map(|h| {
                let text = match &h.source {
                    MtSource::Text(t) => Some(t.to_string()),
                    MtSource::File(_) => None,
                };
                (h.name.clone(), text)
            }),
            pair: self.selection.pair,
            mode: self.selection.mode,
            links: self.teach.links.iter().map(|(k, l)| (*k, l.clone())).collect(),
            reveal_gold: self.teach.reveal_gold,
            form: self.form.values.iter().map(|(f, v)| (*f, v.clone())).collect(),
            lambda: self.lambda.text.clone(),
            mt_system: self.mt.system,
            mt_extract: self.mt.extract,
            folds: self.folds.saved(self.corpus_gen),
            word_model: self.form.word_model,
            stem_backoff: self.form.stem_backoff,
            calibrate: self.form.calibrate,
            test: self.form.test,
            alignment_model_seen: trained
                .and_then(|m| m.trained_on)
                .filter(|t| t.gen == self.corpus_gen)
                .map(|t| t.first_unseen),
            student: self.classroom.student.clone(),
        }
    }

    /// [`SessionAction::Restore`]: the settings at once, the files through the
    /// normal load path; the swap, hand links, pair and mode once they are loaded.
    fn restore(&mut self, session: Session, mt_file: Option<FileHandle>) -> Vec<Effect> {
        if session.version != Session::VERSION {
            return Vec::new();
        }
        let mut effects = Vec::new();
        for (field, value) in session.form {
            self.form.values.insert(field, value);
        }
        (self.form.word_model, self.form.stem_backoff) = (session.word_model, session.stem_backoff);
        (self.form.calibrate, self.form.test) = (session.calibrate, session.test);
        self.form.errors = self.form.options().err().unwrap_or_default();
        self.lambda.set(session.lambda);
        self.classroom.student = session.student;
        (self.mt.system, self.mt.extract) = (session.mt_system, session.mt_extract);
        self.teach.reveal_gold = session.reveal_gold;
        if let Some((summary, json)) = session.alignment_model {
            self.alignment.model = Some(LoadedAlignmentModel {
                json: json.into(),
                origin: ModelOrigin::TrainedHere,
                summary,
                trained_on: None,
            });
        }
        match (session.translation_model, mt_file) {
            (Some((name, _)), Some(file)) => {
                effects.extend(self.load(LoadAction::MtFilePicked { name, file }));
            }
            (Some((name, Some(text))), None) => {
                effects.push(self.upload_mt(MtUpload { name, source: MtSource::Text(text.into()) }));
            }
            _ => {}
        }
        self.restoring = Some(Restoring {
            model_first_unseen: session.alignment_model_seen,
            sides_swapped: session.sides_swapped,
            pair: session.pair,
            mode: session.mode,
            links: session.links.into_iter().collect(),
            folds: session.folds,
        });
        for f in session.files {
            effects.extend(self.load(LoadAction::FileRead { name: f.name, text: f.text, slot: Some(f.slot) }));
        }
        if !self.slots.reading() {
            self.finish_restore();
        }
        effects
    }

    /// The rest of a restored session, once its files are loaded.
    pub(super) fn finish_restore(&mut self) {
        let Some(r) = self.restoring.take() else { return };
        if r.sides_swapped {
            self.swap_sides();
        }
        // The model saw these pairs again (a new generation of the same trees).
        if let (Some(m), Some(first_unseen)) = (&mut self.alignment.model, r.model_first_unseen) {
            if m.origin == ModelOrigin::TrainedHere {
                m.trained_on = Some(TrainedOn { gen: self.corpus_gen, first_unseen });
            }
        }
        self.teach.links = r.links;
        self.folds = Folds::restored(self.corpus_gen, &r.folds, &self.corpus);
        self.selection.mode = r.mode;
        self.clear_selection();
        if r.pair < self.corpus.len() {
            self.select_pair(r.pair);
        } else {
            self.selection.wanted_pair = Some(r.pair);
        }
    }

    /// A [`SessionAction`].
    pub(super) fn session_action(&mut self, action: SessionAction) -> Vec<Effect> {
        match action {
            SessionAction::Restore { session, mt_file } => self.restore(*session, mt_file),
            SessionAction::StartFresh => {
                let worker_gen = self.jobs.worker_gen.next();
                let last_job = self.last_job;
                *self = State::new();
                (self.jobs.worker_gen, self.last_job) = (worker_gen, last_job);
                let mut effects =
                    vec![Effect::ForgetSession, Effect::RestartJobWorker, Effect::SetLocation(self.location())];
                effects.extend(self.load(LoadAction::LoadSample));
                effects
            }
            SessionAction::OpenLocation(hash) => {
                let location = Location::parse(&hash);
                // The address wins over the session being restored.
                if let Some(r) = &mut self.restoring {
                    r.pair = location.pair.unwrap_or(r.pair);
                    r.mode = location.mode.unwrap_or(r.mode);
                }
                if let Some(mode) = location.mode {
                    self.select(SelectAction::SetMode(mode));
                }
                match location.pair {
                    Some(p) if p >= self.corpus.len() => self.selection.wanted_pair = Some(p),
                    Some(p) => {
                        self.selection.wanted_pair = None;
                        self.select_pair(p);
                    }
                    None => {}
                }
                Vec::new()
            }
            SessionAction::OpenQuery(query) => {
                exercise_address(&query).map(Effect::FetchExercise).into_iter().collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;
    use crate::ui::folds::Side;
    use crate::ui::load;

    #[test]
    fn the_address_names_the_pair_and_mode_and_opens_them() {
        let mut s = State::with_sample();
        assert_eq!(
            s.apply(Action::Select(SelectAction::SelectPair(11))),
            vec![Effect::SetLocation("#pair=12&mode=inspect".into())]
        );
        assert_eq!(
            s.apply(Action::Select(SelectAction::SetMode(Mode::Teach))),
            vec![Effect::SetLocation("#pair=12&mode=teach".into())]
        );
        assert!(s.apply(Action::Select(SelectAction::SelectPair(11))).is_empty(), "no change, no new history entry");
        // Opening an address (back/forward, a shared link) adds no entry of its own.
        assert!(s.apply(Action::Session(SessionAction::OpenLocation("#pair=3&mode=steps".into()))).is_empty());
        assert_eq!((s.selection.pair, s.selection.mode), (2, Mode::Steps));
        s.apply(Action::Session(SessionAction::OpenLocation("#mode=inspect&junk=1&pair=x".into())));
        assert_eq!((s.selection.pair, s.selection.mode), (2, Mode::Inspect));
        s.apply(Action::Session(SessionAction::OpenLocation("#pair=0".into())));
        assert_eq!(s.selection.pair, 2, "pairs count from 1");
        assert_eq!(Location::parse("pair=5&mode=teach"), Location { pair: Some(4), mode: Some(Mode::Teach) });
        // A pair beyond those loaded opens when pairs that have it arrive.
        let n = s.corpus.len();
        s.apply(Action::Session(SessionAction::OpenLocation(format!("#pair={}", n + 2))));
        assert_eq!((s.selection.pair, s.selection.wanted_pair), (2, Some(n + 1)));
        let many: String = (0..n + 5).map(|k| format!("(S (A a{k}))\n")).collect();
        read(&mut s, "m.src", &many, None);
        read(&mut s, "m.trg", &many, None);
        assert_eq!((s.selection.pair, s.selection.wanted_pair), (n + 1, None));
    }

    #[test]
    fn a_session_survives_a_reload_through_the_normal_load_path() {
        let mut s = State::with_sample();
        read(&mut s, "x.src", "(S (A a) (B b))\n(S (A c))\n", None);
        read(&mut s, "x.trg", "(T (C c))\n(T (D d) (E e))\n", None);
        read(&mut s, "x.gold", "0-0\n0-0\n", None);
        read(&mut s, "lex.e2f", "c a 0.5\n", None);
        read(&mut s, "lex.e2f", "broken", None); // refused: the good one is kept
        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 0.0 })));
        let trained = Response::Trained { job: id, model: "{\"m\":1}".into(), summary: "a model".into() };
        s.apply(Action::Worker { response: trained, now: 1.0 });
        s.apply(Action::Job(JobAction::Cancel(None)));
        s.apply(Action::Train(TrainAction::Form(FormAction::SetField(Field::Seed, "9".into()))));
        s.apply(Action::SetLambda("0.3".into()));
        s.apply(Action::Load(LoadAction::SwapSides));
        s.apply(Action::Select(SelectAction::SetMode(Mode::Teach)));
        s.apply(Action::Select(SelectAction::SelectPair(1)));
        s.apply(Action::Select(SelectAction::ClickSource(NodeId::new(0))));
        s.apply(Action::Select(SelectAction::ClickTarget(NodeId::new(0))));
        s.apply(Action::Fold(FoldAction::Toggle(Side::Target, NodeId::new(0))));
        assert_eq!(s.folds.saved(s.corpus_gen), [(1, vec![], vec![NodeId::new(0)])]);
        let session = s.session();
        let json = serde_json::to_string(&session).unwrap();
        let session: Session = serde_json::from_str(&json).unwrap();
        assert_eq!(
            session.files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            ["x.src", "x.trg", "x.gold", "lex.e2f"]
        );
        assert_eq!(session.files[3].slot, Slot::LexS2t, "kept as given, before the swap");
        let mut r = State::with_sample();
        run(&mut r, Action::Session(SessionAction::Restore { session: Box::new(session), mt_file: None }));
        assert!(r.restoring.is_none());
        assert_eq!((&r.corpus, &r.corpus_name, r.sides_swapped), (&s.corpus, &s.corpus_name, true));
        assert_eq!((r.selection.pair, r.selection.mode, &r.teach.links), (1, Mode::Teach, &s.teach.links));
        assert_eq!(r.student_links(), [(NodeId::new(0), NodeId::new(0))]);
        assert_eq!(r.folds.saved(r.corpus_gen), s.folds.saved(s.corpus_gen), "the folds, on the swapped pairs");
        assert_eq!((&r.form, &r.lambda.text, r.lambda.value), (&s.form, &s.lambda.text, 0.3));
        // The model was trained before the swap: the pairs as shown are not the ones it saw.
        assert_eq!(s.alignment.model.as_ref().and_then(|m| m.trained_on).map(|t| t.gen == s.corpus_gen), Some(false));
        let unmarked = s.alignment.model.clone().map(|m| LoadedAlignmentModel { trained_on: None, ..m });
        assert_eq!(format!("{:?}", r.alignment.model), format!("{unmarked:?}"));
        assert_eq!(format!("{:?}", r.slots.lexicon_files()), format!("{:?}", s.slots.lexicon_files()));
        // The address wins over the session's pair and mode.
        let mut r = State::with_sample();
        let effects =
            r.apply(Action::Session(SessionAction::Restore { session: Box::new(s.session()), mt_file: None }));
        r.apply(Action::Session(SessionAction::OpenLocation("#pair=1&mode=inspect".into())));
        for e in effects {
            if let Effect::Load(_, request) = e {
                let checked = load::check(&request);
                let corpus = checked.corpus;
                r.apply(Action::Load(LoadAction::Loaded { answer: Box::new(checked.answer), corpus }));
            }
        }
        assert_eq!((r.selection.pair, r.selection.mode), (0, Mode::Inspect));
        // Start fresh: the sample and the defaults, and the kept session forgotten.
        let effects = r.apply(Action::Session(SessionAction::StartFresh));
        assert!(effects.contains(&Effect::ForgetSession), "{effects:?}");
        assert_eq!((r.corpus_name.as_str(), r.teach.links.len(), r.alignment.model.is_none()), (SAMPLE_NAME, 0, true));
    }

    #[test]
    fn the_address_query_opens_the_exercise_it_names() {
        let mut s = State::with_sample();
        assert!(s.apply(Action::Session(SessionAction::OpenQuery(String::new()))).is_empty());
        assert!(s.apply(Action::Session(SessionAction::OpenQuery("?lang=de".into()))).is_empty());
        assert_eq!(
            s.apply(Action::Session(SessionAction::OpenQuery("?a=1&exercise=week%201%2Fe.json".into()))),
            vec![Effect::FetchExercise("week 1/e.json".into())]
        );
        assert_eq!(exercise_address("?exercise=bad%zz.json"), Some("bad%zz.json".into()), "kept as written");
        assert_eq!(exercise_address("?exercise=%C3%A9.json"), Some("é.json".into()));
    }

    #[test]
    fn the_page_starts_with_the_file_worker_reading_the_sample_and_a_session_waits_for_it() {
        let mut s = State::new();
        assert!(s.corpus.is_empty());
        let effects = s.apply(Action::Load(LoadAction::LoadSample));
        let [Effect::Load(_, request)] = effects.as_slice() else { panic!("{effects:?}") };
        assert!(request.sample && request.files.is_empty());
        assert_eq!(s.corpus_summary(), format!("{SAMPLE_NAME}: reading it…"), "not the counts of the pairs shown");
        // Hand links on the sample, kept from the last visit, restored before the sample arrives.
        let mut kept = State::with_sample();
        kept.apply(Action::Select(SelectAction::SetMode(Mode::Teach)));
        kept.apply(Action::Select(SelectAction::SelectPair(2)));
        kept.apply(Action::Select(SelectAction::ClickSource(NodeId::new(0))));
        kept.apply(Action::Select(SelectAction::ClickTarget(NodeId::new(0))));
        let session = kept.session();
        assert!(session.files.is_empty());
        s.apply(Action::Session(SessionAction::Restore { session: Box::new(session), mt_file: None }));
        assert!(s.restoring.is_some(), "the session waits for the sample");
        answer_load(&mut s, request);
        assert_eq!((s.corpus.as_ref(), s.corpus_name.as_str()), (kept.corpus.as_ref(), SAMPLE_NAME));
        assert_eq!(
            (s.selection.pair, s.selection.mode, s.student_links()),
            (2, Mode::Teach, &[(NodeId::new(0), NodeId::new(0))][..])
        );
        assert!(s.restoring.is_none() && s.slots.sample_loading.is_none());
        assert!(s.corpus_summary().ends_with(": 157 pairs, 10920 nodes, 1218 gold links"), "{}", s.corpus_summary());
    }
}
