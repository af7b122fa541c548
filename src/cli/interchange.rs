//! `treelink import` and `treelink export`: treebanks in and out of the
//! bracketed files (TigerXML + Stockholm TreeAligner, the Dublin aligner's
//! format). The workflows are `app::interchange`'s; these read the files,
//! call them, write what they make and print what they changed.

use std::path::Path;

use clap::{Args, Subcommand};

use super::progress::notes;
use super::CliError;
use treelink::app::files::{self, TigerDirection, WORDS};
use treelink::app::interchange::{self, MadeFile, Originals};
use treelink::corpus::{Corpus, Named};
use treelink::io::links::Link;
use treelink::io::text::{decode_text_as, read_text_file, ReadError};
use treelink::tiger::{IdsFile, ImportOptions, LinkOrigin, StaLinks};

/// `treelink import`.
#[derive(Subcommand, Debug)]
pub enum ImportCommand {
    /// A TigerXML treebank pair with its Stockholm TreeAligner alignment, as bracketed files.
    ///
    /// Writes PREFIX.src, PREFIX.trg, PREFIX.gold and PREFIX.ids (each pair's sentence ids and
    /// every node's original id, with the treebanks as the alignment declares them), PREFIX.words
    /// when the alignment links words (its links between two terminals as word positions, `i-j`
    /// or fuzzy `i-j?` from 0, a line per pair, whatever the options keep as gold; `train` and
    /// `align` read a set's PREFIX.words as its word links unless --no-words or --word-align
    /// is given), and lists on
    /// stdout every change it made: discontinuous constituents made continuous (pair, node id,
    /// what was raised), words attached to the root, links set aside, links it could not keep
    /// and why. Every link the trees can hold is kept, POS links too: in PREFIX.gold, or, for a
    /// link on a node whose yield changed (its constituent was discontinuous, so the node now
    /// covers fewer words than the annotators linked: no aligner can find such a link, and as a
    /// training example it is noise), set aside in PREFIX.ids; `export sta` of PREFIX.gold puts
    /// them back and gives back the alignment's links. The pairs are the 1:1 sentence links, in
    /// the alignment's order.
    ///
    /// Direction, one rule here and in the page: the source is the treebank the alignment
    /// declares first; --reverse (the page: *Swap source and target*) takes the other. --source
    /// and --target name the files as the rule makes them, and are refused the other way round,
    /// saying what to give. Which file is which declared treebank comes from the node ids each
    /// holds, else the files' names.
    Tiger(ImportTigerArgs),
    /// The Dublin sub-tree aligner's format (tree, tree, links, blank line per pair), as bracketed files.
    Dublin(ImportDublinArgs),
}

/// `treelink import tiger`.
#[derive(Args, Debug)]
pub struct ImportTigerArgs {
    /// The source treebank (TigerXML; gzip and an XML declaration's encoding are read): the one
    /// the alignment declares first, or second with --reverse.
    #[arg(long, value_name = "S.xml")]
    pub source: String,
    /// The target treebank (TigerXML).
    #[arg(long, value_name = "T.xml")]
    pub target: String,
    /// The alignment (Stockholm TreeAligner XML); which of its declared treebanks each file is
    /// comes from the node ids each holds, else the files' names.
    #[arg(long, value_name = "A.xml")]
    pub alignment: String,
    /// Keep only links between phrase nodes (POS links are counted, not kept).
    #[arg(long)]
    pub phrase_links: bool,
    /// Make the files as ../shared/data's bracketed files were made: phrase links only, the
    /// links of nodes whose yield changed dropped, nonterminals unreachable from the root
    /// dropped (the default keeps all three, the second set aside in PREFIX.ids, so the links
    /// round-trip).
    #[arg(long)]
    pub bracketed_data: bool,
    /// The source is the treebank the alignment declares second.
    #[arg(long)]
    pub reverse: bool,
    /// Output prefix: PREFIX.src, .trg, .gold, .ids, and .words when the alignment links words.
    #[arg(short = 'o', long = "output", value_name = "PREFIX")]
    pub output: String,
}

/// `treelink import dublin`.
#[derive(Args, Debug)]
pub struct ImportDublinArgs {
    /// The Dublin file.
    #[arg(long, value_name = "F.dublin")]
    pub input: String,
    /// Its encoding (the format cannot say it): utf-8, latin1, windows-1252, ...
    #[arg(long, value_name = "NAME", default_value = "utf-8")]
    pub encoding: String,
    /// Take the second tree of each pair as the source (the file's order otherwise).
    #[arg(long)]
    pub reverse: bool,
    /// Output prefix: PREFIX.src, .trg, .gold.
    #[arg(short = 'o', long = "output", value_name = "PREFIX")]
    pub output: String,
}

/// `treelink export`.
#[derive(Subcommand, Debug)]
pub enum ExportCommand {
    /// Links as a Stockholm TreeAligner file that opens with the original treebanks.
    ///
    /// Every node is named by its original id, from PREFIX.ids (an older PREFIX.ids of sentence
    /// ids alone needs --source and --target), and typed as Lingua-Align types it: type="t" for a
    /// POS node (a Tiger terminal), type="nt" for a phrase node. With the original alignment
    /// (--alignment, or the one PREFIX.ids names) its <treealign> tag and <head> are kept as
    /// written (metadata, the treebanks in its declared order) and so are its <sen-align>s of the
    /// exported pairs; without it, the treebanks are declared source first and no <sen-align> is
    /// written. Without PREFIX.ids, the nodes get made-up ids (those of `export tiger` of the same
    /// corpus), each pair with a <sen-align> of its two roots. A link to a virtual root the import
    /// added is left out and said so.
    ///
    /// Links from PREFIX.gold are annotations: type="good" (i-j) or "fuzzy" (i-j?), no prob. Links
    /// from any other file are a model's: a links file holds its decisions, not its posteriors, so
    /// i-j is written prob="1" type="good" and i-j? prob="0.5" type="fuzzy", so Lingua-Align, which
    /// reads prob above 0.5 as good, sees the same types. (Given a posterior p, the engine writes
    /// prob=p, good when p > 0.5, else fuzzy: Lingua-Align's own rule.)
    Sta(ExportStaArgs),
    /// The pairs as TigerXML with their links as STA, in DIR.
    ///
    /// With the original TigerXML files (named in PREFIX.ids, or --source and --target), each
    /// sentence is written as the original has it (every feature, edge label, secondary edge and
    /// discontinuous constituent) with the original <head>, each tree checked to be the one
    /// imported; the files are named as the alignment declares them. Without, the trees are
    /// written as TigerXML of their own (word, POS, category) as treelink-source.xml and
    /// treelink-target.xml. The STA file is `export sta`'s (typed nodes, the original's head and
    /// <sen-align>s, prob on a model's links): gold links (PREFIX.gold) take the original
    /// alignment's name (else alignment.xml); links from --links FILE are a model's and take
    /// FILE's name (pred.links → pred.sta.xml), never the gold alignment's.
    Tiger(ExportTigerArgs),
    /// The pairs and their links in the Dublin aligner's format (links lose their types).
    Dublin(ExportDublinArgs),
}

/// `treelink export sta`.
#[derive(Args, Debug)]
pub struct ExportStaArgs {
    /// The corpus: PREFIX.src, PREFIX.trg and, if there, PREFIX.ids.
    #[arg(long, value_name = "PREFIX")]
    pub input: String,
    /// The links, one line per pair: PREFIX.gold (annotations) or a model's (any other file).
    #[arg(long, value_name = "LINKS")]
    pub links: String,
    /// The posterior of each of a model's links (`treelink align --posteriors FILE`): written as
    /// prob, the link good when it is above 0.5, else fuzzy.
    #[arg(long, value_name = "FILE")]
    pub posteriors: Option<String>,
    #[command(flatten)]
    pub originals: OriginalArgs,
    /// The STA file to write.
    #[arg(short = 'o', long = "output", value_name = "OUT.xml")]
    pub output: String,
}

/// The original treebanks, when PREFIX.ids does not name them (or they moved).
#[derive(Args, Debug, Clone)]
pub struct OriginalArgs {
    /// The original source treebank (TigerXML).
    #[arg(long, value_name = "S.xml", requires = "target")]
    pub source: Option<String>,
    /// The original target treebank (TigerXML).
    #[arg(long, value_name = "T.xml", requires = "source")]
    pub target: Option<String>,
    /// The original alignment (STA XML) the corpus was imported from (default: the one PREFIX.ids
    /// names): its head and <sen-align>s are kept.
    #[arg(long, value_name = "A.xml")]
    pub alignment: Option<String>,
}

/// `treelink export tiger`.
#[derive(Args, Debug)]
pub struct ExportTigerArgs {
    /// The corpus: PREFIX.src, PREFIX.trg, PREFIX.gold (if there) and PREFIX.ids (if there).
    #[arg(long, value_name = "PREFIX")]
    pub input: String,
    /// The links to write as STA (default: PREFIX.gold, or none); another file than PREFIX.gold
    /// is a model's links, written with prob and named after it.
    #[arg(long, value_name = "LINKS")]
    pub links: Option<String>,
    /// The posterior of each of the --links (`treelink align --posteriors FILE`): written as prob,
    /// the link good when it is above 0.5, else fuzzy.
    #[arg(long, value_name = "FILE", requires = "links")]
    pub posteriors: Option<String>,
    #[command(flatten)]
    pub originals: OriginalArgs,
    /// The directory to write into (made if missing).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: String,
}

/// `treelink export dublin`.
#[derive(Args, Debug)]
pub struct ExportDublinArgs {
    /// The corpus: PREFIX.src, PREFIX.trg, PREFIX.gold (if there).
    #[arg(long, value_name = "PREFIX")]
    pub input: String,
    /// The links (default: PREFIX.gold, or none).
    #[arg(long, value_name = "LINKS")]
    pub links: Option<String>,
    /// The Dublin file to write.
    #[arg(short = 'o', long = "output", value_name = "OUT.dublin")]
    pub output: String,
}

pub fn import(command: ImportCommand) -> Result<(), CliError> {
    match command {
        ImportCommand::Tiger(args) => import_tiger(args),
        ImportCommand::Dublin(args) => import_dublin(args),
    }
}

pub fn export(command: ExportCommand) -> Result<(), CliError> {
    match command {
        ExportCommand::Sta(args) => export_sta(args),
        ExportCommand::Tiger(args) => export_tiger(args),
        ExportCommand::Dublin(args) => export_dublin(args),
    }
}

/// Every made file, at the path `path` makes of its name: all of them or
/// none. The paths written.
fn write_made(files: &[MadeFile], path: impl Fn(&str) -> String) -> Result<Vec<String>, CliError> {
    let paths: Vec<String> = files.iter().map(|f| path(&f.name)).collect();
    let files: Vec<(&str, &[u8])> = paths.iter().zip(files).map(|(p, f)| (p.as_str(), f.text.as_bytes())).collect();
    super::output::write_files(&files).map(|()| paths)
}

/// The path the export will find a file by: absolute, so it does not
/// depend on the directory `export` runs in.
fn lasting_path(file: &str) -> String {
    std::fs::canonicalize(file).map_or_else(|_| file.to_string(), |p| p.display().to_string())
}

fn import_tiger(args: ImportTigerArgs) -> Result<(), CliError> {
    let (s, t, a) = (read_text_file(&args.source)?, read_text_file(&args.target)?, read_text_file(&args.alignment)?);
    let options = if args.bracketed_data {
        ImportOptions::BRACKETED_DATA
    } else {
        ImportOptions { phrase_only: args.phrase_links, ..ImportOptions::default() }
    };
    let imported = files::import_tiger_set(
        Named { name: &args.alignment, text: &a },
        [Named { name: &args.source, text: &s }, Named { name: &args.target, text: &t }],
        if args.reverse { TigerDirection::Reversed } else { TigerDirection::Declared },
        options,
    )?;
    // --source names the source the rule gives, or nothing is written.
    if imported.files[0] != args.source {
        let (declared, by, hint) = match args.reverse {
            false => ("second", "first", "give --reverse"),
            true => ("first", "second, with --reverse", "leave out --reverse"),
        };
        return Err(CliError::Usage(format!(
            "{} is given as --source, but {} declares its treebank {declared}, and the source is the one declared \
             {by} ({}): {hint}, or give --source and --target the other way round",
            args.source, args.alignment, imported.files[0]
        )));
    }
    let paths = [lasting_path(&args.source), lasting_path(&args.target), lasting_path(&args.alignment)];
    let files = interchange::import_files(&imported, Some([&paths[0], &paths[1], &paths[2]]));
    let written = write_made(&files, |name| format!("{}.{name}", args.output))?;
    // `train` and `align` would read an earlier import's word links as this set's.
    let stale = format!("{}.{WORDS}", args.output);
    if !files.iter().any(|f| f.name == WORDS) && std::fs::remove_file(&stale).is_ok() {
        eprintln!("treelink: removed {stale}, an earlier import's: this alignment links no words");
    }
    for line in imported.report.lines() {
        out!("{line}")?;
    }
    let words = imported.word_links();
    let set_aside = match imported.report.set_aside.len() {
        0 => String::new(),
        n => format!(
            ", {n} links set aside in {}.ids (not gold: a linked node lost words when its discontinuous \
             constituent was made continuous; export puts them back)",
            args.output
        ),
    };
    eprintln!(
        "treelink: wrote {}: {} pairs, {} gold links{set_aside}, {words} word links",
        written.join(", "),
        imported.corpus.len(),
        imported.corpus.gold_links()
    );
    Ok(())
}

fn import_dublin(args: ImportDublinArgs) -> Result<(), CliError> {
    let bytes =
        std::fs::read(&args.input).map_err(|e| ReadError::Io { file: args.input.clone(), message: e.to_string() })?;
    let text = decode_text_as(&bytes, &args.input, &args.encoding)?;
    let (corpus, said) = interchange::dublin_corpus(Named { name: &args.input, text: &text }, args.reverse)?;
    notes(&said);
    write_made(&interchange::bracketed_files(&corpus, None, None), |name| format!("{}.{name}", args.output))?;
    eprintln!(
        "treelink: wrote {0}.src, {0}.trg, {0}.gold: {1} pairs, {2} links",
        args.output,
        corpus.len(),
        corpus.gold_links()
    );
    Ok(())
}

/// The corpus's `.ids` file, if there is one, with its name.
fn ids_file(prefix: &str) -> Result<Option<(IdsFile, String)>, CliError> {
    let name = format!("{prefix}.ids");
    if !Path::new(&name).exists() {
        return Ok(None);
    }
    let text = read_text_file(&name)?;
    Ok(Some((IdsFile::read(&text, &name)?, name)))
}

/// The original treebanks' names and texts: given, or named by the `.ids`
/// file (`None` when neither).
fn originals(args: &OriginalArgs, ids: Option<&IdsFile>) -> Result<Option<[(String, String); 2]>, CliError> {
    let named =
        ids.and_then(|f| f.origin.as_ref()).and_then(|o| Some((o.source.path.clone()?, o.target.path.clone()?)));
    let (source, target) = match (&args.source, &args.target, named) {
        (Some(s), Some(t), _) => (s.clone(), t.clone()),
        (_, _, Some((s, t))) if Path::new(&s).exists() && Path::new(&t).exists() => (s, t),
        (_, _, Some((s, t))) => {
            eprintln!(
                "treelink: the original treebanks named by the .ids file ({s}, {t}) are not there: give --source and \
                 --target to keep their sentences as written"
            );
            return Ok(None);
        }
        _ => return Ok(None),
    };
    let (s, t) = (read_text_file(&source)?, read_text_file(&target)?);
    Ok(Some([(source, s), (target, t)]))
}

/// The original alignment's name and text: given, or named by the `.ids`
/// file if it is there (`None` otherwise, said so when it was named).
fn original_alignment(args: &OriginalArgs, ids: Option<&IdsFile>) -> Result<Option<(String, String)>, CliError> {
    let named = ids.and_then(|f| f.origin.as_ref()?.alignment.clone());
    let file = match (&args.alignment, named) {
        (Some(a), _) => a.clone(),
        (None, Some(a)) if Path::new(&a).exists() => a,
        (None, Some(a)) => {
            eprintln!(
                "treelink: the original alignment named by the .ids file ({a}) is not there: give --alignment to keep \
                 its head and <sen-align>s"
            );
            return Ok(None);
        }
        (None, None) => return Ok(None),
    };
    let text = read_text_file(&file)?;
    Ok(Some((file, text)))
}

/// Whether `links` is the corpus's own `PREFIX.gold` (annotations) rather
/// than a model's links.
fn is_gold(prefix: &str, links: &str) -> bool {
    let gold = format!("{prefix}.gold");
    links == gold || lasting_path(links) == lasting_path(&gold)
}

/// What the links are: the corpus's gold, else a model's, with their
/// posteriors when given (a links file holds none).
fn origin_of<'a>(prefix: &str, links: Option<&str>, posteriors: Option<&'a [Vec<f64>]>) -> LinkOrigin<'a> {
    match links {
        Some(f) if !is_gold(prefix, f) => LinkOrigin::Predicted { posteriors },
        _ => LinkOrigin::Gold,
    }
}

/// `--posteriors`: the posteriors of `links`, checked against them; refused for gold links.
fn posteriors_of(
    file: Option<&str>,
    prefix: &str,
    links_file: Option<&str>,
    links: &[Vec<Link>],
) -> Result<Option<Vec<Vec<f64>>>, CliError> {
    let Some(file) = file else { return Ok(None) };
    if links_file.is_none_or(|l| is_gold(prefix, l)) {
        return Err(CliError::Usage(format!(
            "--posteriors {file}: gold links are annotations and have no posteriors; give a model's links with --links"
        )));
    }
    Ok(Some(treelink::io::links::read_posteriors(&read_text_file(file)?, file, links)?))
}

/// The links of `corpus` from `file` (checked against its trees).
fn links_of(corpus: &Corpus, file: &str) -> Result<Vec<Vec<Link>>, CliError> {
    let text = read_text_file(file)?;
    Ok(corpus.read_links(Named { name: file, text: &text })?)
}

/// The links to export: `--links`, else `PREFIX.gold` if there, else none.
fn links_or_gold(corpus: &Corpus, prefix: &str, links: Option<&str>) -> Result<Vec<Vec<Link>>, CliError> {
    let gold = format!("{prefix}.gold");
    match links {
        Some(f) => links_of(corpus, f),
        None if Path::new(&gold).exists() => links_of(corpus, &gold),
        None => Ok(vec![Vec::new(); corpus.len()]),
    }
}

fn export_sta(args: ExportStaArgs) -> Result<(), CliError> {
    let corpus = Corpus::read_prefix(&args.input, false)?;
    let links = links_of(&corpus, &args.links)?;
    let ids = ids_file(&args.input)?;
    let originals = originals(&args.originals, ids.as_ref().map(|(f, _)| f))?;
    let named = originals.as_ref().map(|[(sn, st), (tn, tt)]| Originals {
        source: Named { name: sn, text: st },
        target: Named { name: tn, text: tt },
    });
    let alignment = original_alignment(&args.originals, ids.as_ref().map(|(f, _)| f))?;
    let posteriors = posteriors_of(args.posteriors.as_deref(), &args.input, Some(&args.links), &links)?;
    let sta = interchange::export_sta(
        &corpus,
        StaLinks { links: &links, origin: origin_of(&args.input, Some(&args.links), posteriors.as_deref()) },
        ids.as_ref().map(|(f, n)| (f, n.as_str())),
        named,
        alignment.as_ref().map(|(name, text)| Named { name, text }),
    )?;
    super::output::write_file(&args.output, &sta.text)?;
    notes(&sta.left_out);
    let written = links.iter().map(Vec::len).sum::<usize>() - sta.left_out.len();
    eprintln!("treelink: wrote {}: {} pairs, {written} links", args.output, corpus.len());
    Ok(())
}

fn export_tiger(args: ExportTigerArgs) -> Result<(), CliError> {
    let corpus = Corpus::read_prefix(&args.input, false)?;
    let links = links_or_gold(&corpus, &args.input, args.links.as_deref())?;
    let ids = ids_file(&args.input)?;
    let originals = originals(&args.originals, ids.as_ref().map(|(f, _)| f))?;
    let named = originals.as_ref().map(|[(sn, st), (tn, tt)]| Originals {
        source: Named { name: sn, text: st },
        target: Named { name: tn, text: tt },
    });
    let alignment = original_alignment(&args.originals, ids.as_ref().map(|(f, _)| f))?;
    let posteriors = posteriors_of(args.posteriors.as_deref(), &args.input, args.links.as_deref(), &links)?;
    let origin = origin_of(&args.input, args.links.as_deref(), posteriors.as_deref());
    let predicted = matches!(origin, LinkOrigin::Predicted { .. }).then_some(args.links.as_deref()).flatten();
    let declared = ids.as_ref().and_then(|(f, _)| f.origin.as_ref()?.alignment.as_deref());
    let name = interchange::sta_file_name(predicted, alignment.as_ref().map(|(n, _)| n.as_str()).or(declared));
    let made = interchange::export_tiger(
        &corpus,
        StaLinks { links: &links, origin },
        ids.as_ref().map(|(f, n)| (f, n.as_str())),
        named,
        alignment.as_ref().map(|(name, text)| Named { name, text }),
        &name,
    )?;
    super::output::create_dir(&args.output)?;
    // Every file of the export, or none.
    write_made(&made.files, |name| Path::new(&args.output).join(name).display().to_string())?;
    notes(&made.left_out);
    let kept = if named.is_some() { "the original sentences as written" } else { "the trees as TigerXML of their own" };
    let names: Vec<&str> = made.files.iter().map(|f| f.name.as_str()).collect();
    eprintln!("treelink: wrote {} in {}: {} pairs ({kept})", names.join(", "), args.output, corpus.len());
    Ok(())
}

fn export_dublin(args: ExportDublinArgs) -> Result<(), CliError> {
    let corpus = Corpus::read_prefix(&args.input, false)?;
    let links = links_or_gold(&corpus, &args.input, args.links.as_deref())?;
    let (text, fuzzy) = interchange::dublin_text(&corpus, &links);
    super::output::write_file(&args.output, &text)?;
    if fuzzy > 0 {
        eprintln!("treelink: {fuzzy} fuzzy links written as plain links: the Dublin format has no link types");
    }
    eprintln!("treelink: wrote {}: {} pairs", args.output, corpus.len());
    Ok(())
}
