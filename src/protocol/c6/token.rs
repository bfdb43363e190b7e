//! Connect6-protocol stone tokens: `JJ` (one stone), `KJJK` (two stones), `JJ@@` (one stone
//! and the SAU "no second stone" placeholder), letters read in the configured order.

use crate::notation::{self, LetterOrder};
use crate::rules::Point;

/// SAU's placeholder for a missing second stone: two `'A' - 1` characters.
pub const PLACEHOLDER: &str = "@@";

/// The stones a token names, in order (one or two; a doubled `JJJJ` gives two equal points).
pub fn parse(token: &str, size: usize, order: LetterOrder) -> Result<Vec<Point>, String> {
    if !token.is_ascii() {
        return Err(format!("`{token}` is not a stone token (2 or 4 letters)"));
    }
    let letters = token.strip_suffix(PLACEHOLDER).unwrap_or(token);
    if letters.len() != 2 && letters.len() != 4 {
        return Err(format!("`{token}` is not a stone token (2 or 4 letters)"));
    }
    letters
        .as_bytes()
        .chunks(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).expect("ASCII");
            notation::parse_c6_stone(text, size, order).ok_or_else(|| {
                format!("`{text}` in `{token}` is not a point of the {size}x{size} board")
            })
        })
        .collect()
}

/// Writes stones as a token; `placeholder` adds `@@` after a single stone.
pub fn format(stones: &[Point], size: usize, order: LetterOrder, placeholder: bool) -> String {
    let mut token: String = stones
        .iter()
        .map(|&p| notation::format_c6_stone(p, size, order))
        .collect();
    if stones.len() == 1 && placeholder {
        token.push_str(PLACEHOLDER);
    }
    token
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_of_one_and_two_stones() {
        let c = LetterOrder::Cloudict;
        let centre = Point::new(9, 9);
        assert_eq!(parse("JJ", 19, c), Ok(vec![centre]));
        assert_eq!(parse("JJ@@", 19, c), Ok(vec![centre]));
        assert_eq!(parse("jj", 19, c), Ok(vec![centre]));
        assert_eq!(parse("JJJJ", 19, c), Ok(vec![centre, centre]));
        assert_eq!(
            parse("KJJK", 19, c),
            Ok(vec![Point::new(10, 9), Point::new(9, 10)])
        );
        assert_eq!(
            parse("KJJK", 19, LetterOrder::Sau),
            Ok(vec![Point::new(10, 9), Point::new(9, 8)])
        );
        for bad in [
            "", "J", "JJJ", "JJJJJ", "JJ@", "@@", "@@@@", "ZZ", "TA", "J1", "ÄJ", "JJ@@@@",
        ] {
            assert!(parse(bad, 19, c).is_err(), "{bad}");
        }
        assert_eq!(format(&[centre], 19, c, true), "JJ@@");
        assert_eq!(format(&[centre], 19, c, false), "JJ");
        assert_eq!(
            format(&[Point::new(10, 9), Point::new(9, 10)], 19, c, true),
            "KJJK"
        );
    }
}
