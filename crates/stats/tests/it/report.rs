//! Report shape, classification, repeats, determinism, CSV round trip.

use skillscope_stats::report::classify;
use skillscope_stats::signflip::{min_p, SignFlip, SignFlipMethod};
use skillscope_stats::units::{REPEATS_METHOD, UNIT_METHOD};
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
            "unit",
            "unit_method",
            "n_nonzero",
            "min_p",
            "design_min_p",
        ] {
            assert!(!row[k].is_null(), "missing {k} in {row}");
        }
    }
    assert_eq!(j["skills"][0]["unit"], "task");
    let skill = |s: &str| r.skills.iter().find(|x| x.skill == s).unwrap();
    assert_eq!(skill("up").config, "all");
    // Ten tasks, each run under two configs: ten units, not twenty.
    assert_eq!((skill("up").n, skill("up").n_pairs), (10, 20));
    assert_eq!(skill("up").class, Class::Golden);
    assert_eq!(skill("down").class, Class::Harmful);
    assert_eq!(skill("flat").class, Class::Ineffective);
    assert_eq!(skill("flat").p_signflip, 1.0);
    assert_eq!(skill("flat").ceiling_rate, 1.0);
    // 8 positive of 10 tasks: p = 2 / 2^8.
    assert!((skill("up").p_signflip - 2.0 / 256.0).abs() < 1e-15);
    assert!((skill("up").delta - 40.0).abs() < 1e-12);
    assert!((skill("up").prg - skill("up").delta).abs() < 1e-12, "PRG in points, like delta");
    assert_eq!(j["skills"][0]["class"], "harmful"); // sorted: down, flat, up
                                                    // Group rows: 8 of 10 positive → p = 2/256 < 0.05.
    let g = r.groups.iter().find(|g| g.skill == "up" && g.config == "c1").unwrap();
    assert!((g.p_signflip - 2.0 / 256.0).abs() < 1e-15);
    assert!(g.q_bh >= g.p_signflip);
    assert!(g.mde.unwrap() > 0.0);
    assert!(g.mde_method.is_some() && g.mde_se.is_some());
}

#[test]
fn classification_rule() {
    let exact = |p: f64| SignFlip { p, error: 0.0, method: SignFlipMethod::Exact };
    let grid = |p: f64, error: f64| SignFlip { p, error, method: SignFlipMethod::Grid };
    let design = min_p(6);
    assert_eq!(classify(3.0, &exact(0.049), design), Class::Golden);
    assert_eq!(classify(-3.0, &exact(0.049), design), Class::Harmful);
    assert_eq!(classify(3.0, &exact(0.05), design), Class::Ineffective);
    assert_eq!(classify(0.0, &exact(0.001), design), Class::Ineffective);
    // A bracket containing 0.05 is no verdict, whichever side p is on.
    assert_eq!(classify(3.0, &grid(0.051, 0.002), design), Class::Undecided);
    assert_eq!(classify(3.0, &grid(0.05, 0.0001), design), Class::Undecided);
    assert_eq!(classify(3.0, &grid(0.049, 0.01), design), Class::Golden);
    assert_eq!(classify(3.0, &grid(0.07, 0.01), design), Class::Ineffective);
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
    assert_eq!((g.design_min_p, g.min_p), (0.0625, 0.0625));
    assert_eq!(g.class, Class::TooFewTasks);
    assert_eq!(g.mde, None);
    // SkillAudit's three scenarios: the smallest reachable p is 0.25.
    let g = &analyze(&v[..3]).groups[0];
    assert_eq!((g.min_p, g.class), (0.25, Class::TooFewTasks));
    // Six tasks all up: reachable and reached.
    let v: Vec<Pair> = (0..6).map(|t| Pair::new("s", "c", &format!("t{t}"), 0.0, 1.0)).collect();
    assert_eq!(analyze(&v).groups[0].class, Class::Golden);
}

/// Issue 13 ruled that a design of ≤ 5 tasks reads too_few_tasks. Three scenarios under two
/// configurations are three tasks, not six units: p = 2/64 = 0.031 could otherwise read golden.
#[test]
fn three_tasks_under_two_configurations_are_too_few() {
    let v: Vec<Pair> =
        ["c1", "c2"].iter().flat_map(|c| (0..3).map(move |t| Pair::new("s", c, &format!("t{t}"), 0.0, 1.0))).collect();
    let r = analyze(&v);
    let pooled = &r.skills[0];
    assert_eq!((pooled.n, pooled.n_nonzero, pooled.n_pairs), (3, 3, 6));
    assert_eq!((pooled.design_min_p, pooled.min_p, pooled.class), (0.25, 0.25, Class::TooFewTasks));
    assert_eq!(pooled.unit_method, UNIT_METHOD);
    assert!(r.groups.iter().all(|g| g.n == 3 && g.class == Class::TooFewTasks && g.unit_method == REPEATS_METHOD));
}

/// Five tasks under two configurations and a second condition, one of them repeated: still five
/// units (every run of a task averaged into it), too few however many runs they took.
#[test]
fn five_tasks_under_configurations_and_conditions_are_too_few() {
    let mut v = Vec::new();
    for t in 0..5 {
        let task = format!("t{t}");
        v.push(Pair::new("s", "c1", &task, 0.2, 0.9));
        v.push(Pair::new("s", "c2", &task, 0.0, 0.6));
        for rep in 0..2 {
            v.push(Pair {
                condition: Some("group".into()),
                repeat: Some(rep),
                ..Pair::new("s", "c1", &task, 0.1, 0.5)
            });
        }
    }
    let pooled = &analyze(&v).skills[0];
    assert_eq!((pooled.n, pooled.n_pairs, pooled.class), (5, 20, Class::TooFewTasks));
    assert_eq!(pooled.design_min_p, 0.0625);
    assert!(pooled.p_signflip >= 0.05);
}

/// The smallest reachable p counts only the tasks that can move: 17 of 20 tied leave 3, and
/// 2/2^3 = 0.25, however small the design's 2/2^20.
#[test]
fn ties_raise_the_smallest_reachable_p() {
    let v: Vec<Pair> =
        (0..20).map(|t| Pair::new("s", "c", &format!("t{t}"), 0.5, if t < 3 { 1.0 } else { 0.5 })).collect();
    let g = &analyze(&v).groups[0];
    assert_eq!((g.n, g.n_nonzero), (20, 3));
    assert_eq!((g.min_p, g.design_min_p), (0.25, min_p(20)));
    assert_eq!((g.p_signflip, g.class), (0.25, Class::Ineffective));
    assert_eq!(g.mde, None, "three moving tasks cannot reach 0.05");
}

/// A row of ties only: nothing can move, the smallest reachable p is 1.
#[test]
fn all_ties_reach_no_p_below_one() {
    let v: Vec<Pair> = (0..8).map(|t| Pair::new("s", "c", &format!("t{t}"), 0.4, 0.4)).collect();
    let g = &analyze(&v).groups[0];
    assert_eq!((g.n, g.n_nonzero, g.min_p, g.design_min_p), (8, 0, 1.0, min_p(8)));
    assert_eq!((g.class, g.mde, g.mde_method), (Class::Ineffective, None, None));
}

/// A task's configurations weigh alike: three repeats under one config and one run under the
/// other give each config's mean half the weight, in the delta and in each arm's mean.
#[test]
fn unequal_repeats_are_averaged_per_configuration_first() {
    let mut v = Vec::new();
    for t in 0..8 {
        let task = format!("t{t}");
        for rep in 0..3 {
            v.push(Pair { repeat: Some(rep), ..Pair::new("s", "a", &task, 0.0, 1.0) });
        }
        v.push(Pair::new("s", "b", &task, 0.0, 0.0));
    }
    let pooled = &analyze(&v).skills[0];
    assert_eq!((pooled.n, pooled.n_pairs), (8, 32));
    assert_eq!((pooled.delta, pooled.mean_without, pooled.mean_with), (50.0, 0.0, 50.0), "not 75: 3 of 4 runs");
    assert_eq!((pooled.n_repeated_tasks, pooled.var_with), (8, Some(0.0)), "config a's repeats");
    assert_eq!((pooled.class, pooled.p_signflip), (Class::Golden, 2.0 / 256.0));
    // The SkillAudit PRG stays over raw pairs.
    assert_eq!(pooled.prg, 75.0);
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
