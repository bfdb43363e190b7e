//! Exact threat analysis of a position for the side to move (docs/tactics.md, VCDT: forced
//! replies): own immediate wins, the opponent's threats and the stones that block them. Everything
//! is read from the pattern board's incremental threat windows.

use crate::patterns::{stones_left, CellSet, PatternBoard};
use crate::rules::Color;

/// The threat facts of a position, for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatInfo {
    pub to_move: Color,
    /// Stones the side to move still places this turn (1 or 2).
    pub stones_left: u8,
    /// Threat count of the side to move (what the opponent would have to block next turn).
    pub own_threats: u32,
    /// Threat count of the opponent: stones we must place to stop its six on its next turn.
    pub opponent_threats: u32,
    /// Cells of a six the side to move completes with the stones it has left.
    pub wins: CellSet,
    /// Cells that lower the opponent's threat count by one (empty when it has none).
    pub blocks: CellSet,
}

/// What the threats force on the next stone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forced {
    /// The side to move completes a six this turn: play one of these cells.
    Win(CellSet),
    /// The opponent has more threats than we have stones left and we cannot win first.
    Lost,
    /// The opponent threatens a six: the stone must be one of these blocks. When we have more
    /// stones than it has threats, blocking first loses nothing because the stones of a turn
    /// commute.
    Block(CellSet),
    /// Nothing is forced.
    Free,
}

impl ThreatInfo {
    /// The analysis of `pb`'s position (which must not be over).
    pub fn of(pb: &PatternBoard) -> ThreatInfo {
        let board = pb.board();
        let to_move = board.to_move();
        ThreatInfo {
            to_move,
            stones_left: stones_left(board),
            own_threats: pb.threat_count(to_move),
            opponent_threats: pb.threat_count(to_move.opponent()),
            wins: pb.winning_points(),
            blocks: pb.blocking_points(),
        }
    }

    pub fn forced(&self) -> Forced {
        if !self.wins.is_empty() {
            Forced::Win(self.wins)
        } else if self.opponent_threats > u32::from(self.stones_left) {
            Forced::Lost
        } else if self.opponent_threats > 0 {
            Forced::Block(self.blocks)
        } else {
            Forced::Free
        }
    }
}

/// [`ThreatInfo::of`] followed by [`ThreatInfo::forced`].
pub fn forced_stones(pb: &PatternBoard) -> Forced {
    ThreatInfo::of(pb).forced()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_games;
    use crate::rules::Board;

    fn board(moves: &str) -> PatternBoard {
        let mut b = Board::standard();
        for s in moves.split([' ', '-']).filter(|s| !s.is_empty()) {
            b.play(parse_games(s, 19).unwrap()).unwrap();
        }
        PatternBoard::new(b)
    }

    #[test]
    fn win_beats_block_and_three_threats_lose() {
        // Black has an open five on row 10 (2 threats); White to move with nothing of its own.
        let pb = board("j10 a1-a3 k10-l10 a5-a7 m10-n10");
        let info = ThreatInfo::of(&pb);
        assert_eq!((info.opponent_threats, info.stones_left), (2, 2));
        assert!(matches!(info.forced(), Forced::Block(c) if c.len() == 2));
        // White's first stone blocks one end: one stone left against one threat, still a block.
        let mut pb2 = pb.clone();
        pb2.play(parse_games("i10", 19).unwrap()).unwrap();
        assert!(matches!(forced_stones(&pb2), Forced::Block(_)));
        // White's first stone elsewhere: one stone left against two threats is lost.
        let mut pb3 = pb.clone();
        pb3.play(parse_games("s19", 19).unwrap()).unwrap();
        assert_eq!(forced_stones(&pb3), Forced::Lost);
        // Black to move with its open five wins at once.
        let mut pb4 = pb3.clone();
        pb4.play(parse_games("s18", 19).unwrap()).unwrap();
        assert!(matches!(forced_stones(&pb4), Forced::Win(_)));
        assert_eq!(forced_stones(&board("j10 a1-a3")), Forced::Free);
    }
}
