//! The job worker's jobs (training and aligning, aligning, training a
//! translation model, translating every pair), one at a time, and the
//! worker that runs them: its generation (a restarted worker has forgotten
//! what the last one held) and whether it died.
//!
//! How far the running job is ([`JobProgress`]) is not part of the state:
//! the worker's reports and the clock's ticks change only [`Progress`],
//! which the page's store holds apart and only the progress bars read
//! (`ui::store`), so a report renders the bars and nothing else.

use super::{Effect, State};
use crate::app::alignment::{PairSplit, CHOOSING_ON_DEV};
use crate::ui::ids::{CorpusGen, JobId, WorkerGen};

/// The kind of a worker job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    Train,
    Align,
    /// Training the alignment model again with the pairs annotated, then aligning.
    Update,
    /// Training a translation model.
    TrainMt,
    /// Translating every loaded pair.
    TranslateAll,
}

/// A running worker job (its progress is [`JobProgress`], kept apart).
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub id: JobId,
    pub kind: JobKind,
    /// A training job's split of the pairs (training pairs, dev, held-out test).
    pub split: Option<PairSplit>,
    /// The test set given as files that the split's test is (its name), if it is one.
    pub test_set: Option<String>,
    /// An *Annotate* update's pairs accepted beyond the split's (ascending).
    pub annotated: std::rc::Rc<[usize]>,
    pub corpus_gen: CorpusGen,
    pub started: f64,
}

/// How far a job is: its stage, the units done, and the clock.
#[derive(Debug, Clone, PartialEq)]
pub struct JobProgress {
    pub job: JobId,
    pub stage: String,
    pub done: u64,
    pub total: u64,
    pub started: f64,
    pub stage_started: f64,
    pub now: f64,
    /// During SMO: its distance from convergence (the largest KKT
    /// violation) and the ε it must fall below ([`crate::progress::Progress::gap`]).
    pub gap: Option<(f64, f64)>,
    /// How far choosing on dev is ([`CHOOSING_ON_DEV`]): steps done, of
    /// how many, and when the first began; the stage beside it goes on.
    pub plan: Option<(u64, u64, f64)>,
}

impl JobProgress {
    /// A job that has reported nothing yet.
    pub fn starting(job: &Job) -> JobProgress {
        JobProgress {
            job: job.id,
            stage: "starting the worker".into(),
            done: 0,
            total: 0,
            started: job.started,
            stage_started: job.started,
            now: job.started,
            gap: None,
            plan: None,
        }
    }

    /// Seconds left choosing on dev, from its rate so far (`None` before a step is done).
    pub fn plan_eta_seconds(&self) -> Option<f64> {
        let (done, total, started) = self.plan.filter(|&(done, total, _)| done > 0 && done <= total)?;
        Some((self.now - started) / 1000.0 / done as f64 * (total - done) as f64)
    }

    /// Seconds left in the current stage, from its rate so far; `None`
    /// while nothing is done or when the stage's length is unknown (SMO).
    pub fn eta_seconds(&self) -> Option<f64> {
        if self.total == 0 || self.done == 0 || self.done > self.total {
            return None;
        }
        let elapsed = (self.now - self.stage_started) / 1000.0;
        Some(elapsed / self.done as f64 * (self.total - self.done) as f64)
    }

    pub fn elapsed_seconds(&self) -> f64 {
        (self.now - self.started) / 1000.0
    }
}

/// What moves a progress bar: the job worker's report, or the clock.
#[derive(Debug, Clone, PartialEq)]
pub enum ProgressAction {
    /// `Response::Progress`, received at `now`.
    Report { job: JobId, stage: String, done: u64, total: u64, gap: Option<(f64, f64)>, now: f64 },
    /// The clock, while a job runs (its elapsed time moves between reports).
    Tick(f64),
}

/// The progress bars' state, apart from [`State`](super::State): the last
/// progress of the running job.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Progress {
    last: Option<JobProgress>,
}

impl Progress {
    /// The progress bars' reducer, for the job `running` (a report of
    /// another job, or a tick with none running, changes nothing).
    pub fn apply(&mut self, action: ProgressAction, running: Option<&Job>) {
        let Some(job) = running else { return };
        let mut p = self.of(job);
        match action {
            ProgressAction::Report { job: id, stage, done, total, gap, now } => {
                if id != job.id {
                    return;
                }
                if stage == CHOOSING_ON_DEV {
                    p.plan = Some((done, total, p.plan.map_or(now, |(.., started)| started)));
                    p.now = now;
                    self.last = Some(p);
                    return;
                }
                if p.stage != stage {
                    p.stage = stage;
                    p.stage_started = now;
                }
                (p.done, p.total, p.now, p.gap) = (done, total, now, gap);
            }
            ProgressAction::Tick(now) => p.now = now,
        }
        self.last = Some(p);
    }

    /// How far `job` is, as its bar shows it.
    pub fn of(&self, job: &Job) -> JobProgress {
        self.last.clone().filter(|p| p.job == job.id).unwrap_or_else(|| JobProgress::starting(job))
    }
}

impl JobKind {
    /// A translation job: its notes go to the Translate view, the others' to the Train panel.
    pub fn translates(self) -> bool {
        matches!(self, JobKind::TrainMt | JobKind::TranslateAll)
    }
}

/// The running job and the worker that runs it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Jobs {
    /// The job running (one at a time).
    pub running: Option<Job>,
    /// Counts worker restarts (a restarted worker has forgotten the alignment's details).
    pub worker_gen: WorkerGen,
    /// The job worker died and none runs yet: the page offers to start one.
    pub worker_stopped: bool,
    /// The last request id given (the page's one counter of requests, for both workers).
    pub last_id: JobId,
}

/// What the progress bars' buttons ask.
#[derive(Debug, Clone, PartialEq)]
pub enum JobAction {
    /// Cancel the running job, with the progress its bar shows (the note
    /// says how far it got): the job worker is restarted.
    Cancel(Option<JobProgress>),
    /// Start a fresh job worker after the last one died.
    RestartWorker,
}

impl Jobs {
    /// A fresh request id (the page's one counter, for both workers).
    pub(super) fn next_id(&mut self) -> JobId {
        self.last_id = self.last_id.next();
        self.last_id
    }

    pub(super) fn start(&mut self, id: JobId, kind: JobKind, corpus_gen: CorpusGen, now: f64) {
        self.running = Some(Job {
            id,
            kind,
            split: None,
            test_set: None,
            annotated: Default::default(),
            corpus_gen,
            started: now,
        });
    }

    /// The running job, if it is job `id`.
    pub(super) fn get(&self, id: JobId) -> Option<&Job> {
        self.running.as_ref().filter(|j| j.id == id)
    }

    /// The running job ends, if it is job `id` (of one of `kinds`, if given).
    pub(super) fn end(&mut self, id: JobId, kinds: Option<&[JobKind]>) -> Option<Job> {
        self.running.take_if(|j| j.id == id && kinds.is_none_or(|k| k.contains(&j.kind)))
    }
}

impl State {
    /// Job `id` of `kind` starts on the pairs loaded; the Train panel's
    /// note of the last job goes.
    pub(super) fn start_job(&mut self, id: JobId, kind: JobKind, now: f64) {
        self.jobs.start(id, kind, self.loaded.gen, now);
        self.alignment.note = None;
        self.alignment.note_on_training_data = false;
    }

    /// How a job of `kind` ended, next to the panel that started it (with
    /// none running, how the worker did: the Train panel's).
    pub(super) fn job_ended(&mut self, kind: Option<JobKind>, note: Result<String, String>) {
        if kind.is_some_and(JobKind::translates) {
            self.mt.note = Some(note);
        } else {
            self.alignment.note = Some(note);
            self.alignment.note_on_training_data = false;
        }
    }

    /// A [`JobAction`]. Cancelling restarts the job worker (a worker busy
    /// in a synchronous loop cannot read a "stop" message): what it was
    /// asked, and what it held, are gone.
    pub(super) fn job_action(&mut self, action: JobAction) -> Vec<Effect> {
        match action {
            JobAction::Cancel(shown) => {
                self.jobs.worker_gen = self.jobs.worker_gen.next();
                if let Some(said) = self.mt.worker_restarted() {
                    self.slots.model_read(said);
                }
                if let Some(j) = self.jobs.running.take() {
                    let p = shown.filter(|p| p.job == j.id).unwrap_or_else(|| JobProgress::starting(&j));
                    let note = format!(
                        "Cancelled after {:.1} s (during {}); the worker was stopped and restarted.",
                        p.elapsed_seconds(),
                        p.stage
                    );
                    self.job_ended(Some(j.kind), Err(note));
                }
                if self.alignment.explained.as_ref().is_some_and(|e| e.result.is_none()) {
                    self.alignment.explained = None;
                }
                vec![Effect::RestartJobWorker]
            }
            JobAction::RestartWorker => {
                if !std::mem::take(&mut self.jobs.worker_stopped) {
                    return Vec::new();
                }
                self.job_ended(None, Ok("A fresh worker was started.".into()));
                vec![Effect::RestartJobWorker]
            }
        }
    }

    /// The job worker itself failed (and may have been restarted): what it
    /// was asked is not coming, the job running ends with `message`, and
    /// the fresh worker holds nothing (no alignment to explain; the
    /// translation model is sent again with the next request).
    pub(super) fn worker_failed(&mut self, message: String) {
        if let Some(said) = self.mt.worker_failed(&message) {
            self.slots.model_read(said);
        }
        self.jobs.worker_gen = self.jobs.worker_gen.next();
        let kind = self.jobs.running.take().map(|j| j.kind);
        let again = match kind {
            Some(JobKind::Train) => ": train again",
            Some(JobKind::Align) => ": align again",
            Some(JobKind::Update) => ": the model is updated again after the next pair accepted",
            Some(JobKind::TrainMt) => ": train the translation model again",
            Some(JobKind::TranslateAll) => ": translate again",
            None => "",
        };
        self.job_ended(kind, Err(format!("{message}{again}.")));
    }

    /// Request `job` failed with `message`: a translation's, an uploaded
    /// model's, or the running job's.
    pub(super) fn request_failed(&mut self, job: JobId, message: String) {
        match self.mt.failed(job, message) {
            Ok(Some(said)) => self.slots.model_read(Err(said)),
            Ok(None) => {}
            Err(message) => {
                if let Some(j) = self.jobs.end(job, None) {
                    self.job_ended(Some(j.kind), Err(message));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;
    use crate::align::model::DecisionThreshold;
    use crate::app::alignment::PairSplit;
    use crate::lexicon::WordModel;
    use crate::ui::protocol::{CorpusText, LexiconFiles, Request, Response};

    /// Issue 12: a worker that dies during a job ends the job with the
    /// news; the page offers a fresh worker (or the next job starts one)
    /// and keeps the data and results.
    #[test]
    fn a_worker_that_died_is_offered_again_and_the_data_stays() {
        let mut s = State::with_sample();
        let effects = s.apply(Action::Train(TrainAction::Train { now: 1.0 }));
        let [Effect::Post(Request::Train { job, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        let (corpus, gen) = (s.loaded.corpus.clone(), s.jobs.worker_gen);
        s.apply(progress(job.0, "SVM (SMO)", 4, 10));
        answer(&mut s, Response::Stopped { message: "The worker stopped (out of memory)".into() }, 2.0);
        assert!(s.jobs.running.is_none() && s.jobs.worker_stopped);
        assert_eq!(s.jobs.worker_gen, gen.next(), "the fresh worker holds no alignment");
        assert_eq!(s.alignment.note, Some(Err("The worker stopped (out of memory): train again.".into())));
        assert!(Rc::ptr_eq(&corpus, &s.loaded.corpus));
        assert_eq!(s.apply(Action::Job(JobAction::RestartWorker)), vec![Effect::RestartJobWorker]);
        assert!(!s.jobs.worker_stopped && matches!(&s.alignment.note, Some(Ok(_))));
        assert!(s.apply(Action::Job(JobAction::RestartWorker)).is_empty(), "one is running");
        // Died again: the next job starts a fresh one without the button.
        answer(&mut s, Response::Stopped { message: "x".into() }, 3.0);
        assert!(s.jobs.worker_stopped);
        // Said again (a pool's worker, once per message it held): the first report stands.
        let note = s.alignment.note.clone();
        answer(&mut s, Response::Stopped { message: "y".into() }, 3.5);
        assert_eq!(s.alignment.note, note);
        let effects = s.apply(Action::Train(TrainAction::Train { now: 4.0 }));
        assert!(matches!(effects.as_slice(), [Effect::Post(Request::Train { .. })]), "{effects:?}");
        assert!(!s.jobs.worker_stopped);
    }

    #[test]
    fn training_posts_one_request_and_cancelling_restarts_the_worker() {
        let mut s = State::with_sample();
        s.apply(Action::Train(TrainAction::Form(FormAction::SetCalibrate(false))));
        let effects = s.apply(Action::Train(TrainAction::Train { now: 1.0 }));
        let [Effect::Post(Request::Train { job, corpus, options, lexicon, how })] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert_eq!(*corpus, CorpusText::of(&s.loaded.corpus));
        assert_eq!(*options, vec![s.form.options(&s.loaded.held).unwrap()], "without dev pairs, one configuration");
        let preview = crate::app::alignment::preview_options(options, s.loaded.corpus.len());
        assert_eq!(preview, None, "no choice on dev to wait for: no first model");
        assert_eq!(options[0].threshold, DecisionThreshold::Fixed(0.0), "the paper's D > 0 without held-out pairs");
        assert_eq!(*lexicon, LexiconFiles::default());
        let all_pairs = pairs_training(WordModel::FastAlign, None, false, false);
        assert_eq!(*how, all_pairs, "trained on all the pairs, as `treelink train --train`");
        assert_eq!(s.jobs.running.as_ref().and_then(|j| j.split), PairSplit::of(s.loaded.corpus.len(), false, false));
        let id = *job;
        assert!(s.apply(Action::Train(TrainAction::Train { now: 2.0 })).is_empty(), "one job at a time");
        assert!(s.apply(Action::Train(TrainAction::Align { now: 2.0 })).is_empty());
        let mut p = Progress::default();
        report(&s, &mut p, id.0 + 1, "aligning", 4, 10);
        assert_eq!(shown(&s, &p).map(|j| (j.done, j.total)), Some((0, 0)), "another job's progress");
        report(&s, &mut p, id.0, "aligning", 4, 10);
        let j = shown(&s, &p).map(|j| (j.job, j.stage.clone(), j.done, j.total));
        assert_eq!(j, Some((id, "aligning".to_string(), 4, 10)));
        let gen = s.jobs.worker_gen;
        assert_eq!(s.apply(Action::Job(JobAction::Cancel(shown(&s, &p)))), vec![Effect::RestartJobWorker]);
        assert!(s.jobs.running.is_none());
        assert_eq!(s.jobs.worker_gen, gen.next());
        assert!(
            matches!(&s.alignment.note, Some(Err(n)) if n.starts_with("Cancelled after") && n.contains("aligning"))
        );
        // A late answer of the cancelled job changes nothing.
        s.apply(progress(id.0, "aligning", 5, 10));
        report(&s, &mut p, id.0, "aligning", 5, 10);
        assert!(s.jobs.running.is_none());
        // No model yet: nothing to align with, nor to download.
        assert!(s.apply(Action::Train(TrainAction::Align { now: 3.0 })).is_empty());
        assert!(s.apply(Action::Train(TrainAction::DownloadModel)).is_empty());
    }

    /// A report or a tick changes the progress bars' state and not the
    /// page's: nothing but the bars renders again (`ui::store`).
    #[test]
    fn a_progress_report_or_a_tick_changes_only_the_progress() {
        let mut s = State::with_sample();
        let mut p = Progress::default();
        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 0.0 })));
        let before = (s.clone(), p.clone());
        s.apply(progress(id.0, "training the SVM", 3, 0));
        report(&s, &mut p, id.0, "training the SVM", 3, 0);
        p.apply(ProgressAction::Tick(900.0), s.jobs.running.as_ref());
        assert_ne!(p, before.1);
        assert_eq!(s, before.0, "the panels do not re-render for progress");
        assert_eq!(shown(&s, &p).map(|j| (j.elapsed_seconds(), j.stage)), Some((0.9, "training the SVM".into())));
        s.apply(Action::Train(TrainAction::Form(FormAction::SetField(Field::SEED, "7".into()))));
        assert_ne!(s, before.0);
        let before = s.clone();
        s.apply(Action::Job(JobAction::Cancel(shown(&s, &p))));
        assert_ne!(s, before, "a job's end shows everywhere");
    }

    #[test]
    fn a_failed_job_ends_with_its_message() {
        let mut s = State::with_sample();
        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 0.0 })));
        answer(&mut s, Response::Failed { job: Some(JobId(id.0 + 5)), message: "other".into() }, 1.0);
        assert!(s.jobs.running.is_some(), "another job's failure is not this one's");
        answer(&mut s, Response::Failed { job: Some(id), message: "no gold links".into() }, 1.0);
        assert!(s.jobs.running.is_none());
        assert!(matches!(&s.alignment.note, Some(Err(n)) if n.contains("no gold links")), "{:?}", s.alignment.note);
        // The worker itself failed: whatever runs ends with its message.
        s.apply(Action::Train(TrainAction::Train { now: 0.0 }));
        let message = "the worker failed: out of memory".to_string();
        answer(&mut s, Response::Failed { job: None, message }, 1.0);
        assert!(s.jobs.running.is_none());
        assert!(matches!(&s.alignment.note, Some(Err(n)) if n.contains("out of memory")), "{:?}", s.alignment.note);
    }

    /// A training job, 3, started at `started`.
    fn train_job(started: f64) -> Job {
        let (split, test_set, annotated) = (None, None, Default::default());
        Job { id: JobId(3), kind: JobKind::Train, split, test_set, annotated, corpus_gen: CorpusGen(0), started }
    }

    /// A progress report of `job` to the progress bars.
    fn bar_report(job: u32, stage: &str, done: u64, total: u64, now: f64) -> ProgressAction {
        ProgressAction::Report { job: JobId(job), stage: stage.into(), done, total, gap: None, now }
    }

    /// The progress bars' reducer alone: a new stage starts its own clock
    /// (the ETA is the stage's rate so far), the elapsed time counts from
    /// the job's start, and another job's report changes nothing.
    #[test]
    fn the_eta_is_the_stage_s_rate_and_another_job_s_report_changes_nothing() {
        let job = train_job(1000.0);
        let mut p = Progress::default();
        assert_eq!(p.of(&job), JobProgress::starting(&job));
        p.apply(bar_report(3, "lexical model", 5, 10, 3000.0), Some(&job));
        p.apply(bar_report(3, "lexical model", 5, 10, 5000.0), Some(&job));
        assert_eq!(p.of(&job).eta_seconds(), Some(2.0), "5 of 10 done in the stage's 2 s");
        p.apply(bar_report(3, "SVM", 2, 10, 6000.0), Some(&job));
        p.apply(ProgressAction::Tick(8000.0), Some(&job));
        let shown = p.of(&job);
        assert_eq!((shown.eta_seconds(), shown.elapsed_seconds()), (Some(8.0), 7.0));
        p.apply(bar_report(4, "aligning", 9, 10, 9000.0), Some(&job));
        p.apply(ProgressAction::Tick(9500.0), None);
        assert_eq!(p.of(&job), shown);
    }

    /// Choosing on dev is reported beside the step: its own steps and rate,
    /// the step's bar unchanged.
    #[test]
    fn choosing_on_dev_is_shown_beside_the_step_with_its_own_rate() {
        let job = train_job(0.0);
        let mut p = Progress::default();
        p.apply(bar_report(3, CHOOSING_ON_DEV, 0, 11, 1000.0), Some(&job));
        p.apply(bar_report(3, "features", 4, 8, 2000.0), Some(&job));
        assert_eq!(p.of(&job).plan_eta_seconds(), None, "nothing tried yet");
        p.apply(bar_report(3, CHOOSING_ON_DEV, 2, 11, 9000.0), Some(&job));
        let shown = p.of(&job);
        assert_eq!((shown.stage.as_str(), shown.done, shown.total), ("features", 4, 8));
        assert_eq!(shown.plan, Some((2, 11, 1000.0)));
        assert_eq!(shown.plan_eta_seconds(), Some(36.0), "2 of 11 in 8 s: 9 more at 4 s each");
    }
}
