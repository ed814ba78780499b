//! Accuracy and average loss, defined as lichess defines them, on this game's expected-score
//! curve.
//!
//! - A move's **accuracy** (0–100) from the expected score of its side before and after it, in
//!   per cent (`before` the best move's, `after` the move played's):
//!   `103.1668 · exp(−0.04354 · (before − after)) − 3.1669 + 1`, clamped to 0–100; 100 when the
//!   move did not lose anything. The `+ 1` is lichess's allowance for an imperfect analysis.
//! - A side's **game accuracy**: the mean of two means of its moves' accuracies, one weighted by
//!   how much the game swung around each move (the standard deviation of red's expected score, in
//!   per cent, over a window of positions, clamped to 0.5–12; the window is a tenth of the game,
//!   2 to 8 positions), the other harmonic (which a few very bad moves pull down).
//! - A side's **average loss** (lichess's average centipawn loss): the mean over its moves of
//!   what each lost against the best move in centipawns, both scores clamped to ±1000 and a
//!   forced capture of the captain counted as ±1000.
//!
//! ```
//! use arbiter_duck_learn::accuracy;
//!
//! assert_eq!(accuracy::move_accuracy(60.0, 60.0), 100.0);
//! assert!((accuracy::move_accuracy(60.0, 50.0) - 65.0).abs() < 1.0);
//! assert_eq!(accuracy::move_accuracy(90.0, 0.0), 0.0);
//! ```

/// The most centipawns a score counts for in the average loss.
pub const LOSS_CAP: i32 = 1000;

/// The accuracy (0–100) of a move that took its side's expected score from `before` to `after`
/// per cent.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// One move of a side, for its game accuracy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weighed {
    /// The move's accuracy, 0–100.
    pub accuracy: f64,
    /// How much the game swung around it (the standard deviation of red's expected score in
    /// per cent over its window, clamped to 0.5–12).
    pub weight: f64,
}

/// The swing weights of a game's moves: `red` holds red's expected score in per cent at the
/// start and after each of the game's moves (one more value than moves). Move `i` gets the
/// standard deviation of a window of positions: the first `window − 1` moves the first window,
/// then the window that ends with the position after the move.
pub fn weights(red: &[f64]) -> Vec<f64> {
    let moves = red.len().saturating_sub(1);
    if moves == 0 {
        return Vec::new();
    }
    let window = (moves / 10).clamp(2, 8).min(red.len());
    (0..moves)
        .map(|i| {
            let end = (i + 2).max(window);
            let values = &red[end - window..end];
            standard_deviation(values).clamp(0.5, 12.0)
        })
        .collect()
}

/// The population standard deviation.
fn standard_deviation(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// A side's game accuracy from its moves: the mean of the weighted mean and the harmonic mean of
/// their accuracies. `None` for a side that did not move.
pub fn game_accuracy(moves: &[Weighed]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let total_weight: f64 = moves.iter().map(|m| m.weight).sum();
    let weighted = moves.iter().map(|m| m.accuracy * m.weight).sum::<f64>() / total_weight;
    // A move of accuracy 0 would make the harmonic mean 0 whatever the rest: lichess counts
    // such a move as a tiny accuracy instead.
    let inverse: f64 = moves.iter().map(|m| 1.0 / m.accuracy.max(1e-3)).sum();
    let harmonic = moves.len() as f64 / inverse;
    Some((weighted + harmonic) / 2.0)
}

/// The centipawns a move lost against the best move: `best` and `played` are its side's scores
/// in centipawns, already capped at ±[`LOSS_CAP`].
pub fn loss(best: i32, played: i32) -> i32 {
    (best - played).max(0)
}

/// The mean of a side's losses; `None` when it did not move.
pub fn average_loss(losses: &[i32]) -> Option<f64> {
    if losses.is_empty() {
        return None;
    }
    Some(losses.iter().map(|&l| f64::from(l)).sum::<f64>() / losses.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swinging_game_weighs_its_moves_more() {
        let calm = weights(&[50.0; 21]);
        assert_eq!(calm.len(), 20);
        assert!(calm.iter().all(|&w| w == 0.5));
        let mut swinging = vec![50.0; 21];
        swinging[10] = 90.0;
        let weights = weights(&swinging);
        assert!(weights[9] > 12.0 - 1e-9, "{weights:?}");
        assert_eq!(weights[0], 0.5);
    }

    #[test]
    fn one_bad_move_pulls_the_accuracy_down_more_than_its_share() {
        let good = Weighed { accuracy: 100.0, weight: 1.0 };
        let bad = Weighed { accuracy: 10.0, weight: 1.0 };
        let mean = (100.0 * 9.0 + 10.0) / 10.0;
        let accuracy = game_accuracy(&[vec![good; 9], vec![bad]].concat()).unwrap();
        assert!(accuracy < mean, "{accuracy}");
        assert_eq!(game_accuracy(&[good; 4]), Some(100.0));
        assert_eq!(game_accuracy(&[]), None);
    }

    #[test]
    fn a_loss_is_never_negative() {
        assert_eq!(loss(120, 20), 100);
        assert_eq!(loss(20, 120), 0);
        assert_eq!(average_loss(&[0, 100]), Some(50.0));
    }
}
