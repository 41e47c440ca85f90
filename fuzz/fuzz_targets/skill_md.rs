//! SKILL.md and its frontmatter.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = skillscope_skill::skill_md::parse(data);
});
