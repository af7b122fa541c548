//! The files of the Export panel (and the Translate view's drawing), each
//! made from the state by the engine's writers when asked
//! ([`ExportFile`]) and offered as a download; an export that cannot be
//! made says why, and one that is made says what it holds (`State::export_note`).

use super::{DownloadBody, Effect, State};
use crate::align::explain::{curve_csv, results_csv};
use crate::app::interchange::{bracketed_files, export_sta, export_tiger, Originals};
use crate::corpus::{Corpus, Named, PairIndex};
use crate::io::links::{write_links, Link};
use crate::io::text::counted;
use crate::layout::{Drawing, Style};
use crate::svg::{drawing_svg, DERIVATION_CSS};
use crate::tiger::{IdsFile, LinkOrigin, PairIds, StaLinks};

/// The files of the Export panel (and the Translate view's drawing), each
/// made from the state by the engine's writers when asked ([`super::Action::Export`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFile {
    /// The predicted links, in the gold format.
    PredictedLinks,
    /// The hand links, in the gold format.
    StudentLinks,
    /// The predicted links of the pairs aligned as Stockholm TreeAligner
    /// XML, for the original treebanks when the pairs came from TigerXML.
    Sta,
    /// The gold links of the pairs loaded as Stockholm TreeAligner XML.
    GoldSta,
    /// The hand links (aligned by hand, or annotated) as Stockholm TreeAligner XML.
    StudentSta,
    /// The pairs loaded as TigerXML (the original sentences as written,
    /// when they came from TigerXML): what the STA files refer to.
    SourceTiger,
    TargetTiger,
    /// The pairs loaded as bracketed files: `.src`, `.trg`, `.gold`, and
    /// `.ids` (each node's original id) for pairs from TigerXML.
    CorpusSource,
    CorpusTarget,
    CorpusGold,
    CorpusIds,
    /// The diagram of the pair shown (folded as drawn), as SVG or PNG.
    DiagramSvg,
    DiagramPng,
    /// Per-pair P/R/F and the P/R curve, as CSV.
    ResultsCsv,
    CurveCsv,
    /// The Translate view's derivation drawing, as SVG.
    DerivationSvg,
}

/// What the last export made (its file and what it holds), or why it
/// could not be made, shown by the button that asked for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportNote {
    pub file: ExportFile,
    pub message: Result<String, String>,
}

/// The size a standalone SVG declares (`width="…" height="…"` of its root).
fn svg_size(svg: &str) -> (f64, f64) {
    let attr = |name: &str| {
        let key = format!(" {name}=\"");
        let start = svg.find(&key)? + key.len();
        svg[start..].split('"').next()?.parse::<f64>().ok()
    };
    (attr("width").unwrap_or(800.0), attr("height").unwrap_or(600.0))
}

impl State {
    /// [`ExportFile`] `file`, made by the engine's writers, as a
    /// download; what it holds, or why it cannot be made, is said by its
    /// button (`export_note`).
    pub(super) fn export(&mut self, file: ExportFile) -> Option<Effect> {
        let effect = self.export_file(file)?;
        if let Effect::Download { name, .. } = &effect {
            let what = self.export_holds(file);
            self.export_note = Some(ExportNote { file, message: Ok(format!("Downloaded {name}: {what}")) });
        }
        Some(effect)
    }

    /// What file `file` holds, in words, for the line that confirms its download.
    fn export_holds(&self, file: ExportFile) -> String {
        let pairs = |n: usize| format!("{n} {}", counted(n, "pairs"));
        let links = |n: usize| format!("{n} {}", counted(n, "links"));
        let pair = self.selection.pair.number();
        let aligned = self.results().map(|r| (r.pairs().len(), r.predicted[r.pairs()].iter().map(Vec::len).sum()));
        let (n, predicted) = aligned.unwrap_or((0, 0));
        // The STA and TigerXML exports hold the pairs aligned once there are results, else all.
        let range = self.results().map_or(0..self.loaded.corpus.len(), |r| r.pairs());
        let exported = range.len();
        let gold: usize =
            self.loaded.corpus.pairs.get(range.clone()).map_or(0, |p| p.iter().map(|p| p.gold.len()).sum());
        match file {
            ExportFile::PredictedLinks => {
                format!("the model's {} on {}, one line per pair, as treelink align writes them.", links(predicted), pairs(n))
            }
            ExportFile::StudentLinks => {
                let drawn: usize = self.teach.links.values().map(Vec::len).sum();
                let on = self.teach.links.values().filter(|l| !l.is_empty()).count();
                format!(
                    "your {} on {} of the {} loaded, one line per pair.",
                    links(drawn),
                    pairs(on),
                    pairs(self.loaded.corpus.len())
                )
            }
            ExportFile::Sta => format!(
                "the model's {} on {} as Stockholm TreeAligner XML; load it with the two TigerXML files in the Data panel.",
                links(predicted),
                pairs(n)
            ),
            ExportFile::GoldSta => format!(
                "the {} gold {} of the {} as Stockholm TreeAligner XML; load it with the two TigerXML files in the Data panel.",
                gold,
                counted(gold, "links"),
                pairs(exported)
            ),
            ExportFile::StudentSta => {
                let yours: usize = self.hand_links(range).iter().map(Vec::len).sum();
                format!(
                    "your {} on the {} as Stockholm TreeAligner XML; load it with the two TigerXML files in the Data panel.",
                    links(yours),
                    pairs(exported)
                )
            }
            ExportFile::SourceTiger | ExportFile::TargetTiger => {
                format!("the {} as TigerXML, the treebank the STA files refer to.", pairs(exported))
            }
            ExportFile::CorpusSource | ExportFile::CorpusTarget => {
                format!("the {} loaded as bracketed trees, one per line.", pairs(self.loaded.corpus.len()))
            }
            ExportFile::CorpusGold => format!(
                "the gold links of the {} loaded, one line per pair ({} {}).",
                pairs(self.loaded.corpus.len()),
                self.loaded.corpus.gold_links(),
                counted(self.loaded.corpus.gold_links(), "links")
            ),
            ExportFile::CorpusIds => format!("the original ids of the {} loaded.", pairs(self.loaded.corpus.len())),
            ExportFile::DiagramSvg | ExportFile::DiagramPng => {
                format!("pair {pair} as the diagram draws it (folded as shown), with its {}.", links(self.drawn_links().len()))
            }
            ExportFile::ResultsCsv => format!("P/R/F of the model and the baseline on each of the {}, and on all.", pairs(n)),
            ExportFile::CurveCsv => {
                let points = self.results().map_or(0, |r| r.curve.len());
                format!("the precision/recall curve over the posterior threshold, {points} {}.", counted(points, "points"))
            }
            ExportFile::DerivationSvg => "the translation's derivation as drawn.".to_string(),
        }
    }

    /// [`ExportFile`] `file` as a download, or why it cannot be made.
    fn export_file(&mut self, file: ExportFile) -> Option<Effect> {
        let text = |name: &str, text: String, mime: &'static str| Effect::Download {
            name: name.to_string(),
            body: DownloadBody::Text { text: text.into(), mime },
        };
        let pair_number = self.selection.pair.number();
        let effect = match file {
            ExportFile::PredictedLinks => {
                // The pairs aligned (all, or the held-out test's): what `treelink align` prints for them.
                let r = self.results()?;
                text("treelink-predicted.gold", write_links(&r.predicted[r.pairs()]), "text/plain")
            }
            ExportFile::StudentLinks => {
                let links = self.hand_links(0..self.loaded.corpus.len());
                text("treelink-student.gold", write_links(&links), "text/plain")
            }
            ExportFile::Sta
            | ExportFile::GoldSta
            | ExportFile::StudentSta
            | ExportFile::SourceTiger
            | ExportFile::TargetTiger => match self.treebank_export(file) {
                Ok((name, xml)) => text(&name, xml, "application/xml"),
                Err(e) => {
                    self.export_note = Some(ExportNote { file, message: Err(format!("cannot export: {e}")) });
                    return None;
                }
            },
            ExportFile::CorpusSource | ExportFile::CorpusTarget | ExportFile::CorpusGold | ExportFile::CorpusIds => {
                let ids = self.loaded.tiger_ids.as_deref().map(Vec::as_slice);
                let origin = self.loaded.tiger_import.as_ref().map(|t| &t.origin);
                let ext = match file {
                    ExportFile::CorpusSource => "src",
                    ExportFile::CorpusTarget => "trg",
                    ExportFile::CorpusGold => "gold",
                    _ => "ids",
                };
                let made = bracketed_files(&self.loaded.corpus, ids, origin).into_iter().find(|f| f.name == ext)?;
                text(&format!("treelink-corpus.{ext}"), made.text, "text/plain")
            }
            ExportFile::DiagramSvg => {
                text(&format!("treelink-pair-{pair_number}.svg"), self.diagram_svg()?, "image/svg+xml")
            }
            ExportFile::DiagramPng => {
                let svg = self.diagram_svg()?;
                let (width, height) = svg_size(&svg);
                let body = DownloadBody::Png { svg: svg.into(), width, height, scale: 2.0 };
                Effect::Download { name: format!("treelink-pair-{pair_number}.png"), body }
            }
            ExportFile::ResultsCsv => {
                let r = self.results()?;
                let (pairs, model, baseline) = (&self.loaded.corpus.pairs, &r.predicted, &r.baseline);
                let range = r.pairs();
                let csv =
                    results_csv(&pairs[range.clone()], range.start, &model[range.clone()], &baseline[range], &|k| {
                        r.saw(k)
                    });
                text("treelink-results.csv", csv, "text/csv")
            }
            ExportFile::CurveCsv => text("treelink-pr-curve.csv", curve_csv(&self.results()?.curve), "text/csv"),
            ExportFile::DerivationSvg => {
                self.mt.result.as_ref()?;
                let body = DownloadBody::Element { id: "mt-diagram", css: DERIVATION_CSS };
                Effect::Download { name: "treelink-derivation.svg".into(), body }
            }
        };
        Some(effect)
    }

    /// The ids of the pairs loaded for an export: the import's (each node's
    /// original id, the treebanks as the alignment declared them), or ids
    /// made up for pairs read from bracketed files (as `treelink export`
    /// makes them: the STA and the TigerXML export agree).
    fn ids_file(&self) -> IdsFile {
        match &self.loaded.tiger_ids {
            Some(ids) => {
                IdsFile { origin: self.loaded.tiger_import.as_ref().map(|t| t.origin.clone()), pairs: ids.to_vec() }
            }
            None => IdsFile { origin: None, pairs: PairIds::synthesize(&self.loaded.corpus) },
        }
    }

    /// An STA or TigerXML export (`file`), by `app::interchange` as
    /// `treelink export` makes it: the name it declares and its text. They
    /// hold the same pairs — the pairs aligned once there are results (not
    /// the training pairs of a held-out test), else all — so each STA file
    /// opens with the two TigerXML files.
    fn treebank_export(&self, file: ExportFile) -> Result<(String, String), String> {
        let range = self.results().map_or(0..self.loaded.corpus.len(), |r| r.pairs());
        let pairs = self.loaded.corpus.pairs.get(range.clone()).ok_or("no pairs")?;
        let corpus = Corpus { pairs: pairs.to_vec() };
        let all = self.ids_file();
        let ids =
            IdsFile { origin: all.origin.clone(), pairs: all.pairs.get(range.clone()).unwrap_or_default().to_vec() };
        let named = Some((&ids, "the pairs' ids"));
        let gold: Vec<Vec<Link>> = corpus.pairs.iter().map(|p| p.gold.clone()).collect();
        let sta = |name: &str, links: StaLinks<'_>| {
            let sta = export_sta(&corpus, links, named, None, None).map_err(|e| e.to_string())?;
            Ok((name.to_string(), sta.text))
        };
        match file {
            ExportFile::Sta => {
                let r = self.results().ok_or("nothing aligned")?;
                // The posteriors of the links the searches took, as `align --posteriors` writes them.
                let posteriors: Vec<Vec<f64>> =
                    r.searches[range.clone()].iter().map(crate::align::explain::predicted_posteriors).collect();
                let posteriors = Some(posteriors.as_slice());
                let links = StaLinks { links: &r.predicted[range], origin: LinkOrigin::Predicted { posteriors } };
                sta("treelink-alignment.xml", links)
            }
            ExportFile::GoldSta => {
                sta("treelink-gold-alignment.xml", StaLinks { links: &gold, origin: LinkOrigin::Gold })
            }
            // Links made by a person, as the gold's are.
            ExportFile::StudentSta => {
                let hand = self.hand_links(range);
                sta("treelink-your-alignment.xml", StaLinks { links: &hand, origin: LinkOrigin::Gold })
            }
            _ => {
                let originals = self.loaded.tiger_import.as_ref().map(|t| Originals {
                    source: Named { name: &t.originals[0].name, text: &t.originals[0].text },
                    target: Named { name: &t.originals[1].name, text: &t.originals[1].text },
                });
                let made = export_tiger(
                    &corpus,
                    StaLinks { links: &gold, origin: LinkOrigin::Gold },
                    named,
                    originals,
                    None,
                    "alignment.xml",
                )
                .map_err(|e| e.to_string())?;
                let k = usize::from(file == ExportFile::TargetTiger);
                let f = made.files.into_iter().nth(k).ok_or("no file")?;
                Ok((f.name, f.text))
            }
        }
    }

    /// The hand links of pairs `range`, one list per pair.
    fn hand_links(&self, range: std::ops::Range<usize>) -> Vec<Vec<Link>> {
        range
            .map(|k| {
                let links = self.teach.links.get(&PairIndex::new(k)).map_or(&[][..], Vec::as_slice);
                links.iter().map(|&(s, t)| Link::good(s, t)).collect()
            })
            .collect()
    }

    /// The pair shown as a standalone SVG document, folded as the page draws it.
    pub fn diagram_svg(&self) -> Option<String> {
        let pair = self.loaded.corpus.pair(self.selection.pair)?;
        let (fold_source, fold_target) = self.folds.of(self.loaded.gen, self.selection.pair);
        let drawing = Drawing::new(&pair.source, &pair.target, fold_source, fold_target, &Style::default());
        let title = format!("{} — pair {}", self.loaded.name, self.selection.pair.number());
        Some(drawing_svg(&drawing, &self.drawn_links(), &title))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;
    use crate::io::links::write_links;

    #[test]
    fn exports_are_made_by_the_reducer_and_offered_as_downloads() {
        let mut s = State::with_sample();
        // Nothing aligned: only the diagram can be exported.
        assert!(s.apply(Action::Export(ExportFile::PredictedLinks)).is_empty());
        assert!(s.apply(Action::Export(ExportFile::Sta)).is_empty());
        let svg = s.apply(Action::Export(ExportFile::DiagramSvg));
        let [Effect::Download { name, body: DownloadBody::Text { text, mime: "image/svg+xml" } }] = &svg[..] else {
            panic!("{svg:?}")
        };
        assert_eq!(name, "treelink-pair-1.svg");
        assert_eq!(Some(text.to_string()), s.diagram_svg());
        let png = s.apply(Action::Export(ExportFile::DiagramPng));
        let [Effect::Download { name, body: DownloadBody::Png { svg, width, height, scale } }] = &png[..] else {
            panic!("{png:?}")
        };
        assert_eq!((name.as_str(), &**svg, *scale), ("treelink-pair-1.png", &**text, 2.0));
        assert!(text.contains(&format!("width=\"{width}\" height=\"{height}\"")), "{width} {height}");
        // Aligned: the predicted links, the STA trio and the CSVs, as the engine writes them.
        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 0.0 })));
        let n = s.loaded.corpus.len();
        answer(&mut s, empty_alignment(id, n, "trained", 0), 1.0);
        let expected = write_links(&s.results().unwrap().predicted);
        assert_eq!(exported(&mut s, ExportFile::PredictedLinks), ("treelink-predicted.gold".into(), expected));
        for (file, name) in [
            (ExportFile::Sta, "treelink-alignment.xml"),
            (ExportFile::SourceTiger, "treelink-source.xml"),
            (ExportFile::TargetTiger, "treelink-target.xml"),
            (ExportFile::ResultsCsv, "treelink-results.csv"),
            (ExportFile::CurveCsv, "treelink-pr-curve.csv"),
        ] {
            assert_eq!(exported(&mut s, file).0, name, "{file:?}");
        }
        let said = s.export_note.clone().map(|n| (n.file, n.message));
        assert_eq!(said.clone().map(|(f, _)| f), Some(ExportFile::CurveCsv));
        let points = s.results().unwrap().curve.len();
        assert_eq!(said.unwrap().1, Ok(format!("Downloaded treelink-pr-curve.csv: the precision/recall curve over the posterior threshold, {points} {}.", counted(points, "points"))));
        // Hand links, and the derivation only once there is a translation.
        assert!(s.apply(Action::Export(ExportFile::DerivationSvg)).is_empty());
        hand_link(&mut s, 0);
        let (name, text) = exported(&mut s, ExportFile::StudentLinks);
        assert_eq!(name, "treelink-student.gold");
        assert!(text.starts_with("0-0\n"), "{text}");
        let said = format!(
            "Downloaded treelink-student.gold: your 1 link on 1 pair of the {n} pairs loaded, one line per pair."
        );
        assert_eq!(s.export_note.map(|n| n.message), Some(Ok(said)));
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // reads ../shared/data from disk
    fn pairs_from_tigerxml_export_for_the_original_treebanks_and_as_bracketed_files() {
        let original = |f: &str| shared_data(&format!("lingua-align-nl-en-125/raw/{f}"));
        let mut s = State::with_sample();
        for (name, file) in
            [("nl.xml", "ep-00-12-15.125.nl.tiger"), ("en.xml", "ep-00-12-15.125.en.tiger"), ("a.xml", "nl-en_125.xml")]
        {
            read(&mut s, name, &original(file), Some(Slot::Tiger));
        }
        assert_eq!(s.loaded.corpus.len(), 125);
        // The gold links as STA: the original declarations and ids, every link of the alignment.
        let (_, sta) = exported(&mut s, ExportFile::GoldSta);
        assert!(
            sta.contains(r#"<treebank id="en" language="Unknown" filename="ep-00-12-15.125.en.tiger"/>"#),
            "{}",
            &sta[..600]
        );
        assert_eq!(sta.matches("<align type=").count(), original("nl-en_125.xml").matches("<align type=").count());
        // The TigerXML: named as declared, each sentence as the original has it.
        let (name, tiger) = exported(&mut s, ExportFile::TargetTiger);
        assert_eq!(name, "ep-00-12-15.125.nl.tiger");
        let nl = original("ep-00-12-15.125.nl.tiger");
        assert_eq!(tiger.matches("<feature ").count(), nl.matches("<feature ").count());
        let first = nl.find("<s ").unwrap();
        let end = nl[first..].find("</s>").unwrap() + first + 4;
        assert!(tiger.contains(&nl[first..end]), "the first sentence as written");
        // The bracketed files, with the original ids.
        let (name, ids) = exported(&mut s, ExportFile::CorpusIds);
        assert_eq!(name, "treelink-corpus.ids");
        assert!(
            ids.starts_with("# treelink ids 3\n# source\ten\tUnknown\tep-00-12-15.125.en.tiger\ten.xml\n"),
            "{}",
            &ids[..300]
        );
        let (_, gold) = exported(&mut s, ExportFile::CorpusGold);
        assert_eq!(gold, write_links(&s.loaded.corpus.pairs.iter().map(|p| p.gold.clone()).collect::<Vec<_>>()));
        // A corpus read from bracketed files has no ids to export.
        let mut b = State::with_sample();
        assert_eq!(b.apply(Action::Export(ExportFile::CorpusSource)).len(), 1);
        assert!(b.panels().export.pairs && !b.panels().export.has_ids);
    }

    /// The hand links (aligned by hand or annotated) as STA, with the two
    /// TigerXML files, read back by the page's own TigerXML import: the
    /// pairs with hand links come back with them as their gold.
    #[test]
    fn hand_links_as_sta_read_back_with_the_treebanks_give_the_same_links() {
        let mut s = State::with_sample();
        hand_link(&mut s, 0);
        hand_link(&mut s, 2);
        click(&mut s, 1, 1);
        let files =
            [ExportFile::SourceTiger, ExportFile::TargetTiger, ExportFile::StudentSta].map(|f| exported(&mut s, f));
        let pairs = s.loaded.corpus.len();
        let said = format!("Downloaded treelink-your-alignment.xml: your 3 links on the {pairs} pairs as Stockholm TreeAligner XML; load it with the two TigerXML files in the Data panel.");
        assert_eq!(s.export_note.as_ref().map(|n| n.message.clone()), Some(Ok(said)));
        let mut r = State::with_sample();
        for (name, text) in &files {
            read(&mut r, name, text, Some(Slot::Tiger));
        }
        // STA pairs sentences by their links: the two pairs with hand links come back.
        assert_eq!(r.loaded.corpus.len(), 2);
        for (p, k) in r.loaded.corpus.pairs.iter().zip([0, 2]) {
            assert_eq!((&p.source, &p.target), (&s.loaded.corpus.pairs[k].source, &s.loaded.corpus.pairs[k].target));
            let gold: Vec<_> = p.gold.iter().map(|l| (l.source, l.target)).collect();
            assert_eq!(gold, s.teach.links[&PairIndex::new(k)], "pair {}", k + 1);
        }
    }
}
