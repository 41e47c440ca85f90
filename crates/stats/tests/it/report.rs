//! Report shape, classification, repeats, determinism, CSV round trip.

use skillscope_stats::report::classify;
use skillscope_stats::signflip::{min_p, SignFlip, SignFlipMethod};
use skillscope_stats::{analyze, analyze_with, read_pairs_csv, Class, Pair};

fn sample() -> Vec<Pair> {
    let mut v = Vec::new();
    for cfg in ["c1", "c2"] {
        for t in 0..10 {
            // "up": +0.5 on 8 tasks; "down": −0.25 on 9 tasks; "flat": zeros.
            v.push(Pair::new("up", cfg, &format!("t{t}"), 0.25, if t < 8 { 0.75 } else { 0.25 }));
            v.push(Pair::new("down", cfg, &format!("t{t}"), 0.5, if t < 9 { 0.25 } else { 0.5 }));
            v.push(Pair::new("flat", cfg, &format!("t{t}"), 1.0, 1.0));
        }
    }
    v
}

#[test]
fn json_shape_and_classes() {
    let r = analyze(&sample());
    let j = serde_json::to_value(&r).unwrap();
    for k in ["n_pairs", "mean_without", "mean_with", "delta"] {
        assert!(j["overall"][k].is_number(), "overall.{k}");
    }
    assert_eq!(j["groups"].as_array().unwrap().len(), 6);
    assert_eq!(j["skills"].as_array().unwrap().len(), 3);
    for row in j["groups"].as_array().unwrap().iter().chain(j["skills"].as_array().unwrap()) {
        for k in [
            "skill",
            "config",
            "n",
            "mean_without",
            "mean_with",
            "delta",
            "p_signflip",
            "p_wilcoxon",
            "p_ttest",
            "ci_low",
            "ci_high",
            "class",
            "q_bh",
        ] {
            assert!(!row[k].is_null(), "missing {k} in {row}");
        }
    }
    let skill = |s: &str| r.skills.iter().find(|x| x.skill == s).unwrap();
    assert_eq!(skill("up").config, "all");
    assert_eq!(skill("up").n, 20);
    assert_eq!(skill("up").class, Class::Golden);
    assert_eq!(skill("down").class, Class::Harmful);
    assert_eq!(skill("flat").class, Class::Ineffective);
    assert_eq!(skill("flat").p_signflip, 1.0);
    assert_eq!(skill("flat").ceiling_rate, 1.0);
    // 16 positive of 20: p = 2 / 2^16.
    assert!((skill("up").p_signflip - 2.0 / 65536.0).abs() < 1e-15);
    assert!((skill("up").delta - 40.0).abs() < 1e-12);
    assert!((skill("up").prg - skill("up").delta).abs() < 1e-12, "PRG in points, like delta");
    assert_eq!(j["skills"][0]["class"], "harmful"); // sorted: down, flat, up
                                                    // Group rows: 8 of 10 positive → p = 2/256 < 0.05.
    let g = r.groups.iter().find(|g| g.skill == "up" && g.config == "c1").unwrap();
    assert!((g.p_signflip - 2.0 / 256.0).abs() < 1e-15);
    assert!(g.q_bh >= g.p_signflip);
    assert!(g.mde.unwrap() > 0.0);
}

#[test]
fn classification_rule() {
    let exact = |p: f64| SignFlip { p, error: 0.0, method: SignFlipMethod::Exact };
    let grid = |p: f64, error: f64| SignFlip { p, error, method: SignFlipMethod::Grid };
    let reachable = min_p(6);
    assert_eq!(classify(3.0, &exact(0.049), reachable), Class::Golden);
    assert_eq!(classify(-3.0, &exact(0.049), reachable), Class::Harmful);
    assert_eq!(classify(3.0, &exact(0.05), reachable), Class::Ineffective);
    assert_eq!(classify(0.0, &exact(0.001), reachable), Class::Ineffective);
    // A bracket containing 0.05 is no verdict, whichever side p is on.
    assert_eq!(classify(3.0, &grid(0.051, 0.002), reachable), Class::Undecided);
    assert_eq!(classify(3.0, &grid(0.05, 0.0001), reachable), Class::Undecided);
    assert_eq!(classify(3.0, &grid(0.049, 0.01), reachable), Class::Golden);
    assert_eq!(classify(3.0, &grid(0.07, 0.01), reachable), Class::Ineffective);
    // Five tasks cannot reach p < 0.05 (2/2^5 = 0.0625): never "ineffective".
    assert_eq!(min_p(5), 0.0625);
    assert_eq!(classify(3.0, &exact(0.0625), min_p(5)), Class::TooFewTasks);
    assert_eq!(classify(0.0, &exact(1.0), min_p(3)), Class::TooFewTasks);
    assert_eq!(serde_json::to_string(&Class::Golden).unwrap(), "\"golden\"");
    assert_eq!(serde_json::to_string(&Class::TooFewTasks).unwrap(), "\"too_few_tasks\"");
}

#[test]
fn five_tasks_are_too_few_and_have_no_mde() {
    let v: Vec<Pair> = (0..5).map(|t| Pair::new("s", "c", &format!("t{t}"), 0.0, 1.0)).collect();
    let g = &analyze(&v).groups[0];
    assert_eq!(g.p_signflip, 0.0625);
    assert_eq!(g.min_p, 0.0625);
    assert_eq!(g.class, Class::TooFewTasks);
    assert_eq!(g.mde, None);
    // SkillAudit's three scenarios: the smallest reachable p is 0.25.
    let g = &analyze(&v[..3]).groups[0];
    assert_eq!((g.min_p, g.class), (0.25, Class::TooFewTasks));
    // Six tasks all up: reachable and reached.
    let v: Vec<Pair> = (0..6).map(|t| Pair::new("s", "c", &format!("t{t}"), 0.0, 1.0)).collect();
    assert_eq!(analyze(&v).groups[0].class, Class::Golden);
}

#[test]
fn deterministic() {
    let a = serde_json::to_string(&analyze(&sample())).unwrap();
    let b = serde_json::to_string(&analyze(&sample())).unwrap();
    assert_eq!(a, b);
}

#[test]
fn repeats_are_averaged_and_give_variance() {
    let mut v = Vec::new();
    for t in 0..5 {
        for (rep, (wo, wi)) in [(0.0, 1.0), (0.5, 1.0)].into_iter().enumerate() {
            let mut p = Pair::new("s", "c", &format!("t{t}"), wo, wi);
            p.repeat = Some(rep as u32);
            v.push(p);
        }
    }
    let r = analyze(&v);
    let g = &r.groups[0];
    assert_eq!(g.n, 5);
    assert_eq!(g.n_pairs, 10);
    assert_eq!(g.n_repeated_tasks, 5);
    // Without arm: 0 and 50 points → sample variance 1250; with arm constant.
    assert!((g.var_without.unwrap() - 1250.0).abs() < 1e-9);
    assert_eq!(g.var_with, Some(0.0));
    assert!((g.delta - 75.0).abs() < 1e-12);
    assert!((g.p_signflip - 2.0 / 32.0).abs() < 1e-15);
    assert!(analyze(&[Pair::new("s", "c", "t", 0.2, 0.4)]).groups[0].var_without.is_none());
}

#[test]
fn csv_then_analyze() {
    let csv = "skill,config,task,without,with,time_without,time_with,tokens_without,tokens_with\n\
               s,c,t1,0.5,1,10,5,100,100\n\
               s,c,t2,0,0,10,5,100,100\n";
    let pairs = read_pairs_csv(csv.as_bytes()).unwrap();
    let r = analyze(&pairs);
    let g = &r.groups[0];
    assert_eq!(g.n_eg, 1);
    assert_eq!(g.eg, Some(0.5));
    assert_eq!(g.cg, Some(0.0));
    assert_eq!(g.ecg, Some(0.25));
    assert_eq!(r.overall.n_pairs, 2);
    assert!((r.overall.delta - 25.0).abs() < 1e-12);
}

#[test]
fn empty_input() {
    let r = analyze(&[]);
    assert_eq!(r.overall.n_pairs, 0);
    assert!(r.groups.is_empty() && r.skills.is_empty());
}

#[test]
fn large_pooled_group_is_exact_and_fast_enough() {
    // 200 deltas of various thirds/fifths: must stay on the exact path.
    let mut v = Vec::new();
    for t in 0..200 {
        let wo = (t % 4) as f64 / 3.0;
        let wo = wo.min(1.0);
        let wi = ((t * 7) % 6) as f64 / 5.0;
        v.push(Pair::new("s", &format!("c{}", t % 4), &format!("t{t}"), wo, wi.min(1.0)));
    }
    let r = analyze(&v);
    assert_eq!(r.skills[0].n, 200);
    assert_eq!(r.skills[0].p_signflip_method, SignFlipMethod::Exact);
}

/// A task run isolated and among decoys under one configuration gives two group rows (one per
/// condition) but one unit of the pooled row, its two deltas averaged: counted once, not twice.
#[test]
fn a_task_under_two_conditions_is_one_unit_of_the_pooled_row() {
    let mut pairs = Vec::new();
    for t in 0..8 {
        let task = format!("t{t}");
        pairs.push(Pair::new("s", "c", &task, 0.0, 1.0));
        pairs.push(Pair { condition: Some("group".into()), ..Pair::new("s", "c", &task, 0.0, 0.5) });
    }
    let r = analyze(&pairs);
    let rows: Vec<(&str, usize)> = r.groups.iter().map(|g| (g.config.as_str(), g.n)).collect();
    assert_eq!(rows, [("c", 8), ("c (group)", 8)]);
    assert_eq!((r.skills[0].n, r.skills[0].n_pairs), (8, 16), "eight tasks, each once");
    assert!((r.skills[0].delta - 75.0).abs() < 1e-9, "each task's two deltas averaged: {}", r.skills[0].delta);
}

/// Rows whose pairs are unchanged are taken from the memo, not computed again (a planted row
/// comes back as planted); a row whose pairs changed is computed again; the memo ends up holding
/// exactly the new analysis's rows, equal to what a fresh analysis gives.
#[test]
fn only_changed_rows_are_computed_again() {
    let mut pairs = sample();
    let mut memo = skillscope_stats::RowMemo::new();
    let first = analyze_with(&pairs, &mut memo);
    assert_eq!(first, analyze(&pairs));
    assert_eq!(memo.len(), first.skills.len() + first.groups.len());
    for row in memo.values_mut().filter(|r| r.skill == "flat") {
        row.mean_with = -1.0; // planted: only a memo hit returns it
    }
    let p = pairs.iter_mut().find(|p| p.skill == "up" && p.config == "c1").unwrap();
    p.with = 0.5;
    let second = analyze_with(&pairs, &mut memo);
    let flat: Vec<f64> =
        second.skills.iter().chain(&second.groups).filter(|r| r.skill == "flat").map(|r| r.mean_with).collect();
    assert!(flat.iter().all(|&m| m == -1.0), "unchanged rows come from the memo: {flat:?}");
    let fresh = analyze(&pairs);
    let up =
        |r: &skillscope_stats::Report| r.groups.iter().find(|g| g.skill == "up" && g.config == "c1").unwrap().clone();
    assert_eq!(up(&second), up(&fresh), "the changed row is computed again");
    assert_ne!(up(&second), up(&first));
}

/// Found by the fuzzer: three units whose deltas are not small fractions once took a grid table
/// of gigabytes; a handful of units is enumerated instead, exactly and at once.
#[test]
fn a_few_units_with_awkward_deltas_are_enumerated() {
    let pairs = vec![
        Pair::new("a", "c", "t1", 0.2, 0.8),
        Pair { repeat: Some(1), ..Pair::new("a", "c", "t2", 0.5666666, 0.35) },
        Pair::new("b", "c", "t1", 1.0, 0.0),
    ];
    let r = analyze(&pairs);
    let a = r.groups.iter().find(|g| g.skill == "a").unwrap();
    assert_eq!((a.p_signflip, a.p_signflip_error, a.p_signflip_method), (1.0, 0.0, SignFlipMethod::Exact));
}
