//! Glicko-2's properties over random ratings and results, and the system against a slow
//! reference written from the paper's formulas alone: the volatility found by bisection of the
//! paper's `f` (a thousand halvings, no Illinois step), each sum spelt out.

use std::f64::consts::PI;

use arbiter_rating::glicko2::SCALE;
use arbiter_rating::{Glicko2, Outcome, Rating, Score};
use proptest::prelude::*;

/// The paper's formulas, written plainly.
fn reference(tau: f64, player: Rating, games: &[Outcome]) -> Rating {
    let g = |phi: f64| 1.0 / (1.0 + 3.0 * phi.powi(2) / PI.powi(2)).sqrt();
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    let terms: Vec<(f64, f64, f64)> = games
        .iter()
        .map(|game| {
            let mu_j = (game.opponent.rating - 1500.0) / SCALE;
            let phi_j = game.opponent.deviation / SCALE;
            let e = 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
            (g(phi_j), e, game.score.value())
        })
        .collect();
    let v = 1.0 / terms.iter().map(|(g, e, _)| g * g * e * (1.0 - e)).sum::<f64>();
    let delta = v * terms.iter().map(|(g, e, s)| g * (s - e)).sum::<f64>();
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        x.exp() * (delta.powi(2) - phi.powi(2) - v - x.exp())
            / (2.0 * (phi.powi(2) + v + x.exp()).powi(2))
            - (x - a) / tau.powi(2)
    };
    // f falls from +∞ to −∞: widen a bracket around a, then halve it.
    let (mut low, mut high) = (a - 1.0, a + 1.0);
    while f(low) < 0.0 {
        low -= 1.0;
    }
    while f(high) > 0.0 {
        high += 1.0;
    }
    for _ in 0..1000 {
        let middle = (low + high) / 2.0;
        if f(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let sigma_new = (low / 2.0).exp();
    let phi_star = (phi.powi(2) + sigma_new.powi(2)).sqrt();
    let phi_new = 1.0 / (1.0 / phi_star.powi(2) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new.powi(2) * terms.iter().map(|(g, e, s)| g * (s - e)).sum::<f64>();
    Rating { rating: SCALE * mu_new + 1500.0, deviation: SCALE * phi_new, volatility: sigma_new }
}

fn rating() -> impl Strategy<Value = Rating> {
    (600.0..2900.0f64, 30.0..350.0f64, 0.03..0.12f64)
        .prop_map(|(rating, deviation, volatility)| Rating { rating, deviation, volatility })
}

fn score() -> impl Strategy<Value = Score> {
    prop_oneof![Just(Score::Loss), Just(Score::Draw), Just(Score::Win)]
}

fn outcomes() -> impl Strategy<Value = Vec<Outcome>> {
    prop::collection::vec(
        (rating(), score()).prop_map(|(opponent, score)| Outcome { opponent, score }),
        1..12,
    )
}

proptest! {
    #[test]
    fn the_system_agrees_with_the_slow_reference(
        player in rating(),
        games in outcomes(),
        tau in 0.3..1.2f64,
    ) {
        let fast = Glicko2 { tau }.rate(player, &games);
        let slow = reference(tau, player, &games);
        // ε = 10⁻⁶ on ln σ² bounds the volatility's error; the rest follows from it.
        prop_assert!((fast.volatility - slow.volatility).abs() < 1e-6, "{fast:?} {slow:?}");
        prop_assert!((fast.deviation - slow.deviation).abs() < 1e-3, "{fast:?} {slow:?}");
        prop_assert!((fast.rating - slow.rating).abs() < 1e-3, "{fast:?} {slow:?}");
    }

    #[test]
    fn a_win_raises_a_rating_and_a_loss_lowers_it(first in rating(), second in rating()) {
        let (winner, loser) = Glicko2::ARBITER.game(first, second, Score::Win);
        prop_assert!(winner.rating > first.rating);
        prop_assert!(loser.rating < second.rating);
    }

    #[test]
    fn between_players_alike_the_game_moves_both_alike(
        player in rating(),
        gap in -400.0..400.0f64,
        result in score(),
    ) {
        // Same deviation and volatility: what one gains the other loses.
        let other = Rating { rating: player.rating + gap, ..player };
        let (first, second) = Glicko2::ARBITER.game(player, other, result);
        let gained = first.rating - player.rating;
        let lost = other.rating - second.rating;
        prop_assert!((gained - lost).abs() < 1e-6, "{gained} {lost}");
        prop_assert!((first.deviation - second.deviation).abs() < 1e-6);
        // Played the other way round, the game gives the same ratings.
        let (second_again, first_again) = Glicko2::ARBITER.game(other, player, result.reversed());
        prop_assert_eq!((first, second), (first_again, second_again));
    }

    #[test]
    fn a_draw_between_equals_leaves_the_rating(player in rating()) {
        let (first, second) = Glicko2::ARBITER.game(player, player, Score::Draw);
        prop_assert!((first.rating - player.rating).abs() < 1e-9);
        prop_assert_eq!(first, second);
    }

    #[test]
    fn an_uncertain_rating_grows_surer_with_a_game(
        player in rating(),
        gap in -400.0..400.0f64,
        deviation in 30.0..350.0f64,
        result in score(),
    ) {
        prop_assume!(player.deviation >= 100.0 && player.volatility <= 0.09);
        let opponent = Rating { rating: player.rating + gap, deviation, volatility: 0.06 };
        let after = Glicko2::ARBITER.rate(player, &[Outcome { opponent, score: result }]);
        prop_assert!(after.deviation < player.deviation, "{player:?} → {after:?}");
    }

    #[test]
    fn idle_periods_grow_the_deviation_up_to_a_newcomers(
        player in rating(),
        periods in 0u32..2000,
        more in 1u32..100,
    ) {
        let idle = player.idle(periods);
        let longer = player.idle(periods + more);
        prop_assert!(idle.deviation >= player.deviation);
        prop_assert!(longer.deviation >= idle.deviation);
        prop_assert!(longer.deviation <= Rating::START.deviation.max(player.deviation));
        prop_assert!(longer.deviation > idle.deviation || longer.deviation >= 350.0);
        prop_assert_eq!((idle.rating, idle.volatility), (player.rating, player.volatility));
    }
}
