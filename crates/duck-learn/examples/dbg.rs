use arbiter_duck_learn::mine::*;
use arbiter_duck_learn::probe::Probe;
fn main() {
    let mut gp = Probe::new(300);
    for g in 0..60 {
        let game = play_game(&mut gp, &Play { seed: 1, random_plies: 8, blunders: 0.1 }, g);
        if game.moves.len() < 40 {
            println!("game {g}: {} plies", game.moves.len());
            println!("{}", game.moves.len());
            for m in &game.moves {
                println!("{m}");
            }
        }
    }
}
