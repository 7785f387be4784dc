// SPDX-License-Identifier: GPL-2.0-or-later
// A Rust program of known shape, built by tests/run-native.sh with rustc
// (std only): shape::leaf_a, leaf_b and leaf_c share its time 6:3:1, all
// in shape::spin, under shape::work::Tree::run.
use std::time::{Duration, Instant};

#[inline(never)]
fn spin(n: u64) -> u64 {
    let mut x = n;
    for i in 0..20000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
    }
    x
}

#[inline(never)]
fn leaf_a(n: u64) -> u64 { spin(n) ^ 1 }
#[inline(never)]
fn leaf_b(n: u64) -> u64 { spin(n) ^ 2 }
#[inline(never)]
fn leaf_c(n: u64) -> u64 { spin(n) ^ 3 }

mod work {
    pub struct Tree { pub keys: std::collections::BTreeMap<u64, u64> }
    impl Tree {
        #[inline(never)]
        pub fn run(&mut self, secs: f64) -> u64 {
            let end = std::time::Instant::now() + std::time::Duration::from_secs_f64(secs);
            let mut acc = 0u64;
            let mut i = 0u64;
            while std::time::Instant::now() < end {
                for _ in 0..6 { acc = acc.wrapping_add(super::leaf_a(i)); }
                for _ in 0..3 { acc = acc.wrapping_add(super::leaf_b(i)); }
                acc = acc.wrapping_add(super::leaf_c(i));
                self.keys.insert(i % 64, acc);
                i += 1;
            }
            acc
        }
    }
}

/// With PROF_WORKLOAD_CPU set, add the CPU seconds used (user and system,
/// from /proc/self/stat in USER_HZ, 100 on Linux) to that file, as the C
/// workloads do: tests set their sample floors from it.
fn report_cpu() {
    let path = match std::env::var("PROF_WORKLOAD_CPU") {
        Ok(p) if !p.is_empty() => p,
        _ => return,
    };
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit(") ").next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    if f.len() > 12 {
        let ticks: u64 = f[11].parse::<u64>().unwrap_or(0) + f[12].parse::<u64>().unwrap_or(0);
        use std::io::Write;
        if let Ok(mut out) = std::fs::OpenOptions::new().append(true).create(true).open(path) {
            let _ = writeln!(out, "{:.6}", ticks as f64 / 100.0);
        }
    }
}

fn main() {
    let secs: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let _ = (Duration::from_secs(0), Instant::now());
    let mut t = work::Tree { keys: Default::default() };
    println!("{}", t.run(secs) & 1);
    report_cpu();
}
