//! The system prompt. Skills follow the Agent Skills standard's progressive disclosure: only each
//! skill's name, description and location are listed; the agent reads SKILL.md when it chooses.

pub struct SkillListing {
    pub name: String,
    pub description: String,
    /// Where its directory is mounted (read-only) in the container, e.g. `/skills/pdf-tools`.
    pub path: String,
}

pub fn system_prompt(workdir: &str, skills: &[SkillListing]) -> String {
    let mut p = format!(
        "You are a coding agent working in a Linux container. Your working directory is {workdir}.\n\
         Use the tools to inspect files, run commands and make changes. Work step by step and verify your work.\n\
         When the task is complete, reply with a short summary and no tool call.\n"
    );
    if !skills.is_empty() {
        p.push_str(
            "\n<available_skills>\nSkills are folders of instructions and resources. When a skill is relevant to the task, \
             read its SKILL.md (with read_file) before you start, and follow it.\n",
        );
        for s in skills {
            p.push_str(&format!(
                "- name: {}\n  description: {}\n  location: {}/SKILL.md\n",
                s.name, s.description, s.path
            ));
        }
        p.push_str("</available_skills>\n");
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_skills_only_when_present() {
        assert!(!system_prompt("/w", &[]).contains("available_skills"));
        let s = SkillListing {
            name: "csv-insights".into(),
            description: "Profiles CSV files.".into(),
            path: "/skills/csv-insights".into(),
        };
        let p = system_prompt("/w", &[s]);
        assert!(p.contains("name: csv-insights") && p.contains("/skills/csv-insights/SKILL.md"));
    }
}
