//! `treelink exercise new|answer|check`: classroom exercises (engine:
//! [`treelink::exercise`]); the page makes and checks the same files.

use clap::{Args, Subcommand};

use super::output::write_file;
use super::CliError;
use treelink::corpus::{Corpus, Named};
use treelink::exercise::{Answers, ClassTable, Exercise, ExerciseError};
use treelink::io::text::read_text_file;
use treelink::tree::NodeId;

#[derive(Subcommand, Debug)]
pub enum ExerciseCommand {
    /// Make an exercise from pairs of a gold-aligned treebank (their gold links are the key),
    /// and, with --student-copy, a copy for the students without the key.
    New(NewArgs),
    /// Write a student's answers file from a links file (one line of links per exercise pair).
    Answer(AnswerArgs),
    /// Check answers files against an exercise's key: P/R/F per student and per pair, and the
    /// links most students got wrong or missed (tab-separated).
    Check(CheckArgs),
}

#[derive(Args, Debug)]
pub struct NewArgs {
    /// The treebank: PREFIX.src, PREFIX.trg and PREFIX.gold.
    #[arg(long, value_name = "PREFIX")]
    corpus: String,
    /// Pair numbers (1-based, as the page shows them), comma-separated, in the order to hand out.
    #[arg(long, value_name = "N,N,...", value_delimiter = ',', required = true)]
    pairs: Vec<usize>,
    #[arg(long, default_value = "Sub-tree alignment exercise")]
    title: String,
    /// Instructions for the students (plain text).
    #[arg(long, default_value = "")]
    instructions: String,
    /// Show the key's links to the students while they align.
    #[arg(long)]
    show_gold: bool,
    /// The exercise file to write (with the key: keep it to check the answers, or hand it out
    /// for the students to check themselves).
    #[arg(short, long, value_name = "EXERCISE")]
    output: String,
    /// Also write the students' copy without the key (no key link, no count of them): its
    /// answers are checked against EXERCISE.
    #[arg(long, value_name = "STUDENT_COPY")]
    student_copy: Option<String>,
}

#[derive(Args, Debug)]
pub struct AnswerArgs {
    /// The exercise file.
    exercise: String,
    /// One line of links (`2-3 5-7`) per exercise pair, in its order.
    links: String,
    #[arg(long)]
    student: String,
    /// The answers file to write.
    #[arg(short, long, value_name = "ANSWERS")]
    output: String,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The exercise file with its key (not a student copy).
    exercise: String,
    /// Answers files of the students.
    #[arg(required = true)]
    answers: Vec<String>,
}

pub fn run(command: ExerciseCommand) -> Result<(), CliError> {
    match command {
        ExerciseCommand::New(args) => {
            let corpus = Corpus::read_prefix(&args.corpus, true)?;
            let exercise = Exercise::new(&corpus, &args.pairs, &args.title, &args.instructions, args.show_gold)?;
            write_file(&args.output, exercise.to_json())?;
            eprintln!(
                "treelink: wrote {}: {}; fingerprint {}",
                args.output,
                exercise.summary(),
                exercise.fingerprint()
            );
            if let Some(copy) = &args.student_copy {
                let student = exercise.student_copy();
                write_file(copy, student.to_json())?;
                eprintln!("treelink: wrote {copy}: {}; check its answers against {}", student.summary(), args.output);
            }
            Ok(())
        }
        ExerciseCommand::Answer(args) => {
            let exercise = read_exercise(&args.exercise)?;
            let text = read_text_file(&args.links)?;
            // Node numbers are checked against the exercise's trees, with the place.
            let links = exercise.corpus().read_links(Named { name: &args.links, text: &text })?;
            let links: Vec<Vec<(NodeId, NodeId)>> =
                links.iter().map(|line| line.iter().map(|l| (l.source, l.target)).collect()).collect();
            write_file(&args.output, Answers::new(&exercise, &args.student, &links).to_json())
        }
        ExerciseCommand::Check(args) => {
            let exercise = read_exercise(&args.exercise)?;
            let mut answers = Vec::with_capacity(args.answers.len());
            for file in &args.answers {
                let text = read_text_file(file)?;
                answers.push((file.clone(), Answers::from_json(&text, file, &exercise, &args.exercise)?));
            }
            out!("{}", ClassTable::new(&exercise, &answers).to_string().trim_end())
        }
    }
}

fn read_exercise(file: &str) -> Result<Exercise, CliError> {
    Ok(Exercise::from_json(&read_text_file(file)?, file)?)
}

impl From<ExerciseError> for CliError {
    fn from(e: ExerciseError) -> CliError {
        CliError::Exercise(Box::new(e))
    }
}
