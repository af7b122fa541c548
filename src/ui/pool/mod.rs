//! The page's job workers as a pool (issue 25): one job — train then align
//! and compare, align with a model, translate every pair — cut into pieces
//! ([`Task`]) that the workers take as they become free, each worker its
//! own wasm instance and message queue (no memory is shared, so the page
//! stays a plain static site). To the rest of the page the pool is the one
//! job worker it was: it takes the same [`Request`]s and gives back the
//! same [`Response`]s — one progress stream, the searches in order, one
//! `Aligned` — and a cancel restarts every worker.
//!
//! A job's pieces, for the Train button (without a held-out test):
//!
//! | piece | needs | on |
//! |---|---|---|
//! | train the model (`train_on_pairs`: lexicon, features, SMO) | — | worker 0 |
//! | a first model, trained and aligned with, shown until the chosen one replaces it (`preview_on_pairs`; when the plan has one) | — | the last worker, before anything else |
//! | the lexicon aligning with it needs (its lexical model is known before it trains) | — | the first free worker |
//! | the baseline's lexicon | — | the first free worker |
//! | search pairs 0–199, 200–399, … | the model, the aligning lexicon | any |
//! | the baseline of pairs 0–199, … | the baseline's lexicon | any |
//!
//! So while worker 0 trains, another shows a first model, trains both
//! lexicons and runs the baseline; then all of them search (on one worker,
//! the first model comes first, a few seconds before the training). A piece's result depends on its
//! pairs and on what it is given alone (the scorer rolls back its index
//! per pair), so the answers are those of the `app` steps the CLI runs on
//! one thread, byte for byte (tested here natively with a pool of
//! [`Executor`]s, and in the page end to end). What one worker made and another needs (the model, a
//! lexicon) moves beside the messages as text, which the page relays
//! without reading it ([`Command::Post`]'s `blob`).
//!
//! This module is the pool's plain logic (which piece goes where, what
//! the page is told); `ui::effects` posts and relays (wasm32), `ui::worker`
//! runs the pieces.

pub mod task;

use std::collections::BTreeSet;
use std::ops::Range;

pub use task::{Artifact, Executor, LexicalOf, Output, Searched, Task, TaskError};

use crate::align::lexical::InputSentences;
use crate::align::link_search::LinkSearch;
use crate::app::alignment;
use crate::corpus::WordFit;
use crate::tree::NodeId;
use crate::ui::protocol::{CorpusText, JobId, LexiconFiles, Request, Response, ALIGNED_PART_PAIRS};

/// A worker of the pool: 0 is the main one (it trains, holds what is not
/// shared and answers every request that is not cut into pieces).
pub type WorkerIx = usize;

/// Source trees in a translation piece.
pub const PIECE_SOURCES: usize = 25;

/// The most workers the page starts, whatever `navigator.hardwareConcurrency`
/// says: each is a wasm instance holding the pairs and the lexicons (some
/// hundred MB on SQUOIA train).
pub const MAX_WORKERS: usize = 8;

/// The pool's size for `cores` (the browser's `hardwareConcurrency`).
pub fn size_for(cores: usize) -> usize {
    cores.clamp(1, MAX_WORKERS)
}

/// What goes beside a posted request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blob {
    None,
    /// The text of this artifact of the running job (kept by the runner).
    Artifact(Artifact),
    /// The file the page's request came with.
    File,
}

/// What the pool asks the page's side of it to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Post `request` to worker `worker`, with `blob` beside it.
    Post { worker: WorkerIx, request: Request, blob: Blob },
    /// Keep `text` as the running job's `artifact` (a model the page sent).
    Store { artifact: Artifact, text: String },
    /// Hand `response` to the page, as the one job worker's.
    Answer(Response),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PieceKind {
    Train,
    /// The first model, trained and aligned with on one worker ([`Task::Preview`]).
    Preview,
    Lexicon,
    Search(usize),
    Baseline(usize),
    Translate(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PieceState {
    Waiting,
    Running(WorkerIx),
    Done,
}

#[derive(Debug, Clone)]
struct Piece {
    task: Task,
    kind: PieceKind,
    /// Pieces that must be done first.
    after: Vec<usize>,
    /// Artifacts the worker must hold.
    needs: Vec<Artifact>,
    /// The artifact it makes.
    makes: Option<Artifact>,
    pinned: Option<WorkerIx>,
    /// Pairs or trees (its share of the progress bar).
    units: u64,
    state: PieceState,
}

#[derive(Debug, Clone, Default)]
struct WorkerState {
    /// The piece it runs (of the running job).
    busy: Option<usize>,
    /// The job whose corpus and artifacts it holds.
    holds_job: Option<JobId>,
    holds: BTreeSet<Artifact>,
    /// The translation model it holds.
    mt: Option<JobId>,
    /// Its last report on its piece: units done.
    reported: u64,
}

/// The baseline's links of each pair (as `Response::AlignedPart` carries them).
type BaselineLinks = Vec<Vec<(NodeId, NodeId)>>;

/// What is being assembled for the page.
#[derive(Debug, Clone)]
enum Assembly {
    /// An alignment: the searches and baseline of each part, the note, the
    /// first pair aligned, and the parts already handed on.
    Aligned {
        searches: Vec<Option<Searched>>,
        baseline: Vec<Option<BaselineLinks>>,
        note: Option<String>,
        first: usize,
        handed: usize,
        /// The model's search (from the searches handed on).
        link_search: LinkSearch,
    },
    Translated {
        hyps: Vec<Option<Vec<Vec<String>>>>,
        started: f64,
        /// How the parts' sources fit the model, summed.
        fit: WordFit,
    },
}

#[derive(Debug, Clone)]
struct Running {
    job: JobId,
    pieces: Vec<Piece>,
    /// The corpus and lexical files every worker gets before its first piece.
    corpus: Option<(CorpusText, LexiconFiles)>,
    /// Artifacts made (or given by the page), ready to relay.
    made: BTreeSet<Artifact>,
    assembly: Assembly,
    failed: bool,
}

/// The pool's plain logic (module documentation).
#[derive(Debug, Clone)]
pub struct Pool {
    /// Pairs in a search or baseline piece (one part of the alignment the page gets).
    part_pairs: usize,
    workers: Vec<WorkerState>,
    running: Option<Running>,
    /// Who aligned which pairs in the last alignment (explanations go there).
    aligned_by: Vec<(Range<usize>, WorkerIx)>,
}

impl Piece {
    fn new(task: Task, kind: PieceKind, makes: Option<Artifact>, units: u64) -> Piece {
        Piece {
            task,
            kind,
            after: Vec::new(),
            needs: Vec::new(),
            makes,
            pinned: None,
            units,
            state: PieceState::Waiting,
        }
    }

    fn after(mut self, after: &[usize], needs: &[Artifact]) -> Piece {
        self.after = after.to_vec();
        self.needs = needs.to_vec();
        self
    }
}

/// `range` cut into parts of `size`.
fn parts_of(range: Range<usize>, size: usize) -> Vec<Range<usize>> {
    let end = range.end;
    range.step_by(size).map(|start| start..(start + size).min(end)).collect()
}

/// The stage names the page shows while the pieces of a kind run (those
/// of the one-worker workflow).
const ALIGNING: &str = "aligning";
const BASELINE: &str = "baseline (Tinsley et al.)";
const TRANSLATING: &str = "translating";

impl Pool {
    pub fn new(size: usize) -> Pool {
        Pool::with_parts(size, ALIGNED_PART_PAIRS)
    }

    /// A pool whose alignment pieces are of `part_pairs` pairs.
    pub fn with_parts(size: usize, part_pairs: usize) -> Pool {
        let workers = vec![WorkerState::default(); size.max(1)];
        Pool { part_pairs: part_pairs.max(1), workers, running: None, aligned_by: Vec::new() }
    }

    pub fn size(&self) -> usize {
        self.workers.len()
    }

    /// Every worker was restarted (a cancel, or one died): none holds
    /// anything, and the running job is dropped.
    pub fn restarted(&mut self) {
        *self = Pool::with_parts(self.size(), self.part_pairs);
    }

    /// A request of the page's state, at `now` (ms since any origin).
    pub fn request(&mut self, request: Request, now: f64) -> Vec<Command> {
        match request {
            Request::Train { job, corpus, options, lexicon, how } => {
                let pairs = corpus.source.matches('\n').count() as u64;
                // A word model dev chooses (`keep_best`) is known once the model is trained.
                let word_model_chosen = options.iter().any(crate::align::model::TrainOptions::tunes_word_model);
                let preview = alignment::preview_options(&options, pairs as usize);
                let mut pieces =
                    vec![Piece::new(Task::Train { options, how }, PieceKind::Train, Some(Artifact::Model), 0)];
                pieces[0].pinned = Some(0);
                let Some(split) = how.split(pairs as usize) else {
                    // Too few pairs: training says so, and nothing follows.
                    let assembly = Assembly::aligned(0..0, 0);
                    self.start(job, pieces, Some((corpus, lexicon)), assembly);
                    return self.dispatch();
                };
                let (aligned, sentences) = alignment::aligned_after_training(&split, how.test);
                let units = aligned.len() as u64;
                let lexicon_piece = |of| {
                    let task = Task::InputLexicon { of, sentences, aligned: aligned.clone() };
                    Piece::new(task, PieceKind::Lexicon, Some(Artifact::InputLexicon), units)
                };
                pieces.push(match word_model_chosen && split.dev > 0 {
                    true => lexicon_piece(LexicalOf::Trained).after(&[0], &[Artifact::Model]),
                    false => lexicon_piece(LexicalOf::Training(how)),
                });
                // A held-out test's baseline uses the model's lexicon, as `experiment` scores it.
                let baseline_with = match how.test {
                    true => Artifact::InputLexicon,
                    false => {
                        pieces.push(Piece::new(
                            Task::BaselineLexicon,
                            PieceKind::Lexicon,
                            Some(Artifact::BaselineLexicon),
                            units,
                        ));
                        Artifact::BaselineLexicon
                    }
                };
                // The first model, on a worker of its own when there are two (the last), else first.
                if let Some(options) = preview {
                    let task = Task::Preview { options, how };
                    let mut piece = Piece::new(task, PieceKind::Preview, None, units);
                    piece.pinned = Some(self.size() - 1);
                    pieces.push(piece);
                }
                self.plan_alignment(job, pieces, (corpus, lexicon), aligned, baseline_with);
                self.dispatch()
            }
            Request::Align { job, corpus, model, lexicon } => {
                let pairs = corpus.source.matches('\n').count();
                let of = LexicalOf::Model;
                let lexicon_task = Task::InputLexicon { of, sentences: InputSentences::Train, aligned: 0..pairs };
                let pieces = vec![
                    Piece::new(lexicon_task, PieceKind::Lexicon, Some(Artifact::InputLexicon), pairs as u64)
                        .after(&[], &[Artifact::Model]),
                    Piece::new(Task::BaselineLexicon, PieceKind::Lexicon, Some(Artifact::BaselineLexicon), 0),
                ];
                self.plan_alignment(job, pieces, (corpus, lexicon), 0..pairs, Artifact::BaselineLexicon);
                let mut out = vec![Command::Store { artifact: Artifact::Model, text: model }];
                if let Some(r) = &mut self.running {
                    r.made.insert(Artifact::Model);
                }
                out.extend(self.dispatch());
                out
            }
            Request::Update { job, corpus, model, kept, train, aligned_from, sentences, lexicon } => {
                let pairs = corpus.source.matches('\n').count();
                let aligned = aligned_from.min(pairs)..pairs;
                let update = Task::Update { model, kept, train, sentences };
                let mut pieces = vec![Piece::new(update, PieceKind::Train, Some(Artifact::Model), 0)];
                pieces[0].pinned = Some(0);
                let lexicon_task = Task::InputLexicon { of: LexicalOf::Trained, sentences, aligned: aligned.clone() };
                pieces.push(
                    Piece::new(lexicon_task, PieceKind::Lexicon, Some(Artifact::InputLexicon), aligned.len() as u64)
                        .after(&[0], &[Artifact::Model]),
                );
                // No baseline lexicon of its own: the baseline runs with the aligning lexicon.
                self.plan_alignment(job, pieces, (corpus, lexicon), aligned, Artifact::InputLexicon);
                self.dispatch()
            }
            Request::TranslateAll { job, model, sources } => {
                let holders = self.workers.iter().filter(|w| w.mt == Some(model)).count();
                if holders == 0 {
                    // None known to hold it: the main worker answers (MtMissing, if so).
                    return vec![post(0, Request::TranslateAll { job, model, sources })];
                }
                let parts = parts_of(0..sources.len(), PIECE_SOURCES);
                let pieces = parts
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let task = Task::Translate { model, sources: sources[r.clone()].to_vec(), first: r.start };
                        Piece::new(task, PieceKind::Translate(i), None, r.len() as u64)
                    })
                    .collect();
                self.start(
                    job,
                    pieces,
                    None,
                    Assembly::Translated { hyps: vec![None; parts.len()], started: now, fit: WordFit::default() },
                );
                self.dispatch()
            }
            Request::Explain { pair, source, target } => {
                let owner = self.aligned_by.iter().find(|(r, _)| r.contains(&pair.index())).map_or(0, |&(_, w)| w);
                vec![post(owner, Request::Explain { pair, source, target })]
            }
            // A translation model goes to every worker (each reads it), so
            // every one can translate its share of the pairs.
            Request::LoadMt { .. } | Request::LoadMtFile { .. } => {
                let with_file = matches!(request, Request::LoadMtFile { .. });
                let blob = if with_file { Blob::File } else { Blob::None };
                (0..self.size()).map(|worker| Command::Post { worker, request: request.clone(), blob }).collect()
            }
            other => vec![post(0, other)],
        }
    }

    /// The pieces of an alignment of pairs `aligned`: `pieces` (training,
    /// lexicons), then a search and a baseline piece per part.
    fn plan_alignment(
        &mut self,
        job: JobId,
        mut pieces: Vec<Piece>,
        corpus: (CorpusText, LexiconFiles),
        aligned: Range<usize>,
        baseline_with: Artifact,
    ) {
        let made_by = |pieces: &[Piece], a: Artifact| -> Vec<usize> {
            pieces.iter().enumerate().filter(|(_, p)| p.makes == Some(a)).map(|(k, _)| k).collect()
        };
        let parts = parts_of(aligned.clone(), self.part_pairs);
        let search_after: Vec<usize> =
            [made_by(&pieces, Artifact::Model), made_by(&pieces, Artifact::InputLexicon)].concat();
        let baseline_after = made_by(&pieces, baseline_with);
        for (i, r) in parts.iter().enumerate() {
            let task = Task::Search { pairs: r.clone(), aligned_from: aligned.start };
            let piece = Piece::new(task, PieceKind::Search(i), None, r.len() as u64);
            pieces.push(piece.after(&search_after, &[Artifact::Model, Artifact::InputLexicon]));
        }
        for (i, r) in parts.iter().enumerate() {
            let task = Task::Baseline { pairs: r.clone(), with: baseline_with };
            let piece = Piece::new(task, PieceKind::Baseline(i), None, r.len() as u64);
            pieces.push(piece.after(&baseline_after, &[baseline_with]));
        }
        let assembly = Assembly::aligned(aligned, parts.len());
        self.start(job, pieces, Some(corpus), assembly);
    }

    fn start(
        &mut self,
        job: JobId,
        pieces: Vec<Piece>,
        corpus: Option<(CorpusText, LexiconFiles)>,
        assembly: Assembly,
    ) {
        self.running = Some(Running { job, pieces, corpus, made: BTreeSet::new(), assembly, failed: false });
    }

    /// Hands the waiting pieces to the idle workers (each the first piece it
    /// can take, in plan order), with what they need first.
    fn dispatch(&mut self) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(r) = &mut self.running else { return out };
        if r.failed {
            return out;
        }
        for (w, worker) in self.workers.iter_mut().enumerate() {
            if worker.busy.is_some() {
                continue;
            }
            let ready = |p: &Piece| {
                p.state == PieceState::Waiting
                    && p.pinned.is_none_or(|x| x == w)
                    && p.after.iter().all(|&a| r.pieces[a].state == PieceState::Done)
                    && match &p.task {
                        Task::Translate { model, .. } => worker.mt == Some(*model),
                        _ => true,
                    }
            };
            // The first model goes before anything else its worker could take.
            let first_model = r.pieces.iter().position(|p| p.kind == PieceKind::Preview && ready(p));
            let Some(k) = first_model.or_else(|| r.pieces.iter().position(ready)) else { continue };
            if worker.holds_job != Some(r.job) {
                (worker.holds_job, worker.holds) = (Some(r.job), BTreeSet::new());
                if let Some((corpus, lexicon)) = &r.corpus {
                    let task = Task::Corpus { corpus: corpus.clone(), lexicon: lexicon.clone() };
                    out.push(post(w, Request::Piece { job: r.job, piece: None, task }));
                }
            }
            for &a in &r.pieces[k].needs {
                if !worker.holds.contains(&a) && r.made.contains(&a) {
                    let request = Request::Piece { job: r.job, piece: None, task: Task::Keep(a) };
                    out.push(Command::Post { worker: w, request, blob: Blob::Artifact(a) });
                    worker.holds.insert(a);
                }
            }
            let piece = &mut r.pieces[k];
            piece.state = PieceState::Running(w);
            (worker.busy, worker.reported) = (Some(k), 0);
            out.push(post(w, Request::Piece { job: r.job, piece: Some(k), task: piece.task.clone() }));
        }
        out
    }

    /// A response of worker `worker`, at `now` (ms).
    pub fn answer(&mut self, worker: WorkerIx, response: Response, now: f64) -> Vec<Command> {
        let running_job = self.running.as_ref().map(|r| r.job);
        match response {
            Response::PieceDone { job, piece, result } => {
                if piece.is_some() && self.workers.get(worker).is_some_and(|w| w.busy == piece) {
                    self.workers[worker].busy = None;
                }
                if running_job != Some(job) {
                    return self.dispatch();
                }
                let preview = piece.is_some_and(|k| self.is_preview(k));
                let mut out = match (piece, result) {
                    // A first model that failed is not shown; the chosen one still comes.
                    (Some(k), Err(_)) if preview => self.piece_done(worker, k, Output::Done, now),
                    (_, Err(message)) => self.fail(job, message),
                    (None, Ok(_)) => Vec::new(),
                    (Some(k), Ok(output)) => self.piece_done(worker, k, output, now),
                };
                out.extend(self.dispatch());
                out
            }
            Response::Progress { job, done, .. }
                if running_job == Some(job) && self.workers.get(worker).is_some_and(|w| w.busy.is_some()) =>
            {
                self.workers[worker].reported = done;
                self.progress(worker, response)
            }
            // A helper's answer to a translation model sent to every worker:
            // the pool notes it holds it; the page hears the main worker's.
            Response::MtReady { model, .. } => {
                self.workers[worker].mt = Some(model);
                if worker == 0 {
                    vec![Command::Answer(response)]
                } else {
                    Vec::new()
                }
            }
            Response::Explained { .. } | Response::Stopped { .. } => vec![Command::Answer(response)],
            Response::Failed { job: Some(job), message } if running_job == Some(job) => {
                let mut out = self.fail(job, message);
                out.extend(self.dispatch());
                out
            }
            _ if worker != 0 => Vec::new(),
            other => vec![Command::Answer(other)],
        }
    }

    fn fail(&mut self, job: JobId, message: String) -> Vec<Command> {
        match &mut self.running {
            Some(r) if r.job == job && !r.failed => {
                r.failed = true;
                vec![Command::Answer(Response::Failed { job: Some(job), message })]
            }
            _ => Vec::new(),
        }
    }

    /// Piece `k` of the running job is done on `worker` with `output`.
    fn piece_done(&mut self, worker: WorkerIx, k: usize, output: Output, now: f64) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(r) = &mut self.running else { return out };
        let Some(piece) = r.pieces.get_mut(k) else { return out };
        piece.state = PieceState::Done;
        let kind = piece.kind;
        if let Some(a) = piece.makes {
            r.made.insert(a);
            self.workers[worker].holds.insert(a);
        }
        let job = r.job;
        // Shown only while the chosen model is still to come.
        let trained = r.pieces.iter().any(|p| p.kind == PieceKind::Train && p.state == PieceState::Done);
        match (&mut r.assembly, output) {
            (_, Output::Preview { summary, searches, first }) if !trained => {
                out.push(Command::Answer(Response::Preview { job, summary, searches, first }));
            }
            (Assembly::Aligned { note, .. }, Output::Trained { model, summary, note: n, kept }) => {
                *note = Some(n);
                out.push(Command::Answer(Response::Trained { job, model, summary, kept }));
            }
            (Assembly::Aligned { note, .. }, Output::Made { note: Some(n), .. }) => *note = Some(n),
            (Assembly::Aligned { searches, .. }, Output::Searches(s)) => {
                if let PieceKind::Search(i) = kind {
                    searches[i] = Some(s);
                    self.aligned_by_part(worker, k);
                }
            }
            (Assembly::Aligned { baseline, .. }, Output::Baseline(b)) => {
                if let PieceKind::Baseline(i) = kind {
                    baseline[i] = Some(b);
                }
            }
            (Assembly::Translated { hyps, fit, .. }, Output::Translations(h, part)) => {
                if let PieceKind::Translate(i) = kind {
                    hyps[i] = Some(h);
                }
                *fit = fit.and(part);
            }
            (_, Output::NoMtModel) => {
                // It was thought to hold the model: not any more.
                self.workers[worker].mt = None;
                if let Some(p) = self.running.as_mut().and_then(|r| r.pieces.get_mut(k)) {
                    p.state = PieceState::Waiting;
                }
                if self.workers.iter().all(|w| w.mt.is_none()) {
                    self.running = None;
                    out.push(Command::Answer(Response::MtMissing { job }));
                }
                return out;
            }
            _ => {}
        }
        out.extend(self.hand_on(now));
        if let Some(p) = self.aggregate(kind) {
            out.push(Command::Answer(p));
        }
        out
    }

    /// Records who aligned the pairs of search piece `k`.
    fn aligned_by_part(&mut self, worker: WorkerIx, k: usize) {
        let Some(r) = &self.running else { return };
        if let Task::Search { pairs, .. } = &r.pieces[k].task {
            if r.pieces.iter().filter(|p| matches!(p.kind, PieceKind::Search(_)) && p.state == PieceState::Done).count()
                == 1
            {
                self.aligned_by.clear();
            }
            self.aligned_by.push((pairs.clone(), worker));
        }
    }

    /// Hands on, in order, what is complete: the parts of an alignment
    /// whose searches and baseline are both in, then its end; a
    /// translation once every piece is in.
    fn hand_on(&mut self, now: f64) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(r) = &mut self.running else { return out };
        let job = r.job;
        let finished = match &mut r.assembly {
            Assembly::Aligned { searches, baseline, note, first, handed, link_search } => {
                while *handed < searches.len() && searches[*handed].is_some() && baseline[*handed].is_some() {
                    let (s, b) = (searches[*handed].take().unwrap_or_default(), baseline[*handed].take());
                    *link_search = s.link_search;
                    out.push(Command::Answer(Response::AlignedPart {
                        job,
                        searches: s.searches,
                        baseline: b.unwrap_or_default(),
                        uncertainty: s.uncertainty,
                    }));
                    *handed += 1;
                }
                let finished = *handed == searches.len() && r.pieces.iter().all(|p| p.state == PieceState::Done);
                if finished {
                    out.push(Command::Answer(Response::Aligned {
                        job,
                        searches: Vec::new(),
                        baseline: Vec::new(),
                        lexicon: note.take().unwrap_or_default(),
                        first: *first,
                        uncertainty: Vec::new(),
                        link_search: *link_search,
                    }));
                }
                finished
            }
            Assembly::Translated { hyps, started, fit } => {
                let finished = hyps.iter().all(Option::is_some);
                if finished {
                    let hyps = hyps.iter_mut().flat_map(|h| h.take().unwrap_or_default()).collect();
                    let seconds = (now - *started) / 1000.0;
                    out.push(Command::Answer(Response::TranslatedAll {
                        job,
                        hyps,
                        seconds,
                        note: task::fit_note(*fit),
                    }));
                }
                finished
            }
        };
        if finished {
            self.running = None;
        }
        out
    }

    /// Whether piece `k` of the running job is the first model's.
    fn is_preview(&self, k: usize) -> bool {
        self.running.as_ref().and_then(|r| r.pieces.get(k)).is_some_and(|p| p.kind == PieceKind::Preview)
    }

    /// A worker's progress report on its piece: the bar shows the training
    /// (worker 0's piece) while it runs, the first model's before it
    /// starts (one worker), a lexicon's while those are all that run, then
    /// the searches, baselines or translations of every worker summed.
    fn progress(&mut self, worker: WorkerIx, report: Response) -> Vec<Command> {
        let Some(r) = &self.running else { return Vec::new() };
        let Some(k) = self.workers[worker].busy else { return Vec::new() };
        let kind = r.pieces[k].kind;
        let training = r.pieces.iter().any(|p| p.kind == PieceKind::Train && p.state != PieceState::Done);
        let train_waits = r.pieces.iter().any(|p| p.kind == PieceKind::Train && p.state == PieceState::Waiting);
        match kind {
            PieceKind::Train => vec![Command::Answer(report)],
            PieceKind::Preview if train_waits => vec![Command::Answer(report)],
            PieceKind::Preview => Vec::new(),
            PieceKind::Lexicon if !training => vec![Command::Answer(report)],
            PieceKind::Lexicon => Vec::new(),
            _ if training => Vec::new(),
            _ => self.aggregate(kind).map(Command::Answer).into_iter().collect(),
        }
    }

    /// The summed progress of the pieces of `kind`'s sort.
    fn aggregate(&self, kind: PieceKind) -> Option<Response> {
        let r = self.running.as_ref()?;
        let (stage, same): (&str, fn(PieceKind) -> bool) = match kind {
            PieceKind::Search(_) => (ALIGNING, |k| matches!(k, PieceKind::Search(_))),
            PieceKind::Baseline(_) => (BASELINE, |k| matches!(k, PieceKind::Baseline(_))),
            PieceKind::Translate(_) => (TRANSLATING, |k| matches!(k, PieceKind::Translate(_))),
            _ => return None,
        };
        let (mut done, mut total) = (0, 0);
        for p in r.pieces.iter().filter(|p| same(p.kind)) {
            total += p.units;
            done += match p.state {
                PieceState::Done => p.units,
                PieceState::Running(w) => self.workers[w].reported.min(p.units),
                PieceState::Waiting => 0,
            };
        }
        Some(Response::Progress { job: r.job, stage: stage.to_string(), done, total, gap: None })
    }
}

fn post(worker: WorkerIx, request: Request) -> Command {
    Command::Post { worker, request, blob: Blob::None }
}

impl Assembly {
    fn aligned(aligned: Range<usize>, parts: usize) -> Assembly {
        Assembly::Aligned {
            searches: vec![None; parts],
            baseline: vec![None; parts],
            note: None,
            first: aligned.start,
            handed: 0,
            link_search: LinkSearch::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::align::greedy::Search;
    use crate::align::lexical::input_lexicon;
    use crate::align::model::{TrainOptions, WarmStart};
    use crate::app::alignment::{self, PairsTraining};
    use crate::app::annotation::update_model;
    use crate::corpus::{Corpus, PairIndex};
    use crate::lexicon::WordModel;
    use crate::progress::{Flow, Progress};
    use std::collections::{BTreeMap, VecDeque};

    /// A pool of `size` executors run in this thread, messages taken in a
    /// scrambled order (so pieces finish out of plan order).
    struct Simulated {
        pool: Pool,
        executors: Vec<Executor>,
        queues: Vec<VecDeque<(Request, Option<String>)>>,
        blobs: BTreeMap<Artifact, String>,
        page: Vec<Response>,
        turn: usize,
    }

    impl Simulated {
        fn new(size: usize, part_pairs: usize) -> Simulated {
            Simulated {
                pool: Pool::with_parts(size, part_pairs),
                executors: (0..size).map(|_| Executor::default()).collect(),
                queues: vec![VecDeque::new(); size],
                blobs: BTreeMap::new(),
                page: Vec::new(),
                turn: 0,
            }
        }

        fn apply(&mut self, commands: Vec<Command>) {
            for c in commands {
                match c {
                    Command::Post { worker, request, blob } => {
                        let blob = if let Blob::Artifact(a) = blob { Some(self.blobs[&a].clone()) } else { None };
                        self.queues[worker].push_back((request, blob));
                    }
                    Command::Store { artifact, text } => {
                        self.blobs.insert(artifact, text);
                    }
                    Command::Answer(r) => self.page.push(r),
                }
            }
        }

        /// The page's responses to `request`, progress left out.
        fn run(&mut self, request: Request) -> Vec<Response> {
            self.page.clear();
            let commands = self.pool.request(request, 0.0);
            self.apply(commands);
            while self.queues.iter().any(|q| !q.is_empty()) {
                // A scrambled turn: every third worker with work, from a moving start.
                self.turn = (self.turn + 7) % 11;
                let size = self.queues.len();
                let w = (0..size).map(|i| (self.turn + i) % size).find(|&w| !self.queues[w].is_empty()).unwrap();
                let (request, blob) = self.queues[w].pop_front().unwrap();
                let Request::Piece { job, piece, task } = request else { panic!("{request:?}") };
                let mut reports = Vec::new();
                let mut observer = |p: Progress| {
                    let (stage, done, total, gap) = (p.stage.into(), p.done, p.total, p.gap);
                    reports.push(Response::Progress { job, stage, done, total, gap });
                    Flow::Continue(())
                };
                let result = self.executors[w].run(job, task, blob, None, &mut observer);
                for r in reports.into_iter().step_by(50) {
                    let commands = self.pool.answer(w, r, 0.0);
                    self.apply(commands);
                }
                let result = result.map(|(output, text)| {
                    let made = match &output {
                        Output::Trained { .. } => Some(Artifact::Model),
                        Output::Made { artifact, .. } => Some(*artifact),
                        _ => None,
                    };
                    if let (Some(a), Some(t)) = (made, text) {
                        self.blobs.insert(a, t);
                    }
                    output
                });
                let commands = self.pool.answer(w, Response::PieceDone { job, piece, result }, 0.0);
                self.apply(commands);
            }
            self.page.iter().filter(|r| !matches!(r, Response::Progress { .. })).cloned().collect()
        }
    }

    fn sample(n: usize) -> Corpus {
        let corpus = Corpus::read_prefix(concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev"), true).unwrap();
        Corpus { pairs: corpus.pairs[..n].to_vec() }
    }

    /// The page's Train request for `corpus`, without lexicon files.
    fn train(job: JobId, corpus: &Corpus, options: Vec<TrainOptions>, how: PairsTraining) -> Request {
        Request::Train { job, corpus: CorpusText::of(corpus), options, lexicon: LexiconFiles::default(), how }
    }

    /// The answers to a Train request by the `app` steps on one thread, as
    /// the CLI runs them (`train`, then `align` and `baseline`, or `align
    /// --held-out` on the test pairs): the model, the searches, the
    /// baseline, the end.
    type Answered = (Response, Vec<Search>, BaselineLinks, Response, Vec<f64>);

    fn one_worker(corpus: &Corpus, how: &PairsTraining, options: &[TrainOptions]) -> Answered {
        let (job, quiet) = (JobId(7), &mut crate::progress::Quiet);
        let split = how.split(corpus.len()).unwrap();
        let kept = alignment::train_on_pairs(corpus, how, None, None, options, quiet).unwrap();
        let (model, tried, kept) = (kept.model, kept.tried, Some(serde_json::to_string(&kept.options).unwrap()));
        let summary = alignment::trained_summary(&model, &split, &tried);
        let trained = Response::Trained { job, model: model.to_json(), summary, kept };
        let (first, sentences) = match how.test {
            true => (split.test_pairs().start, InputSentences::HeldOut),
            false => (0, InputSentences::Train),
        };
        let input = Corpus { pairs: corpus.pairs[first..].to_vec() };
        let aligned = alignment::align_input(&model, &input, None, sentences, quiet).unwrap();
        let (lexicon, note) = match how.test {
            true => (aligned.lexicon.clone(), alignment::held_out_note(&model, false)),
            false => (
                alignment::baseline_lexicon(&input, None, Vec::new(), WordModel::default(), quiet).unwrap(),
                alignment::compare_note(&model, &input, false, false),
            ),
        };
        let links = alignment::baseline(&input, &lexicon, &Default::default(), quiet).unwrap();
        let baseline = links.into_iter().map(|ls| ls.into_iter().map(|l| (l.source, l.target)).collect()).collect();
        let end = Response::Aligned {
            job,
            searches: Vec::new(),
            baseline: Vec::new(),
            lexicon: note,
            first,
            uncertainty: Vec::new(),
            link_search: model.search,
        };
        // How unsure the model is of each pair, as `simulate-annotation` computes it.
        let scorer = crate::align::model::Scorer::new(&model, &aligned.lexicon).unwrap();
        let uncertainty = input
            .pairs
            .iter()
            .zip(&aligned.word_links)
            .map(|(p, links)| scorer.uncertainty(&scorer.decisions(p, links)))
            .collect();
        (trained, aligned.searches, baseline, end, uncertainty)
    }

    /// The pool's responses: the model, the parts put together, the end.
    fn pooled(responses: &[Response]) -> Answered {
        let (mut searches, mut baseline, mut uncertainty) = (Vec::new(), Vec::new(), Vec::new());
        for r in responses {
            if let Response::AlignedPart { searches: s, baseline: b, uncertainty: u, .. } = r {
                searches.extend(s.iter().cloned());
                baseline.extend(b.iter().cloned());
                uncertainty.extend(u.iter().copied());
            }
        }
        let trained = responses.iter().find(|r| matches!(r, Response::Trained { .. })).cloned().unwrap();
        let end = responses.last().cloned().unwrap();
        (trained, searches, baseline, end, uncertainty)
    }

    #[test]
    fn a_pool_of_any_size_answers_train_as_one_worker_does() {
        let corpus = sample(48);
        // Two configurations, the better on dev kept (the page's default plans several).
        let paper = TrainOptions { max_examples: 300, ..TrainOptions::default() };
        let options = vec![TrainOptions { spec: "plain".parse().unwrap(), ..paper.clone() }, paper];
        // The word model chosen on dev too: the aligning lexicon waits for the model.
        let choosing: Vec<TrainOptions> =
            options.iter().map(|o| TrainOptions { tune_word_model: WordModel::ALL.to_vec(), ..o.clone() }).collect();
        let held_out = PairsTraining { calibrate: true, test: true, ..PairsTraining::default() };
        for (how, options) in [(PairsTraining::default(), &options), (held_out, &options), (held_out, &choosing)] {
            let expected = one_worker(&corpus, &how, options);
            assert_eq!(expected.4.len(), expected.1.len());
            assert!(expected.4.iter().any(|&u| u > 0.0) && expected.4.iter().all(|&u| u <= 1.0), "{:?}", expected.4);
            for size in [1, 2, 3] {
                let mut pool = Simulated::new(size, 7);
                let responses = pool.run(train(JobId(7), &corpus, options.to_vec(), how));
                assert!(matches!(responses[0], Response::Trained { .. }), "the model first: {:?}", responses[0]);
                let parts = responses.iter().filter(|r| matches!(r, Response::AlignedPart { .. })).count();
                assert_eq!(parts, expected.1.len().div_ceil(7), "{size} workers");
                assert!(pooled(&responses) == expected, "{size} workers, {how:?}");
                // Each pair is explained by the worker that aligned it, as one worker explains it.
                let pair = PairIndex::new(if how.test { 45 } else { 30 });
                let commands =
                    pool.pool.request(Request::Explain { pair, source: NodeId::ROOT, target: NodeId::ROOT }, 0.0);
                let [Command::Post { worker, .. }] = commands.as_slice() else { panic!("{commands:?}") };
                assert!(pool.executors[*worker].explain(pair, (NodeId::ROOT, NodeId::ROOT)).unwrap().is_ok());
            }
        }
    }

    /// *Annotate*'s update: the kept configuration trained again on the
    /// pairs the model saw and those annotated, then the pairs it never saw
    /// aligned held out (or every pair, their sentences joining the
    /// lexicon), as the `app` steps do on one thread
    /// (`annotation::update_model`, then `align_input`), whatever the pool's size.
    #[test]
    fn an_update_trains_the_kept_configuration_again_then_aligns_as_the_app_steps_do() {
        let corpus = sample(30);
        let quiet = &mut crate::progress::Quiet;
        let options = TrainOptions { spec: "plain".parse().unwrap(), max_examples: 300, ..TrainOptions::default() };
        let seen = Corpus { pairs: corpus.pairs[..20].to_vec() };
        let kept = alignment::train_on_pairs(&seen, &PairsTraining::default(), None, None, &[options], quiet).unwrap();
        // Pairs 26 and 28 annotated (their gold the annotator's links).
        let train: Vec<usize> = (0..20).chain([25, 27]).collect();
        for (aligned_from, sentences) in [(20, InputSentences::HeldOut), (0, InputSentences::Train)] {
            let bitext = crate::lexicon::bitext_of(&corpus);
            let lexicon = input_lexicon(&kept.model.lexicon, &bitext, sentences, "lexicon", quiet).unwrap();
            let pairs = Corpus { pairs: train.iter().map(|&k| corpus.pairs[k].clone()).collect() };
            let words = |k: usize| lexicon.links(k, corpus.pairs[k].source.words(), corpus.pairs[k].target.words());
            let links = train.iter().map(|&k| words(k)).collect();
            let warm = &mut WarmStart::default();
            let updated =
                update_model(&pairs, links, &kept.options, &kept.model, &lexicon.lexicon, warm, quiet).unwrap();
            assert_ne!(updated.to_json(), kept.model.to_json(), "the pairs annotated changed the model");
            assert_eq!((updated.threshold, updated.posterior), (kept.model.threshold, kept.model.posterior));
            let input = Corpus { pairs: corpus.pairs[aligned_from..].to_vec() };
            let aligned = alignment::align_input(&updated, &input, None, sentences, quiet).unwrap();
            for size in [1, 2] {
                let mut pool = Simulated::new(size, 7);
                let responses = pool.run(Request::Update {
                    job: JobId(3),
                    corpus: CorpusText::of(&corpus),
                    model: kept.model.to_json(),
                    kept: serde_json::to_string(&kept.options).unwrap(),
                    train: train.clone(),
                    aligned_from,
                    sentences,
                    lexicon: LexiconFiles::default(),
                });
                let Some(Response::Trained { model, kept: k, .. }) = responses.first() else { panic!("{responses:?}") };
                let k: Option<TrainOptions> = k.as_deref().map(|k| serde_json::from_str(k).unwrap());
                assert_eq!((model, k.as_ref()), (&updated.to_json(), Some(&kept.options)), "{size} workers");
                assert_eq!(pooled(&responses).1, aligned.searches, "{size} workers, {sentences:?}");
                assert!(matches!(responses.last(), Some(Response::Aligned { first, .. }) if *first == aligned_from));
            }
        }
    }

    /// With a first model planned (issue 38, item 2), the page sees its
    /// alignment before the chosen model (on one worker, it runs first; on
    /// more, beside the training, and is left out if the chosen model came
    /// first), and the chosen model and its alignment are those without it.
    #[test]
    fn a_first_model_comes_before_the_chosen_one_and_changes_nothing_of_it() {
        let corpus = sample(40);
        let smo = TrainOptions { spec: "plain".parse().unwrap(), max_examples: 300, ..TrainOptions::default() };
        let linear = TrainOptions {
            spec: "plain+dbtk-root".parse().unwrap(),
            solver: crate::align::primal::Solver::Linear,
            tune_c: vec![1.0, 5.0],
            ..TrainOptions::default()
        };
        let options = vec![smo, linear];
        let preview = alignment::preview_options(&options, corpus.len()).expect("a choice on dev: a first model");
        let how = PairsTraining { calibrate: true, ..PairsTraining::default() };
        let expected = one_worker(&corpus, &how, &options);
        let quiet = &mut crate::progress::Quiet;
        let first = alignment::preview_on_pairs(&corpus, &how, None, None, &preview, quiet).unwrap();
        assert_eq!((first.first, first.searches.len()), (0, corpus.len()));
        let first = Response::Preview { job: JobId(7), summary: first.summary, searches: first.searches, first: 0 };
        for size in [1, 2, 3] {
            let mut pool = Simulated::new(size, 7);
            let responses = pool.run(train(JobId(7), &corpus, options.clone(), how));
            assert!(pooled(&responses) == expected, "{size} workers: the chosen model as without a first one");
            let at = |f: fn(&Response) -> bool| responses.iter().position(f);
            let (shown, trained) =
                (at(|r| matches!(r, Response::Preview { .. })), at(|r| matches!(r, Response::Trained { .. })));
            if size == 1 {
                assert_eq!(shown, Some(0), "one worker: the first model first");
            }
            if let Some(k) = shown {
                assert!(k < trained.unwrap(), "{size} workers: the first model before the chosen one");
                assert!(responses[k] == first, "{size} workers: the first model as `preview_on_pairs` makes it");
            }
        }
    }

    #[test]
    fn progress_is_one_bar_summed_over_the_workers() {
        let mut pool = Pool::with_parts(2, 10);
        let corpus = sample(30);
        let commands =
            pool.request(train(JobId(1), &corpus, vec![TrainOptions::default()], PairsTraining::default()), 0.0);
        // Worker 0 trains; worker 1 takes the aligning lexicon; the rest waits.
        let posted: Vec<(WorkerIx, Option<usize>)> = commands
            .iter()
            .filter_map(|c| match c {
                Command::Post { worker, request: Request::Piece { piece, .. }, .. } => Some((*worker, *piece)),
                _ => None,
            })
            .collect();
        assert_eq!(posted, [(0, None), (0, Some(0)), (1, None), (1, Some(1))]);
        let report =
            |stage: &str, done| Response::Progress { job: JobId(1), stage: stage.into(), done, total: 9, gap: None };
        // While training runs, its reports are the bar; the lexicon's are not.
        assert_eq!(pool.answer(0, report("features", 3), 0.0), [Command::Answer(report("features", 3))]);
        assert!(pool.answer(1, report("lexical model for aligning", 2), 0.0).is_empty());
    }
}
