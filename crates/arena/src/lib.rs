//! The skill arena (组合数问题, THUPC 2018).
pub mod gcc_sort;
pub mod grid;
pub mod game;
pub mod skill;
