//! The eight symmetries of a square board (rotations and reflections), and the canonical form
//! of a position under them: the book stores each opening once, whichever way it was played.

use crate::rules::Point;

/// One of the eight symmetries of the square: an optional transpose, then optional mirrors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    transpose: bool,
    mirror_col: bool,
    mirror_row: bool,
}

impl Symmetry {
    pub const IDENTITY: Symmetry = Symmetry {
        transpose: false,
        mirror_col: false,
        mirror_row: false,
    };

    /// All eight, the identity first.
    pub fn all() -> [Symmetry; 8] {
        let mut out = [Symmetry::IDENTITY; 8];
        for (i, s) in out.iter_mut().enumerate() {
            *s = Symmetry {
                transpose: i & 4 != 0,
                mirror_col: i & 1 != 0,
                mirror_row: i & 2 != 0,
            };
        }
        out
    }

    /// `p`'s image on a board of `size`.
    pub fn apply(self, p: Point, size: usize) -> Point {
        let last = (size - 1) as u8;
        let (mut col, mut row) = if self.transpose {
            (p.row, p.col)
        } else {
            (p.col, p.row)
        };
        if self.mirror_col {
            col = last - col;
        }
        if self.mirror_row {
            row = last - row;
        }
        Point::new(col, row)
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        // Mirrors act after the transpose; undoing swaps which axis each mirror acts on.
        if self.transpose {
            Symmetry {
                transpose: true,
                mirror_col: self.mirror_row,
                mirror_row: self.mirror_col,
            }
        } else {
            self
        }
    }
}

/// A position as the book keys it: Black's and White's stones, each sorted by (row, column).
pub type StoneSets = (Vec<Point>, Vec<Point>);

fn sorted_image(stones: &[Point], s: Symmetry, size: usize) -> Vec<Point> {
    let mut out: Vec<Point> = stones.iter().map(|&p| s.apply(p, size)).collect();
    out.sort_by_key(|p| (p.row, p.col));
    out
}

/// The canonical form of the position with `black` and `white` stones: the least image under
/// the eight symmetries, with every symmetry that maps the position onto it (more than one
/// when the position is itself symmetric, e.g. a lone stone in the centre).
pub fn canonical(black: &[Point], white: &[Point], size: usize) -> (StoneSets, Vec<Symmetry>) {
    let key_of = |sets: &StoneSets| -> Vec<(u8, u8, u8)> {
        let b = sets.0.iter().map(|p| (0, p.row, p.col));
        let w = sets.1.iter().map(|p| (1, p.row, p.col));
        b.chain(w).collect()
    };
    let mut best: Option<(StoneSets, Vec<Symmetry>)> = None;
    for s in Symmetry::all() {
        let image = (sorted_image(black, s, size), sorted_image(white, s, size));
        match &mut best {
            Some((sets, syms)) if key_of(&image) == key_of(sets) => syms.push(s),
            Some((sets, _)) if key_of(&image) > key_of(sets) => {}
            _ => best = Some((image, vec![s])),
        }
    }
    best.expect("eight symmetries")
}

/// The canonical form of a pair of stones played on a position whose canonical symmetries are
/// `syms`: the least of its images under them, so that one move of a symmetric position is
/// stored once.
pub fn canonical_pair(pair: [Point; 2], syms: &[Symmetry], size: usize) -> [Point; 2] {
    syms.iter()
        .map(|&s| {
            let mut image = [s.apply(pair[0], size), s.apply(pair[1], size)];
            image.sort_by_key(|p| (p.row, p.col));
            image
        })
        .min_by_key(|image| image.map(|p| (p.row, p.col)))
        .expect("at least one symmetry")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symmetry_is_undone_by_its_inverse_and_the_eight_are_distinct() {
        let p = Point::new(3, 7);
        let mut images = Vec::new();
        for s in Symmetry::all() {
            let q = s.apply(p, 19);
            assert_eq!(s.inverse().apply(q, 19), p, "{s:?}");
            images.push(q);
        }
        images.sort_by_key(|p| (p.row, p.col));
        images.dedup();
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn a_position_and_its_images_share_one_canonical_form() {
        let black = [Point::new(9, 9), Point::new(10, 11)];
        let white = [Point::new(8, 9), Point::new(7, 12)];
        let (key, _) = canonical(&black, &white, 19);
        for s in Symmetry::all() {
            let b: Vec<Point> = black.iter().map(|&p| s.apply(p, 19)).collect();
            let w: Vec<Point> = white.iter().map(|&p| s.apply(p, 19)).collect();
            let (k, syms) = canonical(&b, &w, 19);
            assert_eq!(k, key);
            // Each returned symmetry really maps this image onto the canonical form.
            for t in syms {
                assert_eq!(sorted_image(&b, t, 19), key.0);
                assert_eq!(sorted_image(&w, t, 19), key.1);
            }
        }
        // Colours are not interchangeable.
        assert_ne!(canonical(&white, &black, 19).0, key);
    }

    #[test]
    fn the_centre_stone_is_fixed_by_all_eight_and_its_replies_fold() {
        let centre = Point::new(9, 9);
        let (_, syms) = canonical(&[centre], &[], 19);
        assert_eq!(syms.len(), 8);
        // The eight diagonal-neighbour pairs of one shape are one canonical pair.
        let a = canonical_pair([Point::new(8, 8), Point::new(10, 10)], &syms, 19);
        let b = canonical_pair([Point::new(10, 8), Point::new(8, 10)], &syms, 19);
        assert_eq!(a, b);
        let c = canonical_pair([Point::new(8, 9), Point::new(10, 9)], &syms, 19);
        assert_ne!(a, c);
    }
}
