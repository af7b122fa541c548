//! What the reducer's tests share: actions carried out as the page's
//! effects and the file worker carry them out, and the workers' answers.

use super::*;
use crate::align::greedy::Search;
use crate::corpus::Corpus;
use crate::corpus::TreePair;
use crate::tiger::PairIds;
use crate::ui::load;

/// Applies `action` and carries out its effects as `ui::effects` and
/// the file worker do (the corpus decoded from its parts).
pub(super) fn run(s: &mut State, action: Action) -> Vec<Effect> {
    let effects = s.apply(action);
    for asked in loads(&effects) {
        answer_load(s, &asked);
    }
    effects
}

/// The file worker's answer to `request`, as `effects::file_worker_answers`
/// hands it to the reducer, and what that answer asks next, carried out too
/// (answers files waiting for their exercise).
pub(super) fn answer_load(s: &mut State, asked: &Asked) {
    for next in answer_one(s, asked) {
        answer_load(s, &next);
    }
}

/// The file worker's answer to `request`, taken by the reducer; the
/// requests it makes next, not carried out.
pub(super) fn answer_one(s: &mut State, (job, request): &Asked) -> Vec<Asked> {
    let checked = load::answer(request);
    let parts = checked.parts();
    let decoded: Result<Vec<_>, _> = parts.into_iter().flatten().map(load::WirePair::decode).collect();
    let corpus = checked.answer.corpus.as_ref().map(|_| {
        let (pairs, ids): (Vec<TreePair>, Vec<Option<PairIds>>) = decoded.unwrap().into_iter().unzip();
        (Corpus { pairs }, ids.into_iter().collect::<Option<Vec<_>>>())
    });
    let effects = s.apply(Action::Load(LoadAction::Loaded { job: *job, answer: Box::new(checked.answer), corpus }));
    loads(&effects)
}

/// A request to the file worker, with its id.
pub(super) type Asked = (crate::ui::ids::JobId, load::LoadRequest);

/// The requests to the file worker among `effects`.
pub(super) fn loads(effects: &[Effect]) -> Vec<Asked> {
    (effects.iter())
        .filter_map(|e| match e {
            Effect::Load(job, r) => Some((*job, r.clone())),
            _ => None,
        })
        .collect()
}

pub(super) fn read(s: &mut State, name: &str, text: &str, slot: Option<Slot>) -> Vec<Effect> {
    run(s, file_read(name, text, slot))
}

/// A file the browser read for `slot` (`None`: dropped), as the page hands it to the state.
pub(super) fn file_read(name: &str, text: &str, slot: Option<Slot>) -> Action {
    Action::Load(LoadAction::FileRead { name: name.into(), text: text.into(), slot })
}

/// Drops `x.src`, `x.trg` (and `x.gold`) with `texts`, one after another.
pub(super) fn read_pairs(s: &mut State, texts: &[&str]) {
    for (ext, text) in ["src", "trg", "gold"].into_iter().zip(texts) {
        read(s, &format!("x.{ext}"), text, None);
    }
}

/// The job worker's progress report as an action: the state takes no
/// notice (the page's store hands it to the progress bars', [`report`]).
pub(super) fn progress(job: u32, stage: &str, done: u64, total: u64) -> Action {
    Action::Worker {
        response: Response::Progress { job: JobId(job), stage: stage.into(), done, total, gap: None },
        now: 5.0,
    }
}

/// The same report to the progress bars' state `p`, as the page's store hands it.
pub(super) fn report(s: &State, p: &mut Progress, job: u32, stage: &str, done: u64, total: u64) {
    let report = ProgressAction::Report { job: JobId(job), stage: stage.into(), done, total, gap: None, now: 5.0 };
    p.apply(report, s.jobs.running.as_ref());
}

/// What the running job's progress bar shows.
pub(super) fn shown(s: &State, p: &Progress) -> Option<JobProgress> {
    s.jobs.running.as_ref().map(|j| p.of(j))
}

/// The worker's answer aligning pairs `first..n` with empty searches.
pub(super) fn empty_alignment(job: JobId, n: usize, lexicon: &str, first: usize) -> Response {
    let aligned = n.saturating_sub(first);
    Response::Aligned {
        job,
        searches: vec![Search::default(); aligned],
        baseline: vec![Vec::new(); aligned],
        lexicon: lexicon.into(),
        first,
        uncertainty: vec![0.0; aligned],
        link_search: Default::default(),
    }
}

/// The model held aligning the pairs (answered at once), its searches and
/// uncertainties of [`empty_alignment`] changed first by `change`.
pub(super) fn align_changed(s: &mut State, change: impl FnOnce(&mut [Search], &mut [f64])) {
    let id = started(&s.apply(Action::Train(TrainAction::Align { now: 0.0 })));
    let mut aligned = empty_alignment(id, s.loaded.corpus.len(), "given", 0);
    if let Response::Aligned { searches, uncertainty, .. } = &mut aligned {
        change(searches, uncertainty);
    }
    answer(s, aligned, 1.0);
}

/// The job a `Train` or `Align` action started, from the request it posted.
pub(super) fn started(effects: &[Effect]) -> JobId {
    match effects {
        [Effect::Post(Request::Train { job, .. } | Request::Align { job, .. })] => *job,
        _ => panic!("expected one job request, found {effects:?}"),
    }
}

/// The one text file `effects` offer as a download: its name and text.
#[track_caller]
pub(super) fn downloaded(effects: &[Effect]) -> (String, String) {
    match effects {
        [Effect::Download { name, body: DownloadBody::Text { text, .. } }] => (name.clone(), text.to_string()),
        _ => panic!("expected one text download, found {effects:?}"),
    }
}

/// The export `file` as offered for download: its name and text.
#[track_caller]
pub(super) fn exported(s: &mut State, file: ExportFile) -> (String, String) {
    downloaded(&s.apply(Action::Export(file)))
}

/// The pairs' training a Train request asks, the rest the defaults.
pub(super) fn pairs_training(
    word_model: crate::lexicon::WordModel,
    stem_backoff: Option<usize>,
    calibrate: bool,
    test: bool,
) -> crate::app::alignment::PairsTraining {
    crate::app::alignment::PairsTraining { word_model, stem_backoff, calibrate, test, ..Default::default() }
}

/// What `slot` says: its summary or its error (empty when silent).
pub(super) fn message(s: &State, slot: Slot) -> String {
    match &s.slots.slot(slot).message {
        Some(Ok(m) | Err(m)) => m.clone(),
        None => String::new(),
    }
}

/// Asserts that `slot` read its files, saying what starts with `start`.
#[track_caller]
pub(super) fn assert_read(s: &State, slot: Slot, start: &str) {
    let said = &s.slots.slot(slot).message;
    assert!(matches!(said, Some(Ok(m)) if m.starts_with(start)), "{slot:?}: {said:?}");
}

/// Asserts that `slot` refused its last files, with an error that starts with `start`.
#[track_caller]
pub(super) fn assert_refused(s: &State, slot: Slot, start: &str) {
    let said = &s.slots.slot(slot).message;
    assert!(matches!(said, Some(Err(e)) if e.starts_with(start)), "{slot:?}: {said:?}");
}

/// A page that restored `session` over the sample, its files loaded.
pub(super) fn restored(session: Session) -> State {
    let mut r = State::with_sample();
    run(&mut r, Action::Session(SessionAction::Restore { session: Box::new(session), mt_file: None }));
    r
}

/// Shows pair `k` (counted from 0), as the pair list does.
pub(super) fn select_pair(s: &mut State, k: usize) -> Vec<Effect> {
    s.apply(Action::Select(SelectAction::SelectPair(PairIndex::new(k))))
}

/// Switches to `mode`, as the mode tabs do.
pub(super) fn set_mode(s: &mut State, mode: Mode) -> Vec<Effect> {
    s.apply(Action::Select(SelectAction::SetMode(mode)))
}

/// A click on the source node `source`, then on the target node `target`.
pub(super) fn click(s: &mut State, source: usize, target: usize) -> Vec<Effect> {
    s.apply(Action::Select(SelectAction::ClickSource(NodeId::new(source))));
    s.apply(Action::Select(SelectAction::ClickTarget(NodeId::new(target))))
}

/// Teaching mode on `pair`, with the hand link `0-0` drawn.
pub(super) fn hand_link(s: &mut State, pair: usize) {
    set_mode(s, Mode::Teach);
    select_pair(s, pair);
    click(s, 0, 0);
}

/// The job worker's `response`, handed to the state at `now`.
pub(super) fn answer(s: &mut State, response: Response, now: f64) -> Vec<Effect> {
    s.apply(Action::Worker { response, now })
}

/// Trains a model (the worker answers "a model" at once); the job's id.
pub(super) fn train_a_model(s: &mut State, now: f64) -> JobId {
    let id = started(&s.apply(Action::Train(TrainAction::Train { now })));
    let trained = Response::Trained { job: id, model: "{\"m\":1}".into(), summary: "a model".into(), kept: None };
    answer(s, trained, now + 1.0);
    id
}

/// A file of `../shared/data` (`path` below it).
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn shared_data(path: &str) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/");
    std::fs::read_to_string(format!("{dir}{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A model the page holds as an uploaded file (its text never read by the tests).
pub(super) fn uploaded_model() -> LoadedAlignmentModel {
    LoadedAlignmentModel {
        json: String::new().into(),
        origin: ModelOrigin::Uploaded("m.json".into()),
        summary: "a model".into(),
        trained_on: None,
        kept: None,
    }
}

/// A translation of one word, as the worker answers.
pub(super) fn view(word: &str, score: f64) -> crate::ui::protocol::TranslationView {
    crate::ui::protocol::TranslationView {
        system: crate::mt::model::SystemKind::Ms,
        words: vec![word.into()],
        score,
        features: vec![],
        feature_names: vec![],
        weights: vec![],
        steps: vec![],
        phrases: vec![],
        nbest: vec![],
        seconds: 0.1,
        source_notes: vec![],
        provenance: vec![],
        rules: vec![],
    }
}
