//! Commands whose reply streams while the engine thinks (`lz-analyze`, `kata-analyze`,
//! `genmove_analyze`): the reply's first line goes out at once, `info` lines follow at the
//! asked interval, and the end comes with the next command (analysis) or the stone (genmove).
//! Also GoGui's last live-graphics block of a search, which shows the stone played.

use super::analyze;
use super::board_text::push_vertex;
use super::stream::{Request, Stream};
use super::Gtp;
use crate::engine::{NoAnalysis, NoSearch};
use crate::protocol::input::{Control, Input};
use crate::rules::{Color, Point};
use std::time::{Duration, Instant};

/// A command whose reply streams, run after its first line is out.
#[derive(Debug)]
pub(super) enum Pending {
    /// Searches the position until the next command arrives.
    Analyze(Request),
    /// Plays a stone of this colour, reporting as it searches.
    Genmove(Color, Request),
}

impl Gtp {
    /// Runs `pending`, handing its lines to `emit`. `live`: the reader and its control while
    /// serving; without them (`handle_line` alone) an analysis reports what is known and ends.
    pub(super) fn run_pending(
        &mut self,
        pending: Pending,
        live: Option<(&Input, &Control)>,
        emit: &mut dyn FnMut(&str),
    ) {
        match pending {
            Pending::Analyze(request) => {
                let stream = self.open_stream(request, live.map(|(_, c)| c));
                if let Some((input, _)) = live {
                    // Any next line, or the end of the input, ends it.
                    input.begin_ponder(true);
                    self.engine.ponder();
                    input.idle();
                }
                let stream = self.close_stream(live.map(|(_, c)| c)).unwrap_or(stream);
                if let Some(line) = self.last_report(&stream, false) {
                    emit(&line);
                }
                if live.is_some() {
                    self.stream_open = true;
                } else {
                    emit("\n");
                }
            }
            Pending::Genmove(color, request) => {
                let stream = self.open_stream(request, live.map(|(_, c)| c));
                let start = Instant::now();
                let played = self.engine.genmove(color);
                let stream = self.close_stream(live.map(|(_, c)| c)).unwrap_or(stream);
                match played {
                    Ok(p) => {
                        self.own_color = Some(color);
                        if let Some(line) = self.last_report(&stream, true) {
                            emit(&line);
                        }
                        let mut play = String::from("play ");
                        push_vertex(&mut play, p);
                        play.push_str("\n\n");
                        emit(&play);
                        self.final_gfx(p, start.elapsed());
                    }
                    Err(e) => {
                        // Checked before the reply began; a stone is owed, so say why there is none.
                        tracing::warn!(error = %e, "genmove_analyze failed after its reply began");
                        emit("play resign\n\n");
                    }
                }
            }
        }
    }

    /// Starts reporting to the live display; returns a copy of the stream for the last report.
    fn open_stream(&mut self, request: Request, control: Option<&Control>) -> Stream {
        let board = self.engine.board();
        if let Some(control) = control {
            let every = request
                .interval
                .map(|i| i.min(crate::engine::PROGRESS_INTERVAL));
            control.set_display_interval(every);
        }
        *self.stream.lock() = Some(Stream::new(request.clone(), board));
        Stream::new(request, board)
    }

    fn close_stream(&mut self, control: Option<&Control>) -> Option<Stream> {
        if let Some(control) = control {
            control.set_display_interval(None);
        }
        self.stream.lock().take()
    }

    /// The report at the end: the search's root, or the stone chosen without one (the stone
    /// just played, `after_genmove`, or the one this position's search decided on).
    fn last_report(&self, stream: &Stream, after_genmove: bool) -> Option<String> {
        if let Some(analysis) = self.engine.analysis() {
            return stream.report(&analysis.children);
        }
        if let (true, NoAnalysis::Unsearched(p, why)) = (after_genmove, self.engine.no_analysis()) {
            return Some(stream.unsearched_report(p, why));
        }
        let (p, decision) = self.engine.decided_here()?;
        Some(stream.unsearched_report(p, NoSearch::Decided(decision)))
    }

    /// GoGui's live graphics end with the stone played: the last block came a moment before
    /// the answer and may show another best stone.
    pub(super) fn final_gfx(&self, p: Point, elapsed: Duration) {
        if !self.live_gfx || !self.gogui.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let mut text = String::new();
        let children = self.engine.analysis().map_or(&[][..], |a| &a.children);
        analyze::final_gfx(children, p, elapsed.as_secs_f64(), &mut text);
        // Never waits: a full, unread stderr drops blocks, it never stops the game.
        super::super::stderr_queue::write(text.into_bytes());
    }
}
