//! `treelink draw`: one pair of a treebank as a standalone SVG file, the
//! picture the page's *Download SVG* gives (the same `treelink::svg`).

use std::path::Path;

use clap::Args;

use treelink::corpus::{Corpus, Named, PairIndex};
use treelink::io::text::counted;
use treelink::svg::{gold_links, marked_links, pair_svg, DrawnLink, LinkStyle};

use super::CliError;

/// `treelink draw`.
#[derive(Args, Debug)]
pub struct DrawArgs {
    /// The treebank: PREFIX.src, PREFIX.trg and, if it exists, PREFIX.gold.
    #[arg(value_name = "PREFIX")]
    pub input: String,
    /// The pair to draw, counted from 1 (line N of PREFIX.src).
    #[arg(long, value_name = "N")]
    pub pair: usize,
    /// Predicted links (one line per pair, as `treelink align` prints them): drawn correct, wrong
    /// or missed against PREFIX.gold, or as predicted when there is no gold. Without it, the gold
    /// links are drawn.
    #[arg(long, value_name = "FILE")]
    pub links: Option<String>,
    /// The SVG file to write (written whole or not at all).
    #[arg(short, long, value_name = "FILE.svg")]
    pub output: String,
}

pub fn draw(args: DrawArgs) -> Result<(), CliError> {
    let gold = Path::new(&format!("{}.gold", args.input)).exists();
    let corpus = Corpus::read_prefix(&args.input, gold)?;
    let p = PairIndex::from_number(args.pair).filter(|p| p.index() < corpus.len()).ok_or_else(|| {
        CliError::PairOutOfRange { file: format!("{}.src", args.input), pair: args.pair, pairs: corpus.len() }
    })?;
    let pair = &corpus.pairs[p.index()];
    let links: Vec<DrawnLink> = match &args.links {
        None => gold_links(pair),
        Some(name) => {
            let text = treelink::io::text::read_text_file(name)?;
            let predicted = corpus.read_links(Named { name, text: &text })?;
            let mine = &predicted[p.index()];
            if gold {
                marked_links(pair, mine, |_, _| None)
            } else {
                mine.iter()
                    .map(|l| DrawnLink {
                        source: l.source,
                        target: l.target,
                        style: LinkStyle::Predicted,
                        title: format!("predicted link {}", treelink::svg::link_name(pair, l.source, l.target)),
                    })
                    .collect()
            }
        }
    };
    let svg = pair_svg(pair, &links, &format!("{} — pair {p}", args.input));
    super::output::write_file(&args.output, &svg)?;
    let count = |style: LinkStyle| links.iter().filter(|l| l.style == style).count();
    let what = match (&args.links, gold) {
        (None, _) => format!("{} gold {}", links.len(), counted(links.len(), "links")),
        (Some(_), true) => format!(
            "{} correct, {} wrong, {} missed",
            count(LinkStyle::Correct),
            count(LinkStyle::Wrong),
            count(LinkStyle::Missed)
        ),
        (Some(_), false) => format!("{} predicted {}", links.len(), counted(links.len(), "links")),
    };
    out!(
        "wrote {}: pair {p} of {}, {} + {} words, {what}",
        args.output,
        corpus.len(),
        pair.source.words().len(),
        pair.target.words().len()
    )
}
