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
    for request in loads(&effects) {
        answer_load(s, &request);
    }
    effects
}

/// The file worker's answer to `request`, as `effects::file_worker_answers`
/// hands it to the reducer, and what that answer asks next, carried out too
/// (answers files waiting for their exercise).
pub(super) fn answer_load(s: &mut State, request: &load::LoadRequest) {
    for next in answer_one(s, request) {
        answer_load(s, &next);
    }
}

/// The file worker's answer to `request`, taken by the reducer; the
/// requests it makes next, not carried out.
pub(super) fn answer_one(s: &mut State, request: &load::LoadRequest) -> Vec<load::LoadRequest> {
    let checked = load::check(request);
    let parts = checked.parts();
    let decoded: Result<Vec<_>, _> = parts.into_iter().flatten().map(load::WirePair::decode).collect();
    let corpus = checked.answer.corpus.as_ref().map(|_| {
        let (pairs, ids): (Vec<TreePair>, Vec<Option<PairIds>>) = decoded.unwrap().into_iter().unzip();
        (Corpus { pairs }, ids.into_iter().collect::<Option<Vec<_>>>())
    });
    let effects = s.apply(Action::Load(LoadAction::Loaded { answer: Box::new(checked.answer), corpus }));
    loads(&effects)
}

/// The requests to the file worker among `effects`.
pub(super) fn loads(effects: &[Effect]) -> Vec<load::LoadRequest> {
    (effects.iter())
        .filter_map(|e| match e {
            Effect::Load(_, r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

pub(super) fn read(s: &mut State, name: &str, text: &str, slot: Option<Slot>) -> Vec<Effect> {
    run(s, Action::Load(LoadAction::FileRead { name: name.into(), text: text.into(), slot }))
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
    }
}

/// The job a `Train` or `Align` action started, from the request it posted.
pub(super) fn started(effects: &[Effect]) -> JobId {
    match effects {
        [Effect::Post(Request::Train { job, .. } | Request::Align { job, .. })] => *job,
        _ => panic!("expected one job request, found {effects:?}"),
    }
}
